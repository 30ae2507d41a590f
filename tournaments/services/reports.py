"""Players report their own results on their private links; staff accept agreed
results and resolve disputes (P-POST-3).

Both players report the same result → it is recorded at once, or held for a staff click
when the event says so (``Event.self_report``). They disagree → the match is disputed
and waits in the staff's disputes queue. A player may change their report until the
opponent confirms it. A staff entry always overrides the reports and the override is
logged (``results.slip_enter``). The match row is the lock: reports of the two players
of a match are applied one after the other.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from ..errors import InvalidInput, ResultConflict, RoundStateError
from ..models import (
    Match,
    Registration,
    RoundStatus,
    SelfReport,
    SelfReportMode,
)
from ..rulesets import get_ruleset
from .audit import audit_log
from .results import match_result_text, result_json, slip_enter, validate_result

WAITING, HELD, DISPUTED, RECORDED = "waiting", "held", "disputed", "recorded"


def _locked(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        # Not the winner: after waiting for the lock, PostgreSQL re-reads the locked row
        # but not the joined ones, so a joined winner could be stale (seen as None).
        .select_related("round__event")
        .get(pk=match.pk)
    )


def _check_can_report(m: Match, registration: Registration) -> None:
    event, rnd = m.round.event, m.round
    if event.self_report == SelfReportMode.OFF:
        raise InvalidInput("Players do not report results at this event: hand in your match slip.")
    if registration.pk not in {s.registration_id for s in m.seats.all()}:
        raise InvalidInput("You are not seated at this table.")
    if rnd.status != RoundStatus.STARTED:
        raise RoundStateError(f"Round {rnd.number} is not in progress: results cannot be reported.")


def _report_text(report: SelfReport) -> str:
    if report.winner is not None:
        return f"{report.winner.player.name} wins"
    return "tie" if report.outcome == "draw" else "double loss"


def _save_report(
    m: Match, reg: Registration, mine: SelfReport | None, outcome: str, winner: Any
) -> SelfReport:
    """Create or change the player's report and audit it (old and new value)."""
    old = result_json(mine.outcome, mine.winner) if mine else None
    if mine is None:
        mine = SelfReport(match=m, registration=reg)
    else:
        mine.changes += 1
    mine.outcome, mine.winner = outcome, winner
    mine.save()
    audit_log(
        event=m.round.event,
        by=reg,
        action="report.change" if old else "report.submit",
        obj=m,
        round_number=m.round.number,
        old=old,
        new=result_json(outcome, winner),
    )
    return mine


@transaction.atomic
def report_submit(
    *, match: Match, registration: Registration, outcome: str, winner: Registration | None = None
) -> str:
    """The player ``registration`` reports ``outcome`` (``win`` with ``winner``, ``draw``,
    ``double-loss``) for their match; they are the acting person (``by``).

    Returns the match's state afterwards: ``waiting`` (for the opponent), ``held``
    (agreed, waiting for a staff click), ``disputed`` or ``recorded``. Sending the same
    report again changes nothing. Raises InvalidInput (self-reporting off, not seated,
    impossible result), RoundStateError (round not in progress), ResultConflict (the
    match is already recorded otherwise, or the opponent confirmed the report).
    """
    m = _locked(match)
    _check_can_report(m, registration)
    validate_result(m, outcome, winner)
    wanted = (outcome, winner.pk if winner else None)
    if m.reported:
        if (m.outcome, m.winner_id) == wanted:
            return RECORDED
        text = match_result_text(m)
        raise ResultConflict(
            f"This match was just recorded as {text}. Ask a judge if that is wrong.", current=text
        )
    reports = {r.registration_id: r for r in m.reports.select_related("winner__player")}
    mine = reports.pop(registration.pk, None)
    theirs = next(iter(reports.values()), None)
    if mine and (mine.outcome, mine.winner_id) == wanted:
        return _state(m, mine, theirs)
    if mine and theirs and mine.same_result(theirs):
        raise ResultConflict(
            f"Your opponent confirmed your report ({_report_text(mine)}): ask a judge to change it.",
            current=_report_text(mine),
        )
    mine = _save_report(m, registration, mine, outcome, winner)
    return _after_report(m, registration, mine, theirs)


def _state(m: Match, mine: SelfReport, theirs: SelfReport | None) -> str:
    if m.reported:
        return RECORDED
    if theirs is None:
        return WAITING
    return HELD if mine.same_result(theirs) else DISPUTED


def _after_report(m: Match, reg: Registration, mine: SelfReport, theirs: SelfReport | None) -> str:
    """Accept, hold or dispute once both players have reported."""
    if theirs is None:
        return WAITING
    rnd = m.round
    if not mine.same_result(theirs):
        audit_log(event=rnd.event, by=reg, action="report.dispute", obj=m, round_number=rnd.number)
        return DISPUTED
    # Best-of-3 rulesets record a game score the reports do not carry: staff enter it.
    needs_games = get_ruleset(rnd.event.ruleset).game_record and mine.outcome != "double-loss"
    if rnd.event.self_report == SelfReportMode.HOLD or needs_games:
        audit_log(event=rnd.event, by=reg, action="report.agree", obj=m, round_number=rnd.number)
        return HELD
    slip_enter(
        match=m,
        outcome=mine.outcome,
        winner=mine.winner,
        by=reg,
        reason="Both players reported this result.",
    )
    return RECORDED


@transaction.atomic
def report_accept(*, match: Match, by: Any) -> Match:
    """A staff click records the result both players reported (the ``hold`` setting).
    A second click changes nothing. Raises InvalidInput unless two reports agree."""
    m = _locked(match)
    if m.reported:
        return m
    reports = list(m.reports.select_related("winner"))
    if len(reports) != 2 or not reports[0].same_result(reports[1]):
        raise InvalidInput(
            f"The players of table {m.table} have not reported the same result: "
            "resolve it as a dispute."
        )
    return slip_enter(
        match=m,
        outcome=reports[0].outcome,
        winner=reports[0].winner,
        by=by,
        reason="Both players reported this result; accepted by staff.",
    )


@transaction.atomic
def dispute_resolve(
    *,
    match: Match,
    outcome: str,
    by: Any,
    reason: str,
    winner: Registration | None = None,
    version: int | None = None,
    games: tuple[int, int, int] | None = None,
) -> Match:
    """Staff (scorekeeper, judge or organiser) decide a disputed match, with a reason.
    ``games``: the game record best-of-3 rulesets need (M-MATCH-1, ``slip_enter``).

    The decision is a staff entry: it overrides the players' reports and the override
    is logged with the reason (``slip_enter``). Raises InvalidInput without a reason,
    ResultConflict when someone recorded the match meanwhile, as ``slip_enter``.
    """
    reason = reason.strip()
    if not reason:
        raise InvalidInput("Say why: resolving a dispute needs a reason for the audit trail.")
    return slip_enter(
        match=match,
        outcome=outcome,
        winner=winner,
        version=version,
        reason=reason,
        by=by,
        games=games,
    )
