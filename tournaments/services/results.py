"""Match slips: entering results (P-POST-3, P-POST-4, R-6).

``slip_enter`` is the one place a match result changes: staff slips, judges'
corrections (``corrections``), dispute resolutions and agreeing player reports
(``reports``) all end here, so the version check, the row lock, the P-POST-4 window and
the audit row apply to every path.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from ..errors import InvalidInput, RecordLocked, ResultConflict, RoundStateError
from ..models import Match, Outcome, Registration, Round, RoundStatus, SelfReport
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


def locked_message(rnd: Round) -> str:
    """The refusal of a change outside the P-POST-4 window, quoting the rule."""
    return (
        f"Round {rnd.number} is locked: a round's match records can no longer be altered "
        "once the second subsequent round has been paired (P-POST-4)."
    )


def result_json(outcome: str, winner: Registration | None) -> dict[str, Any]:
    """A result as stored in the audit trail: ``{"outcome", "winner": external id}``."""
    return {"outcome": outcome, "winner": winner.external_id if winner else None}


def _log_overrides(m: Match, by: Any, reason: str) -> None:
    """A staff entry always overrides the players' own reports: log each one it overrode."""
    if isinstance(by, Registration):
        return
    differing = [
        r
        for r in SelfReport.objects.filter(match=m).select_related("registration", "winner")
        if (r.outcome, r.winner_id) != (m.outcome, m.winner_id)
    ]
    if not differing:
        return
    audit_log(
        event=m.round.event,
        by=by,
        action="report.override",
        obj=m,
        round_number=m.round.number,
        old={r.registration.external_id: result_json(r.outcome, r.winner) for r in differing},
        new=result_json(m.outcome, m.winner),
        reason=reason or "A staff entry overrides the players' reports.",
    )


def validate_result(match: Match, outcome: str, winner: Registration | None) -> None:
    """Raise InvalidInput unless ``outcome``/``winner`` is a possible result of this
    head-to-head match under the event's ruleset (R-6; no tie in elimination, P-SE)."""
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


def _unchanged(m: Match, outcome: str, winner: Registration | None, version: int | None) -> bool:
    """True when the slip changes nothing (a double click, a resent form); raises
    ResultConflict when it was built on an older version and says something else."""
    same = m.outcome == outcome and m.winner_id == (winner.pk if winner else None)
    if version is not None and version != m.version and not same:
        text = match_result_text(m)
        raise ResultConflict(f"This match was just recorded as {text}.", current=text)
    return same


def _record(m: Match, outcome: str, winner: Registration | None, by: Any, reason: str) -> None:
    """Store the new result with a new version and write its audit row."""
    old = result_json(m.outcome, m.winner)
    m.outcome, m.winner = outcome, winner
    m.version += 1
    m.reported_at = timezone.now()
    m.reported_by = by if getattr(by, "is_authenticated", False) else None
    m.save(update_fields=["outcome", "winner", "version", "reported_at", "reported_by"])
    audit_log(
        event=m.round.event,
        by=by,
        action="result.correct" if old["outcome"] != "pending" else "result.enter",
        obj=m,
        round_number=m.round.number,
        old=old,
        new=result_json(outcome, winner),
        reason=reason,
    )


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
    by: a staff user, or the Registration of a player whose opponent just confirmed
    their report. The match row is locked (``select_for_update``) for the whole
    transaction, so two slips for one match are applied one after the other and the
    second sees the first's version.
    Raises RoundStateError before the round started, RecordLocked outside the P-POST-4
    window, InvalidInput for an impossible result. Writes an audit row, plus a
    ``report.override`` row when a staff entry differs from a player's own report.
    """
    m = (
        Match.objects.select_for_update(of=("self",))
        # Not the winner: after waiting for the lock, PostgreSQL re-reads the locked row
        # but not the joined ones, so a joined winner could be stale (seen as None).
        .select_related("round__event")
        .get(pk=match.pk)
    )
    rnd = m.round
    validate_result(m, outcome, winner)
    if _unchanged(m, outcome, winner, version):
        return m
    if rnd.status not in (RoundStatus.STARTED, RoundStatus.COMPLETE):
        raise RoundStateError(
            f"Round {rnd.number} has not started; start it before entering slips."
        )
    if m.reported and not correction_window_open(rnd):
        raise RecordLocked(locked_message(rnd))
    _record(m, outcome, winner, by, reason)
    _log_overrides(m, by, reason)
    round_complete_if_reported(rnd, by=by)
    if rnd.status == RoundStatus.COMPLETE:  # standings change only with complete rounds
        standings_refresh_on_commit(rnd.event_id)
    return m
