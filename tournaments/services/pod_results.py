"""Pod slips of multiplayer events: a winner, or a draw shared by the players still in it
(MP-PTS-1, MP-SE-2).

The same guarantees as ``slip_enter`` for head-to-head matches: the match row is locked
(``select_for_update``), a form built on an older version with a different result is
refused with the current one, a resent identical slip changes nothing, the P-POST-4
window applies, every change writes an audit row, and the round completes (standings
queued on commit) when its last pod is reported.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from ..errors import InvalidInput, RecordLocked, ResultConflict, RoundStateError
from ..models import Match, MatchSeat, Outcome, Registration, RoundStatus
from ..multiplayer import points_per_win
from .audit import audit_log
from .results import correction_window_open, locked_message
from .rounds import round_complete_if_reported, standings_refresh_on_commit


def pod_result_text(outcome: str, winner_name: str | None, conceded: Iterable[str]) -> str:
    """ "Ash wins", "draw", "draw (Brock conceded)" or "not reported"."""
    if outcome == Outcome.WIN and winner_name:
        return f"{winner_name} wins"
    if outcome == Outcome.DRAW:
        names = sorted(conceded)
        return f"draw ({', '.join(names)} conceded)" if names else "draw"
    return Outcome(outcome).label.lower()


def _state(m: Match, seats: list[MatchSeat]) -> tuple[str, int | None, frozenset[int]]:
    return m.outcome, m.winner_id, frozenset(s.registration_id for s in seats if s.conceded)


def _text(m: Match, seats: list[MatchSeat]) -> str:
    names = {s.registration_id: s.registration.player.name for s in seats}
    conceded = [names[s.registration_id] for s in seats if s.conceded]
    return pod_result_text(m.outcome, names.get(m.winner_id or 0), conceded)


def _validate(seats: list[MatchSeat], winner: Registration | None, conceded: set[int]) -> None:
    """MP-PTS-1: the winner plays in the pod and did not concede; conceded players are
    players of the pod; a draw needs someone left to share it."""
    seated = {s.registration_id for s in seats}
    if not 3 <= len(seated) <= 5:
        raise InvalidInput(gettext("Only a pod of 3 to 5 players takes a pod slip."))
    if winner is not None and winner.pk not in seated:
        raise InvalidInput(gettext("The winner must be one of the players of this pod."))
    if not conceded <= seated:
        raise InvalidInput(gettext("Only players of this pod can concede."))
    if winner is not None and winner.pk in conceded:
        raise InvalidInput(gettext("A player who conceded cannot win the pod."))
    if winner is None and conceded == seated:
        raise InvalidInput(gettext("Everyone conceded: nobody is left to share the draw."))


def _record(m: Match, seats: list[MatchSeat], new: tuple, by: Any, reason: str) -> None:
    """Store the new result and conceded seats with a new version; write the audit row."""
    old_text, was = _text(m, seats), m.outcome
    m.outcome, m.winner_id, conceded = new
    m.version += 1
    m.reported_at = timezone.now()
    m.reported_by = by if getattr(by, "is_authenticated", False) else None
    m.save(update_fields=["outcome", "winner", "version", "reported_at", "reported_by"])
    for s in seats:
        s.conceded = s.registration_id in conceded
    MatchSeat.objects.bulk_update(seats, ["conceded"])
    audit_log(
        event=m.round.event,
        by=by,
        action="result.correct" if was != Outcome.PENDING else "result.enter",
        obj=m,
        round_number=m.round.number,
        old={"result": old_text},
        new={"result": _text(m, seats)},
        reason=reason,
    )


def _log_overrides(m: Match, by: Any, reason: str) -> None:
    """A staff entry overrides the pod's player reports (``pod_reports``): log the ones
    it overrode, as ``results.slip_enter`` does for head-to-head reports."""
    if isinstance(by, Registration):
        return
    differing = [r for r in m.reports.select_related("registration", "winner") if r.differs_from(m)]
    if differing:
        audit_log(
            event=m.round.event,
            by=by,
            action="report.override",
            obj=m,
            round_number=m.round.number,
            old={r.registration.external_id: r.outcome for r in differing},
            new={"outcome": m.outcome, "winner": m.winner_id},
            reason=reason or "A staff entry overrides the players' reports.",
        )


@transaction.atomic
def pod_slip_enter(
    *,
    match: Match,
    by: Any,
    winner: Registration | None = None,
    conceded: Iterable[int] = (),
    version: int | None = None,
    reason: str = "",
) -> Match:
    """Record (or correct) a pod's result and return the match (MP-PTS-1, MP-PTS-2).

    winner: the pod's winner; None records a draw, shared by every player not in
    ``conceded`` (registration ids of players who conceded or took a match-loss penalty).
    In a top cut a drawn pod is won by the best Swiss seed still in it (MP-SE-2, applied
    when the next round is paired). version: the version the form showed; stale and
    different → ResultConflict naming the current result; stale and equal → no change.
    Raises RoundStateError before the round started, RecordLocked outside the P-POST-4
    window, InvalidInput for an impossible result.
    """
    m = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event")
        .get(pk=match.pk)
    )
    seats = list(m.seats.select_related("registration__player").order_by("seat"))
    out = set(conceded)
    _validate(seats, winner, out)
    new = (Outcome.WIN if winner else Outcome.DRAW, winner.pk if winner else None, frozenset(out))
    if _state(m, seats) == new:
        return m
    if version is not None and version != m.version:
        text = _text(m, seats)
        raise ResultConflict(
            gettext("This pod was just recorded as %(text)s.") % {"text": text}, current=text
        )
    rnd = m.round
    if rnd.status not in (RoundStatus.STARTED, RoundStatus.COMPLETE):
        raise RoundStateError(
            gettext("Round %(number)s has not started; start it before entering slips.")
            % {"number": rnd.number}
        )
    if m.reported and not correction_window_open(rnd):
        raise RecordLocked(locked_message(rnd))
    _record(m, seats, new, by, reason)
    _log_overrides(m, by, reason)
    round_complete_if_reported(rnd, by=by)
    if rnd.status == RoundStatus.COMPLETE:
        standings_refresh_on_commit(rnd.event_id)
    return m


INTENTIONAL_DRAW = "pod.intentional-draw"


@transaction.atomic
def pod_intentional_draw_note(*, match: Match, by: Any) -> Match:
    """Record that players of a top-cut pod made an intentional draw: the first note sets
    ``Match.intentional_draw_at`` (later ones change nothing), and from then on the
    round's clock applies the 150-minute limit from the round start (MP-TIME-1; the
    final is never timed, whatever is noted). Audited. Raises RoundStateError outside a
    started top-cut round."""
    m = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event")
        .get(pk=match.pk)
    )
    rnd = m.round
    if rnd.status != RoundStatus.STARTED or rnd.phase not in ("top-cut", "single-elimination"):
        raise RoundStateError(
            gettext("Intentional draws start a timer only in a running top-cut round.")
        )
    if m.intentional_draw_at is not None:
        return m
    m.intentional_draw_at = timezone.now()
    m.save(update_fields=["intentional_draw_at"])
    audit_log(
        event=rnd.event,
        by=by,
        action=INTENTIONAL_DRAW,
        obj=m,
        round_number=rnd.number,
        new={"intentional_draw_at": m.intentional_draw_at.isoformat()},
    )
    return m


@transaction.atomic
def pod_result_correct(
    *,
    match: Match,
    by: Any,
    reason: str,
    winner: Registration | None = None,
    conceded: Iterable[int] = (),
    version: int | None = None,
) -> Match:
    """A judge's correction of a recorded pod, with a reason, inside the P-POST-4 window:
    through :func:`pod_slip_enter` (lock, version check, audit row with the reason), then
    later Swiss pods seating a player whose match points changed — a new winner, a draw,
    or a change of who conceded a draw (MP-PTS-1) — are marked (``Match.bracket_changed``,
    the P-SW-9 analogue for pods: MP-PAIR-1 fills pods by standing, so those pods were
    built from a stale order). Raises InvalidInput (no reason, no result yet),
    RecordLocked, ResultConflict."""
    from .corrections import correction_target, mark_changed_brackets, refresh_public_pairings

    m, reason = correction_target(match, reason)
    old = (m.outcome, m.winner_id)
    before = _points_by_seat(m)
    m = pod_slip_enter(
        match=m, winner=winner, conceded=conceded, version=version, reason=reason, by=by
    )
    after = _points_by_seat(m)
    moved = {reg for reg, points in after.items() if points != before[reg]}
    mark_changed_brackets(match=m, old=old, by=by, reason=reason, moved=moved)
    if moved:  # public pairings show records, which this correction changed
        refresh_public_pairings(m.round.event_id)
    return m


def _points_by_seat(m: Match) -> dict[int, int]:
    """``{registration id: match points}`` the pod gives each player (MP-PTS-1)."""
    per_win = points_per_win(m.round.event)
    seats = m.seats.all()
    if m.outcome == Outcome.WIN:
        return {s.registration_id: per_win * (s.registration_id == m.winner_id) for s in seats}
    draw = m.outcome == Outcome.DRAW
    return {s.registration_id: int(draw and not s.conceded) for s in seats}
