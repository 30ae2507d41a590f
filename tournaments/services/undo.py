"""Undo, audited, within the rules' windows.

- :func:`round_pairings_discard`: throw away a round's pairings before it starts, so its
  pairing group is paired again (``rounds.round_discard``, P-POST-2).
- :func:`round_seats_swap`: swap two players of a round between their tables before it
  starts; the round's pairing notes ("Why these pairings") record the manual change.
- :func:`round_table_move`: re-seat a table (its players move to another table number,
  trading with the table there) before the round starts; noted and audited the same way.
- :func:`round_last_entry_undo`: clear the result that completed a round and reopen it,
  until the next round of its pairing group is paired (after that a judge corrects,
  P-POST-4).

Reinstating a dropped player is ``registrations.registration_reinstate``; a staff entry
over a result every player reported needs a reason (``results.check_agreed_override``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from ..actors import Actor, actor_name
from ..errors import InvalidInput, ResultConflict, RoundStateError
from ..groups import group_label
from ..models import (
    Event,
    EventStatus,
    Match,
    MatchSeat,
    Outcome,
    Phase,
    Registration,
    Round,
    RoundStatus,
)
from ..public_pages import public_pages_changed
from .audit import audit_log
from .result_types import result_format, seats_of
from .results import locked_match
from .rounds import round_discard, standings_refresh_on_commit
from .seating import move_refusal, seating_after_move, swap_refusal
from .tables import tables_in_play

NOT_STARTED = (RoundStatus.PAIRED, RoundStatus.PUBLISHED)
SWISS_PHASES = (Phase.SWISS, Phase.SWISS_DAY2)
NOTE_MAX = 500


# --- 1. discard a paired round ---------------------------------------------------------


@transaction.atomic
def round_pairings_discard(*, round: Round, by: Actor, reason: str = "") -> Event:  # noqa: A002
    """Discard the pairings of a round that has not started: its
    matches and the round row are removed (``rounds.round_discard``: refused with
    RoundStateError once started, P-POST-2; one ``round.discard`` audit row with the
    discarded tables and seed; the public pages rebuilt when the round was public; the
    live pages told by the audit row). The event goes back to its Swiss stage when no
    top-cut round is left. The pairing group can then "Pair the next round" again.

    Returns the event. Raises RoundStateError once the round has started.
    """
    event = Event.objects.select_for_update().get(pk=round.event_id)
    round_discard(round=round, by=by, reason=reason.strip()[:NOTE_MAX])
    cut_left = Round.objects.filter(event=event, phase=Phase.TOP_CUT).exists()
    if event.status == EventStatus.TOP_CUT and not cut_left:
        event.status = EventStatus.SWISS
        event.save(update_fields=["status"])
    return event


# --- 2. swap two players -----------------------------------------------------------------


def _seat(rnd: Round, reg: Registration) -> MatchSeat:
    """``reg``'s seat in ``rnd``; InvalidInput when they are not paired in it (another
    pairing group's player says so)."""
    seat = (
        MatchSeat.objects.select_related("match", "registration__player")
        .filter(round=rnd, registration=reg)
        .first()
    )
    if seat is not None:
        return seat
    name = reg.player.name
    other = (
        MatchSeat.objects.filter(
            registration=reg, round__event_id=rnd.event_id, round__number=rnd.number
        )
        .select_related("round__group")
        .first()
    )
    if other is not None:
        raise InvalidInput(
            gettext(
                "%(name)s plays in %(group)s, not in this round: players of two pairing "
                "groups are never swapped."
            )
            % {"name": name, "group": group_label(other.round.group)}
        )
    raise InvalidInput(
        gettext("%(name)s is not paired in round %(number)s.")
        % {"name": name, "number": rnd.number}
    )


def _met_before(rnd: Round, ids: set[int]) -> bool:
    """Whether two of the players ``ids`` met at a table of another round of the event."""
    rows = (
        MatchSeat.objects.filter(registration_id__in=ids, round__event_id=rnd.event_id)
        .exclude(round=rnd)
        .exclude(match__outcome__in=(Outcome.BYE, Outcome.LOSS))
        .values_list("match_id", "registration_id")
    )
    seated: dict[int, set[int]] = defaultdict(set)
    for match_id, reg_id in rows:
        seated[match_id].add(reg_id)
    return any(len(players) > 1 for players in seated.values())


