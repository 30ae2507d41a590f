"""Fixed seating: a table kept for one player all event.

Staff give a player a **fixed table** (``Registration.fixed_table``) with a reason that
only staff see (mobility, sight …). From then on:

* every Swiss round (Swiss, Day 2, pods) puts that player's match or pod at that table,
  and no other match at it: :func:`round_tables` numbers each new round's tables with
  the pure ``pairings.engine.seating.number_tables`` (``round_create`` calls it);
* the table is **reserved hall-wide**: no pairing group numbers another match there, as
  long as its player is active (a dropped or disqualified player is not paired again, so
  their table is free; staff remove the seat to give it to someone else);
* two fixed-seat players paired together play at the **lower** of their tables; the
  other stays empty that round (the round's notes say so);
* a bracket round (top cut, single elimination) keeps its table order, which is the
  bracket (P-SE-1): its tables skip the fixed tables, and the player plays where the
  bracket puts them;
* a fixed table numbered lower than its bracket place is stored as
  ``Seating.FIXED_NOT_TOP`` and marked "not a top table" on the pairings;
* manual changes keep it: a swap may not move a fixed-seat player off their table, a
  table may not be moved onto another player's fixed table, nor a fixed table moved
  (:func:`swap_refusal`, :func:`move_refusal`), and the minimal re-pair puts them back
  (:func:`repair_numbers`).

Giving, changing or removing a seat (:func:`registration_fixed_seat_set`) is audited;
it applies from the next round paired (a round already paired keeps its tables: staff
move that table by hand, or discard and pair it again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from pairings.engine.seating import TableNumbers, keep_fixed_in_place, number_tables

from ..actors import Actor
from ..errors import InvalidInput
from ..models import Event, Match, PairingGroup, Phase, Registration, Round, RoundStatus, Seating
from .audit import audit_log
from .tables import round_first_table, tables_in_play

#: Phases whose tables follow fixed seats; the others are brackets, in table order.
SWISS_PHASES = (Phase.SWISS, Phase.SWISS_DAY2)
#: The highest fixed table (as the manual move allows).
MAX_FIXED_TABLE = 5000
REASON_MAX = 200

Table = tuple[int | None, Sequence[Registration], str]


def fixed_seats(event: Event | int) -> dict[int, int]:
    """``{registration id: fixed table}`` of the event's active players (not dropped,
    not disqualified) who have a fixed seat: the tables reserved hall-wide. One query."""
    rows = Registration.objects.filter(
        event=event,
        fixed_table__isnull=False,
        dropped_after_round__isnull=True,
        disqualified=False,
    ).values_list("pk", "fixed_table")
    return {pk: table for pk, table in rows if table is not None}


def seating_of(numbers: TableNumbers, i: int) -> str:
    """The ``Match.seating`` value of table ``i`` of an engine answer."""
    if not numbers.fixed[i]:
        return Seating.BRACKET
    return Seating.FIXED_NOT_TOP if numbers.not_top[i] else Seating.FIXED


@dataclass(frozen=True)
class RoundTables:
    """The hall's numbers of a round about to be created: ``numbers`` and ``seating``
    per table of the round (None and "" for a bye or a late-entry loss), ``notes`` for
    staff (tables taken by another group, fixed-seat players who met)."""

    numbers: list[int | None]
    seating: list[str]
    notes: list[str]


Played = list[tuple[int, int, Sequence[Registration]]]  # (index, bracket place, players)


def _number(
    played: Played,
    fixed: dict[str, int],
    first: int,
    reserved: set[int],
    taken: set[int],
    move: bool,
) -> TableNumbers:
    return number_tables(
        [tuple(str(r.pk) for r in regs) for _, _, regs in played],
        fixed,
        first=first,
        places=[t for _, t, _ in played],
        reserved=reserved,
        unavailable=taken,
        move_fixed=move,
    )


def round_tables(group: PairingGroup, phase: str, tables: Sequence[Table]) -> RoundTables:
    """Number the tables of a round of ``group`` (``round_create``'s ``tables``: the
    engine's bracket places 1.., registrations, why) from the group's first table
    (``tables.round_first_table``, set here when the group has none), with the event's
    fixed seats (module docstring; Swiss phases move fixed-seat players' tables, brackets
    only skip them). When a number would be one another group's round in play uses, the
    round starts after that group's tables and the notes say so, as
    before. Call inside the pairing's transaction. Three queries at most (one more than
    before: the fixed seats), more only for notes."""
    played: Played = [
        (i, t, regs) for i, (t, regs, _) in enumerate(tables) if t is not None and len(regs) > 1
    ]
    taken = tables_in_play(group.event, besides=group)
    first, _ = round_first_table(group, 0, taken)  # sets a new group's first table
    seats = fixed_seats(group.event_id)
    fixed = {str(r.pk): seats[r.pk] for _, _, regs in played for r in regs if r.pk in seats}
    reserved = set(seats.values())
    move = phase in SWISS_PHASES
    numbered = _number(played, fixed, first, reserved, taken, move)
    notes = []
    loose = [n for i, n in enumerate(numbered.numbers) if not numbered.fixed[i]]
    if taken & set(loose):
        after = max(taken) + 1
        notes.append(
            gettext(
                "Tables %(first)s–%(last)s are in use by another group: this round starts at table %(start)s."
            )
            % {"first": first, "last": max(loose), "start": after}
        )
        numbered = _number(played, fixed, after, reserved, taken, move)
    numbers: list[int | None] = [None] * len(tables)
    seating = [""] * len(tables)
    for k, (i, _, _) in enumerate(played):
        numbers[i], seating[i] = numbered.numbers[k], seating_of(numbered, k)
    return RoundTables(numbers, seating, notes + _notes(numbered))


def _notes(numbered: TableNumbers) -> list[str]:
    """Sentences for staff about fixed seats that could not all be kept this round."""
    ids = {int(p) for c in numbered.clashes for p in c.players}
    ids |= {int(p) for p, _ in numbered.displaced}
    if not ids:
        return []
    names = dict(Registration.objects.filter(pk__in=ids).values_list("pk", "player__name"))
    notes = []
    for c in numbered.clashes:
        notes.append(
            gettext(
                "%(players)s have fixed seats and play each other: at table %(table)s, "
                "the lower; table %(empty)s stays empty this round."
            )
            % {
                "players": ", ".join(names[int(p)] for p in c.players),
                "table": c.table,
                "empty": ", ".join(map(str, c.empty)),
            }
        )
    for player, table in numbered.displaced:
        notes.append(
            gettext(
                "Table %(table)s, the fixed seat of %(name)s, is in use by another group's "
                "round: %(name)s plays elsewhere this round."
            )
            % {"table": table, "name": names[int(player)]}
        )
    return notes


def repair_numbers(rnd: Round, tables: Sequence[tuple[int, Sequence[str]]]) -> TableNumbers:
    """The numbers of the tables a minimal re-pair (P-SW-9) replaced, ``(number,
    player ids)`` as the re-pair gave them: each fixed-seat player back at their fixed
    table when it is one of them, no other table at a fixed seat
    (``keep_fixed_in_place``). Two queries."""
    seats = fixed_seats(rnd.event_id)
    fixed = {p: seats[int(p)] for _, players in tables for p in players if int(p) in seats}
    if rnd.phase not in SWISS_PHASES:
        fixed = {}
    numbers = rnd.matches.exclude(table=None).values_list("table", flat=True)
    highest = max((n for n in numbers if n is not None), default=0)
    return keep_fixed_in_place(tables, fixed, reserved=set(seats.values()), highest=highest)


# --- manual changes of a round that has not started (services.undo) --------------------


def swap_refusal(rnd: Round, registrations: Sequence[Registration]) -> str:
    """Why swapping ``registrations`` in ``rnd`` would move a fixed-seat player off
    their table (the message to show), or "" when it would not."""
    seats = fixed_seats(rnd.event_id)
    for reg in registrations:
        table = seats.get(reg.pk)
        if table is not None and rnd.matches.filter(table=table, seats__registration=reg).exists():
            return gettext(
                "%(name)s has a fixed seat at table %(table)s and stays there: swap their "
                "opponent instead."
            ) % {"name": reg.player.name, "table": table}
    return ""


def move_refusal(rnd: Round, match: Match, table: int) -> str:
    """Why moving ``match`` of ``rnd`` to ``table`` would break a fixed seat (the
    message to show), or "": the match sits at a player's fixed seat, or ``table`` is
    the fixed seat of an active player not at this match."""
    seats = fixed_seats(rnd.event_id)
    mine = set(match.seats.values_list("registration_id", flat=True))
    holder = next((reg for reg, t in seats.items() if t == table and reg not in mine), None)
    if holder is not None:
        name = Registration.objects.filter(pk=holder).values_list("player__name", flat=True)[0]
        return gettext("Table %(table)s is the fixed seat of %(name)s: choose another table.") % {
            "table": table,
            "name": name,
        }
    if match.seating and any(seats.get(reg) == match.table for reg in mine):
        return gettext(
            "Table %(table)s is a fixed seat: it does not move. Move the other table instead."
        ) % {"table": match.table}
    return ""


def seating_after_move(rnd: Round, match: Match) -> str:
    """``Match.seating`` of ``match`` at its (new) table: fixed when it is the fixed seat
    of one of its players in a Swiss round."""
    seats = fixed_seats(rnd.event_id)
    mine = match.seats.values_list("registration_id", flat=True)
    at_seat = rnd.phase in SWISS_PHASES and any(seats.get(r) == match.table for r in mine)
    return Seating.FIXED if at_seat else Seating.BRACKET


def seat_waiting(registration: Registration) -> Match | None:
    """The player's table in a Swiss round paired but not started that is not at their
    fixed seat (it was paired before the seat was given): staff move it by hand or pair
    the round again. None otherwise. One query."""
    if registration.fixed_table is None:
        return None
    return (
        Match.objects.filter(
            seats__registration=registration,
            round__status__in=(RoundStatus.PAIRED, RoundStatus.PUBLISHED),
            round__phase__in=SWISS_PHASES,
            table__isnull=False,
        )
        .exclude(table=registration.fixed_table)
        .select_related("round")
        .first()
    )


# --- giving a fixed seat ----------------------------------------------------------------


@transaction.atomic
def registration_fixed_seat_set(
    *, registration: Registration, table: int | None, reason: str = "", by: Actor
) -> Registration:
    """Give ``registration`` the fixed table ``table`` (1–``MAX_FIXED_TABLE``) for the
    rest of the event, with a private ``reason`` (at most 200 characters; staff only),
    or remove it (``table`` None). Applies from the next round paired. Audited
    (``registration.fixed_seat``), under the event's lock, so a pairing never reads half
    of it.

    Raises InvalidInput (nothing changes) for a number outside 1–5000, a table that is
    already another player's fixed seat (naming them), or a seat given to a player who
    dropped or was disqualified."""
    Event.objects.select_for_update().get(pk=registration.event_id)  # as round_pair locks
    reg = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
    reason = " ".join(reason.split())[:REASON_MAX] if table is not None else ""
    if table is not None:
        _check_table(reg, table)
    if (reg.fixed_table, reg.fixed_table_reason) == (table, reason):
        return reg
    old = {"fixed_table": reg.fixed_table}
    reg.fixed_table, reg.fixed_table_reason = table, reason
    reg.save(update_fields=["fixed_table", "fixed_table_reason"])
    audit_log(
        event=reg.event,
        by=by,
        action="registration.fixed_seat",
        obj=reg,
        old=old,
        new={"fixed_table": table},
        reason=reason,
    )
    return reg


def _check_table(reg: Registration, table: int) -> None:
    if isinstance(table, bool) or not 1 <= table <= MAX_FIXED_TABLE:
        raise InvalidInput(
            gettext("A fixed table is a number from 1 to %(most)s.") % {"most": MAX_FIXED_TABLE}
        )
    if reg.dropped or reg.disqualified:
        raise InvalidInput(
            gettext("%(name)s is no longer paired: a fixed seat would not be used.")
            % {"name": reg.player.name}
        )
    holder = (
        Registration.objects.filter(event_id=reg.event_id, fixed_table=table)
        .exclude(pk=reg.pk)
        .select_related("player")
        .first()
    )
    if holder is not None and (holder.dropped or holder.disqualified):
        raise InvalidInput(
            gettext(
                "Table %(table)s is still the fixed seat of %(name)s, who is no longer "
                "paired: remove it on their page first."
            )
            % {"table": table, "name": holder.player.name}
        )
    if holder is not None:
        raise InvalidInput(
            gettext("Table %(table)s is already the fixed seat of %(name)s.")
            % {"table": table, "name": holder.player.name}
        )
