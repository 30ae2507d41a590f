"""Judges' corrections of recorded results (P-POST-4) and what they do to rounds that
are already paired (P-SW-9)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from ..actors import Actor
from ..errors import InvalidInput, RecordLocked
from ..models import Match, Phase, Round, RoundStatus
from ..public_pages import public_pages_changed
from .audit import audit_log
from .result_types import Result, result_format, seats_of
from .results import correction_window_open, locked_match, locked_message, slip_enter

SWISS_PHASES = (Phase.SWISS, Phase.SWISS_DAY2)


@dataclass(frozen=True)
class Correction:
    """What a correction did: the match as now recorded, the later pairings it marked
    (``Match.bracket_changed``) and the round that can still be re-paired (not started)."""

    match: Match
    marked: tuple[Match, ...]
    repairable: Round | None


def mark_changed_brackets(*, match: Match, moved: set[int], by: Actor, reason: str) -> list[Match]:
    """Flag the pairings of later Swiss rounds of the pairing group that seat a player
    whose match points, and so whose bracket (P-SW-2), the correction of ``match``
    moved (``moved``: registration ids; in a pod also a change of who conceded a draw,
    MP-PTS-1); audit each flag. Returns the newly flagged matches. Elimination rounds
    have no brackets."""
    rnd = match.round
    if not moved or rnd.phase not in SWISS_PHASES:
        return []
    later = (
        Match.objects.filter(
            round__event_id=rnd.event_id,
            round__group_id=rnd.group_id,
            round__phase__in=SWISS_PHASES,
            round__number__gt=rnd.number,
            seats__registration_id__in=moved,
            bracket_changed=False,
        )
        .select_related("round")
        .distinct()
    )
    marked = []
    for m in later:
        m.bracket_changed = True
        m.save(update_fields=["bracket_changed"])
        audit_log(
            event=rnd.event,
            by=by,
            action="pairing.bracket_changed",
            obj=m,
            round_number=m.round.number,
            old={"bracket_changed": False},
            new={"bracket_changed": True},
            reason=f"Round {rnd.number} table {match.table} corrected: {reason}",
        )
        marked.append(m)
    return marked


def correction_target(match: Match, reason: str) -> tuple[Match, str]:
    """Lock a recorded match for a correction and check what every correction needs: a
    reason, a result to correct, and the P-POST-4 window still open. Returns the locked
    match and the stripped reason; raises InvalidInput or RecordLocked."""
    reason = reason.strip()
    if not reason:
        raise InvalidInput(gettext("A correction needs a reason: say what was wrong."))
    m = locked_match(match)
    if not m.reported:
        raise InvalidInput(
            gettext("Table %(table)s has no result yet: enter its slip first.") % {"table": m.table}
        )
    if not correction_window_open(m.round):
        raise RecordLocked(locked_message(m.round))
    return m, reason


def refresh_public_pairings(event_id: int) -> None:
    """Rebuild the public pages after commit: the pairings show each player's record
    before the round, which a correction changes."""
    public_pages_changed(event_id)


@transaction.atomic
def result_correct(
    *,
    match: Match,
    by: Actor,
    reason: str,
    result: Result,
    version: int | None = None,
) -> Correction:
    """Correct a recorded result (a match or a pod) within the P-POST-4 window, with a
    reason.

    result: the corrected :class:`Result`, as for ``slip_enter`` (a
    best-of-3 game record, M-MATCH-1, an impossible one such as 3-0 refused and nothing
    changed; a pod's winner or draw and who conceded it, MP-PTS-1). The change goes
    through ``slip_enter`` (row lock, version check, audit row with old and new value
    and the reason; standings recomputed by a task when the round is complete). Later
    Swiss pairings seating a player whose match points changed are marked (P-SW-9; for
    pods MP-PAIR-1 fills pods by standing), and the next round is returned as
    ``repairable`` when it has not started (P-POST-2). The public pages are rebuilt when
    a later round's pairings, which show records, are public (pods: also whenever points
    moved). Raises InvalidInput (no reason, no result yet, impossible result),
    RecordLocked (window closed, the rule quoted), ResultConflict (stale version).
    """
    m, reason = correction_target(match, reason)
    seats = seats_of(m)
    fmt = result_format(seats)
    before = fmt.points(m, seats)
    m = slip_enter(match=m, result=result, version=version, reason=reason, by=by)
    after = fmt.points(m, seats_of(m))
    moved = {reg for reg, points in after.items() if points != before.get(reg)}
    marked = mark_changed_brackets(match=m, moved=moved, by=by, reason=reason)
    refresh = bool(moved) and fmt.refresh_when_points_move
    return Correction(m, tuple(marked), _next_round_after(m.round, refresh=refresh))


def _next_round_after(rnd: Round, *, refresh: bool) -> Round | None:
    """Redraw the public pairings (they show records) when the next round is published,
    or always when ``refresh``; return the next round when it has not started and has
    marked pairings (P-SW-9)."""
    later = Round.objects.filter(
        event_id=rnd.event_id, group_id=rnd.group_id, number=rnd.number + 1
    ).first()
    if refresh or (later is not None and later.is_public):
        refresh_public_pairings(rnd.event_id)
    if later is None:
        return None
    unstarted = later.status in (RoundStatus.PAIRED, RoundStatus.PUBLISHED)
    return later if unstarted and later.matches.filter(bracket_changed=True).exists() else None