def _table_label(match: Match) -> str:
    """Where a player sits, as the stored notes say it (English, like the engine's)."""
    return f"table {match.table}" if match.table else "the bye"


@transaction.atomic
def round_seats_swap(
    *,
    round: Round,  # noqa: A002
    first: Registration,
    second: Registration,
    by: Actor,
    reason: str = "",
) -> Round:
    """Swap two players of a round that has not started between their tables (
    item 2): each takes the other's seat (a bye goes with the seat). Only Swiss rounds
    (a bracket follows the seeds: discard and pair it again instead).

    Refused with InvalidInput (nothing changes) for one player twice, two players of one
    table (that would seat a player against themselves), a player not paired in this
    round (another pairing group's player says so), a late-entry loss; with
    RoundStateError once the round has started (P-POST-2) or for a bracket round.
    The two tables' "why" becomes "manual change" (the engine's reason, "same record",
    no longer holds) and their rematch flag is computed again; the round's pairing notes (shown on "Why these pairings") get "Manual change
    by <user>: swapped A (table 3) and B (table 5)."; one ``round.swap`` audit row holds
    both tables before and after, and ``reason``. The public pages are rebuilt when the
    round is published. Returns the round.
    """
    rnd = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    if rnd.status not in NOT_STARTED:
        raise RoundStateError(
            gettext("Round %(number)s has started: its pairings are frozen.")
            % {"number": rnd.number}
        )
    if rnd.phase not in SWISS_PHASES:
        raise RoundStateError(
            gettext(
                "Round %(number)s is a bracket round: its pairings follow the seeds. "
                "Discard it and pair it again instead."
            )
            % {"number": rnd.number}
        )
    if first.pk == second.pk:
        raise InvalidInput(gettext("Choose two different players to swap."))
    a, b = _seat(rnd, first), _seat(rnd, second)
    if a.match_id == b.match_id:
        raise InvalidInput(
            gettext(
                "%(a)s and %(b)s sit at the same table: a swap would pair them against themselves."
            )
            % {"a": a.registration.player.name, "b": b.registration.player.name}
        )
    if Outcome.LOSS in (a.match.outcome, b.match.outcome):
        raise InvalidInput(gettext("A late-entry loss is not a table: it cannot be swapped."))
    if refusal := swap_refusal(rnd, [a.registration, b.registration]):
        raise InvalidInput(refusal)
    matches = {
        m.pk: m for m in Match.objects.select_for_update().filter(pk__in=[a.match_id, b.match_id])
    }

    def tables() -> list[list[Any]]:  # names, as people read the audit trail
        return [
            [m.table, [s.registration.player.name for s in seats_of(m)]]
            for m in (matches[a.match_id], matches[b.match_id])
        ]

    old = tables()
    places = [(a.match_id, a.seat, b.registration_id), (b.match_id, b.seat, a.registration_id)]
    MatchSeat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    MatchSeat.objects.bulk_create(
        MatchSeat(match_id=match_id, round_id=rnd.pk, registration_id=reg_id, seat=seat)
        for match_id, seat, reg_id in places
    )
    for m in matches.values():
        ids = set(m.seats.values_list("registration_id", flat=True))
        m.rematch = len(ids) > 1 and _met_before(rnd, ids)
        m.pair_down = False
        m.why = "manual change"  # the engine's reason no longer holds for these players
        m.save(update_fields=["rematch", "pair_down", "why"])
    names = (a.registration.player.name, b.registration.player.name)
    note = (
        f"Manual change by {actor_name(by)}: swapped {names[0]} "
        f"({_table_label(matches[a.match_id])}) and {names[1]} ({_table_label(matches[b.match_id])})."
    )
    rematches = [m.table for m in matches.values() if m.rematch]
    if rematches:
        note += f" Table {', '.join(map(str, rematches))} is now a rematch."
    rnd.notes = [*rnd.notes, note]
    rnd.save(update_fields=["notes"])
    audit_log(
        event=rnd.event,
        by=by,
        action="round.swap",
        obj=rnd,
        round_number=rnd.number,
        old={"tables": old},
        new={"tables": tables()},
        reason=reason.strip()[:NOTE_MAX] or note,
    )
    if rnd.status == RoundStatus.PUBLISHED:
        public_pages_changed(rnd.event_id)
    return rnd


