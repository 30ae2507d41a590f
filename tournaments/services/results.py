"""Match slips: entering and correcting results (P-POST-3, P-POST-4, R-6)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from ..errors import InvalidInput, RecordLocked, ResultConflict, RoundStateError
from ..models import Match, Outcome, Registration, Round, RoundStatus
from ..rulesets import get_ruleset
from .audit import audit_log
from .rounds import round_complete_if_reported, standings_refresh_on_commit

SLIP_OUTCOMES = (Outcome.WIN, Outcome.DRAW, Outcome.DOUBLE_LOSS)


def match_result_text(match: Match) -> str:
    """A short human description of a match's result ("Ash wins", "tie", "not reported")."""
    if match.outcome == Outcome.WIN and match.winner is not None:
        return f"{match.winner.player.name} wins"
    return Outcome(match.outcome).label.lower() if match.outcome != Outcome.DRAW else "tie"


def correction_window_open(rnd: Round) -> bool:
    """P-POST-4: a round's records lock once the second subsequent round is paired."""
    return not Round.objects.filter(
        event_id=rnd.event_id, pod=rnd.pod, number__gte=rnd.number + 2
    ).exists()


def _validate(match: Match, outcome: str, winner: Registration | None) -> None:
    if outcome not in SLIP_OUTCOMES:
        raise InvalidInput(f"{outcome!r} is not a match result; use win, draw or double-loss.")
    seated = {s.registration_id for s in match.seats.all()}
    if len(seated) != 2:
        raise InvalidInput("Only head-to-head matches take a match slip; a bye needs none.")
    if outcome == Outcome.WIN and (winner is None or winner.pk not in seated):
        raise InvalidInput("The winner must be one of the two players at this table.")
    if outcome != Outcome.WIN and winner is not None:
        raise InvalidInput("Only a win has a winner.")
    ruleset = get_ruleset(match.round.event.ruleset)
    if outcome == Outcome.DRAW and not ruleset.allows_ties:
        raise InvalidInput(f"Ties are not possible under the {ruleset.label} rules.")
    if outcome == Outcome.DRAW and match.round.phase in ("top-cut", "single-elimination"):
        raise InvalidInput("A single-elimination match cannot end in a tie; enter the winner.")


@transaction.atomic
def slip_enter(
    *,
    match: Match,
    outcome: str,
    by: Any,
    winner: Registration | None = None,
    version: int | None = None,
    reason: str = "",
) -> Match:
    """Record a match slip (or correct one) and return the updated match.

    outcome: ``win`` (with ``winner``), ``draw`` or ``double-loss`` (R-6).
    version: the match version the form was rendered with. When it is stale and the
    stored result differs, ResultConflict is raised with the current value; when it is
    stale but equal (a double click, a resent form) nothing changes.
    Raises RoundStateError before the round started, RecordLocked outside the P-POST-4
    window, InvalidInput for an impossible result. Writes an audit row.
    """
    m = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event", "winner__player")
        .get(pk=match.pk)
    )
    rnd = m.round
    _validate(m, outcome, winner)
    same = m.outcome == outcome and m.winner_id == (winner.pk if winner else None)
    if version is not None and version != m.version:
        if same:
            return m
        raise ResultConflict(
            f"This match was just recorded as {match_result_text(m)}.", current=match_result_text(m)
        )
    if same:
        return m
    if rnd.status not in (RoundStatus.STARTED, RoundStatus.COMPLETE):
        raise RoundStateError(
            f"Round {rnd.number} has not started; start it before entering slips."
        )
    if m.reported and not correction_window_open(rnd):
        raise RecordLocked(
            f"Round {rnd.number} is locked: a round's match records can no longer be altered "
            "once the second subsequent round has been paired (P-POST-4)."
        )
    old = {"outcome": m.outcome, "winner": m.winner.external_id if m.winner else None}
    m.outcome, m.winner = outcome, winner
    m.version += 1
    m.reported_at = timezone.now()
    m.reported_by = by if getattr(by, "is_authenticated", False) else None
    m.save(update_fields=["outcome", "winner", "version", "reported_at", "reported_by"])
    audit_log(
        event=rnd.event,
        by=by,
        action="result.correct" if old["outcome"] != "pending" else "result.enter",
        obj=m,
        round_number=rnd.number,
        old=old,
        new={"outcome": outcome, "winner": winner.external_id if winner else None},
        reason=reason,
    )
    round_complete_if_reported(rnd, by=by)
    if rnd.status == RoundStatus.COMPLETE:  # standings change only with complete rounds
        standings_refresh_on_commit(rnd.event_id)
    return m
