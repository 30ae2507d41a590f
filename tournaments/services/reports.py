"""Players report their own results on their private links; staff accept agreed
results and resolve disputes (P-POST-3).

Both players report the same result → it is recorded at once, or held for a staff click
when the event says so (``Event.self_report``). Under best-of-3 rulesets the result is
the game record (M-MATCH-1), checked by the slip validator, and both must agree on it. They disagree → the match is disputed
and waits in the staff's disputes queue. A player may change their report until the
opponent confirms it. A staff entry always overrides the reports and the override is
logged (``results.slip_enter``). The match row is the lock: reports of the two players
of a match are applied one after the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from rulesets import get_ruleset

from ..errors import InvalidInput, ResultConflict, RoundStateError
from ..models import (
    Match,
    Registration,
    RoundStatus,
    SelfReport,
    SelfReportMode,
)
from .audit import audit_log
from .results import (
    games_result,
    match_result_text,
    result_json,
    slip_enter,
    validate_result,
)

WAITING, HELD, DISPUTED, RECORDED = "waiting", "held", "disputed", "recorded"


def _locked(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        # Not the winner: after waiting for the lock, PostgreSQL re-reads the locked row
        # but not the joined ones, so a joined winner could be stale (seen as None).
        .select_related("round__event")
        .get(pk=match.pk)
    )


def check_can_report(m: Match, registration: Registration) -> None:
    """Raise unless ``registration`` may report ``m`` now: self-reporting on, seated at
    the table, round in progress (also used by pod reports, ``pod_reports``)."""
    event, rnd = m.round.event, m.round
    if event.self_report == SelfReportMode.OFF:
        raise InvalidInput(
            gettext("Players do not report results at this event: hand in your match slip.")
        )
    if registration.pk not in {s.registration_id for s in m.seats.all()}:
        raise InvalidInput(gettext("You are not seated at this table."))
    if rnd.status != RoundStatus.STARTED:
        raise RoundStateError(
            gettext("Round %(number)s is not in progress: results cannot be reported.")
            % {"number": rnd.number}
        )


def games_text(games: Sequence[int] | None) -> str:
    """A reported game record, the winner's games first ("2-1-0"), or ""."""
    if not games:
        return ""
    return f"{max(games[0], games[1])}-{min(games[0], games[1])}-{games[2]}"


def _report_text(report: SelfReport, draw: str) -> str:
    """A report as a message says it ("Ash wins 2-1-0", ``draw`` for a drawn match)."""
    score = f" {games_text(report.games)}" if report.games else ""
    if report.winner is not None:
        return f"{report.winner.player.name} wins{score}"
    return (draw.lower() if report.outcome == "draw" else "double loss") + score


Result = tuple[str, Registration | None, list[int] | None]


def _reported_result(
    m: Match, outcome: str, winner: Registration | None, games: Sequence[int] | None
) -> Result:
    """(outcome, winner, games) of a report, through the slip validator: best-of-3
    rulesets derive the result from the games and refuse impossible ones (M-MATCH-1,
    M-SE-2, no draw under ``bo3-wins-against``); others take no games."""
    outcome, winner, stored = games_result(m, games, outcome, winner)
    validate_result(m, outcome, winner)
    return outcome, winner, stored if get_ruleset(m.round.event.ruleset).game_record else None


def _save_report(
    m: Match, reg: Registration, mine: SelfReport | None, wanted: Result
) -> SelfReport:
    """Create or change the player's report and audit it (old and new value)."""
    old = result_json(mine.outcome, mine.winner, mine.games) if mine else None
    if mine is None:
        mine = SelfReport(match=m, registration=reg)
    else:
        mine.changes += 1
    mine.outcome, mine.winner, mine.games = wanted
    mine.save()
    audit_log(
        event=m.round.event,
        by=reg,
        action="report.change" if old else "report.submit",
        obj=m,
        round_number=m.round.number,
        old=old,
        new=result_json(*wanted),
    )
    return mine


@transaction.atomic
def report_submit(
    *,
    match: Match,
    registration: Registration,
    outcome: str = "",
    winner: Registration | None = None,
    games: Sequence[int] | None = None,
) -> str:
    """The player ``registration`` reports ``outcome`` (``win`` with ``winner``, ``draw``,
    ``double-loss``) for their match; they are the acting person (``by``).
    games: under best-of-3 rulesets, the game record in seat order (wins of seat 1, wins
    of seat 2, drawn games), required for a win or draw; outcome and winner follow from
    it (``results.games_result``, M-MATCH-1) and agreement includes the games.

    Returns the match's state afterwards: ``waiting`` (for the opponent), ``held``
    (agreed, waiting for a staff click), ``disputed`` or ``recorded``. Sending the same
    report again changes nothing. Raises InvalidInput (self-reporting off, not seated,
    impossible result), RoundStateError (round not in progress), ResultConflict (the
    match is already recorded otherwise, or the opponent confirmed the report).
    """
    m = _locked(match)
    check_can_report(m, registration)
    wanted = _reported_result(m, outcome, winner, games)
    key = (wanted[0], wanted[1].pk if wanted[1] else None, wanted[2])
    if m.reported:
        if (m.outcome, m.winner_id, m.games if wanted[2] is not None else None) == key:
            return RECORDED
        text = match_result_text(m)
        raise ResultConflict(
            gettext("This match was just recorded as %(text)s. Ask a judge if that is wrong.")
            % {"text": text},
            current=text,
        )
    reports = {r.registration_id: r for r in m.reports.select_related("winner__player")}
    mine = reports.pop(registration.pk, None)
    theirs = next(iter(reports.values()), None)
    if mine and (mine.outcome, mine.winner_id, mine.games) == key:
        return _state(m, mine, theirs)
    if mine and theirs and mine.same_result(theirs):
        said = _report_text(mine, m.round.event.rules.draw_word or "draw")
        raise ResultConflict(
            gettext("Your opponent confirmed your report (%(said)s): ask a judge to change it.")
            % {"said": said},
            current=said,
        )
    mine = _save_report(m, registration, mine, wanted)
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
    if rnd.event.self_report == SelfReportMode.HOLD:
        audit_log(event=rnd.event, by=reg, action="report.agree", obj=m, round_number=rnd.number)
        return HELD
    slip_enter(
        match=m,
        outcome=mine.outcome,
        winner=mine.winner,
        games=mine.games,
        by=reg,
        reason="Both players reported this result.",
    )
    return RECORDED


@transaction.atomic
def report_accept(*, match: Match, by: Any) -> Match:
    """A staff click records the result both players reported (the ``hold`` setting).
    A second click changes nothing. Raises InvalidInput unless two reports agree."""
    m = _locked(match)
    if m.seats.count() > 2:  # a multiplayer pod: every player's report (MP-PTS-1)
        from .pod_reports import pod_report_accept

        return pod_report_accept(match=m, by=by)
    if m.reported:
        return m
    reports = list(m.reports.select_related("winner"))
    if len(reports) != 2 or not reports[0].same_result(reports[1]):
        raise InvalidInput(
            gettext(
                "The players of table %(table)s have not reported the same result: resolve it as a dispute."
            )
            % {"table": m.table}
        )
    return slip_enter(
        match=m,
        outcome=reports[0].outcome,
        winner=reports[0].winner,
        games=reports[0].games,
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
        raise InvalidInput(
            gettext("Say why: resolving a dispute needs a reason for the audit trail.")
        )
    return slip_enter(
        match=match,
        outcome=outcome,
        winner=winner,
        version=version,
        reason=reason,
        by=by,
        games=games,
    )