# --- 2b. re-seat a table ------------------------------------------------------------------

MAX_TABLE = 5000


@transaction.atomic
def round_table_move(
    *,
    round: Round,  # noqa: A002
    match: Match,
    table: int,
    by: Actor,
    reason: str = "",
) -> Round:
    """Re-seat a table of a round that has not started: its
    players move to table ``table`` (a player who needs a table near the door, a broken
    table). When another table of the round already has that number, the two tables
    trade numbers. Refused with InvalidInput (nothing changes) for a bye, a late-entry
    loss, a number outside 1–5000 or a table another pairing group plays at in the same
    hall (``tables.tables_in_play``: numbers stay unique across groups); with
    RoundStateError once the round has started (P-POST-2). The round's pairing notes get
    "Manual change by <user>: table 3 moved to table 12."; one ``round.reseat`` audit row
    holds the tables before and after, and ``reason``. Returns the round."""
    rnd = Round.objects.select_for_update().select_related("event", "group").get(pk=round.pk)
    if rnd.status not in NOT_STARTED:
        raise RoundStateError(
            gettext("Round %(number)s has started: its pairings are frozen.")
            % {"number": rnd.number}
        )
    m = Match.objects.select_for_update().get(pk=match.pk, round=rnd)
    if m.table is None or m.outcome in (Outcome.BYE, Outcome.LOSS):
        raise InvalidInput(gettext("A bye or a late-entry loss has no table to move."))
    if not 1 <= table <= MAX_TABLE:
        raise InvalidInput(gettext("Choose a table from 1 to %(most)s.") % {"most": MAX_TABLE})
    if table == m.table:
        raise InvalidInput(
            gettext("The players already sit at table %(table)s.") % {"table": table}
        )
    if table in tables_in_play(rnd.event, besides=rnd.group):
        raise InvalidInput(
            gettext("Table %(table)s is in use by another pairing group in the hall.")
            % {"table": table}
        )
    if refusal := move_refusal(rnd, m, table):  # fixed seats stay
        raise InvalidInput(refusal)
    other = Match.objects.select_for_update().filter(round=rnd, table=table).first()
    old = {"table": m.table, "to": table, "traded_with": other.pk if other else None}
    was = m.table
    if other is not None:  # trade numbers (the unique constraint: through a free number)
        other.table = None
        other.save(update_fields=["table"])
    m.table = table
    m.why = (
        m.why
        if "manual change" in m.why
        else "; ".join(p for p in (m.why, "manual change") if p)[:200]
    )
    m.seating = seating_after_move(rnd, m)
    m.save(update_fields=["table", "why", "seating"])
    if other is not None:
        other.table = was
        other.save(update_fields=["table"])
    note = f"Manual change by {actor_name(by)}: table {was} moved to table {table}."
    if other is not None:
        note += f" Table {table}'s players moved to table {was}."
    rnd.notes = [*rnd.notes, note]
    rnd.save(update_fields=["notes"])
    audit_log(
        event=rnd.event,
        by=by,
        action="round.reseat",
        obj=rnd,
        round_number=rnd.number,
        old=old,
        new={"table": table, "other_table": was if other else None},
        reason=reason.strip()[:NOTE_MAX] or note,
    )
    if rnd.status == RoundStatus.PUBLISHED:
        public_pages_changed(rnd.event_id)
    return rnd


# --- 4. undo the last entry of a round ------------------------------------------------


def round_last_entry(rnd: Round) -> Match | None:
    """The table whose result was entered last in ``rnd`` (byes and late-entry losses
    are never entered), or None when none was."""
    return (
        rnd.matches.filter(reported_at__isnull=False)
        .exclude(outcome__in=(Outcome.PENDING, Outcome.BYE, Outcome.LOSS))
        .select_related("winner__player")
        .order_by("-reported_at", "-pk")
        .first()
    )


def last_entry_undo_refusal(rnd: Round) -> str:
    """Why the last entry of ``rnd`` cannot be undone, in words; "" when it can: the
    round must be complete, the next round of its pairing group not paired yet, the
    event not finished, and no result of the round changed after it completed (that
    was a judge's correction: another correction changes it)."""
    if rnd.status != RoundStatus.COMPLETE:
        return gettext("Round %(number)s is not complete: there is no last entry to undo.") % {
            "number": rnd.number
        }
    if Round.objects.filter(group_id=rnd.group_id, number__gt=rnd.number).exists():
        return gettext(
            "Round %(number)s is already paired: the last entry of round %(previous)s can only "
            "be changed by a judge's correction, with a reason."
        ) % {"number": rnd.number + 1, "previous": rnd.number}
    if Event.objects.filter(pk=rnd.event_id, status=EventStatus.FINISHED).exists():
        return gettext("The event is finished: a judge corrects its results, with a reason.")
    last = round_last_entry(rnd)
    if last is None:
        return gettext("Round %(number)s has no entered result to undo.") % {"number": rnd.number}
    if rnd.completed_at is not None and last.reported_at and last.reported_at > rnd.completed_at:
        return gettext(
            "A result of round %(number)s was corrected after the round completed: a judge "
            "corrects it again, with a reason."
        ) % {"number": rnd.number}
    return ""


@transaction.atomic
def round_last_entry_undo(
    *,
    round: Round,  # noqa: A002
    by: Actor,
    match: Match | None = None,
    version: int | None = None,
    reason: str = "",
) -> Match:
    """Undo the entry that completed a round: the result of the table
    entered last is cleared (not reported again, a new match version) and the round is
    in progress again, so the slip can be entered anew. Only that most recent entry:
    the others of a complete round change through a judge's correction (P-POST-4).

    match / version: the table and version the page offered; when another entry came
    meanwhile ResultConflict is raised and nothing changes. Allowed while
    :func:`last_entry_undo_refusal` says "" (RoundStateError with its words
    otherwise): once the next round is paired it is refused. The players' own reports
    stay (an agreed one is held for a staff click again). Writes ``result.undo`` (old
    result, reason) and ``round.reopen`` audit rows; the public pages are dropped and the
    standings computed again after commit (the round no longer counts), as a
    completing round does the other way. Returns the cleared match.
    """
    rnd = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    refusal = last_entry_undo_refusal(rnd)
    if refusal:
        raise RoundStateError(refusal)
    last = round_last_entry(rnd)
    assert last is not None  # the refusal says so otherwise
    m = locked_match(last)
    if (match is not None and match.pk != m.pk) or (version is not None and version != m.version):
        text = f"{_table_label(m)}: {m.outcome}"
        raise ResultConflict(
            gettext("Another result was entered meanwhile: look at the round again."),
            current=text,
        )
    seats = seats_of(m)
    fmt = result_format(seats)
    old, _ = fmt.audit_values(m, seats, fmt.current(m, seats))
    m.outcome, m.winner, m.games = Outcome.PENDING, None, None
    m.version += 1
    m.reported_at, m.reported_by = None, None
    m.save(update_fields=["outcome", "winner", "games", "version", "reported_at", "reported_by"])
    reason = reason.strip()[:NOTE_MAX]
    audit_log(
        event=rnd.event,
        by=by,
        action="result.undo",
        obj=m,
        round_number=rnd.number,
        old=old,
        new={"outcome": Outcome.PENDING},
        reason=reason or "Last entry undone before the next round was paired.",
    )
    rnd.status, rnd.completed_at = RoundStatus.STARTED, None
    rnd.save(update_fields=["status", "completed_at"])
    audit_log(
        event=rnd.event,
        by=by,
        action="round.reopen",
        obj=rnd,
        round_number=rnd.number,
        old={"status": RoundStatus.COMPLETE},
        new={"status": RoundStatus.STARTED},
        reason=reason,
    )
    public_pages_changed(rnd.event_id, pairings=False, build=False)
    standings_refresh_on_commit(rnd.event_id)
    return m
