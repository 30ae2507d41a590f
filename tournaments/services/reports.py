"""Players report their own results on their private links; staff accept agreed
results and resolve disputes (P-POST-3; for pods MP-PTS-1).

Every seated player reports — the two players of a match, each player of a pod. When all
of them reported the same result it is recorded at once, or held for a staff click when
the event says so (``Event.self_report``). Under best-of-3 rulesets the result is the
game record (M-MATCH-1), checked by the slip validator, and all must agree on it. In a
pod a player reports the winner, or a draw and whether they themself conceded (or took
a match-loss penalty): the players who said so share no draw; that statement is kept on
their seat (``MatchSeat.conceded``) while the pod is pending. Reports that differ send
the table to the staff's disputes queue. A player may change their report until everyone
agrees. A staff entry always overrides the reports and the override is logged
(``results.slip_enter``). The match row is the lock: reports of one table are applied
one after the other. What differs between the formats is a ``ResultFormat``.

A report sent from a browser that had already reported for another
player of the same table (one phone holding both links) is kept but never recorded: the
table becomes a dispute for staff (``SelfReport.one_browser``, state ``one-browser``),
and such a browser cannot drop that player's opponents (``registration_self_drop``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from ..actors import Actor
from ..errors import InvalidInput, ResultConflict, RoundStateError
from ..models import (
    Match,
    MatchSeat,
    Registration,
    RoundStatus,
    SelfReport,
    SelfReportMode,
)
from .audit import audit_log
from .registrations import registration_drop
from .result_types import Result, ResultFormat, result_format, seats_of
from .results import locked_match, slip_enter

WAITING, HELD, DISPUTED, RECORDED = "waiting", "held", "disputed", "recorded"
ONE_BROWSER = "one-browser"  # a dispute: one browser reported for two players


def check_can_report(m: Match, registration: Registration) -> None:
    """Raise unless ``registration`` may report ``m`` now: self-reporting on, seated at
    the table, round in progress."""
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


def agreed_report(seats: list[MatchSeat], reports: list[SelfReport]) -> SelfReport | None:
    """The common report when every seated player reported the same result, else None."""
    if not reports or len(reports) < len(seats):
        return None
    first = reports[0]
    return first if all(r.same_result(first) for r in reports) else None


def report_state(m: Match, seats: list[MatchSeat], reports: list[SelfReport]) -> str:
    """``recorded``, ``waiting`` (someone has not reported and those who did agree on who
    won), ``held`` (everyone agrees, not recorded yet), ``disputed``, or ``one-browser``
    (a dispute: one browser reported for two players of the table)."""
    if m.reported:
        return RECORDED
    if any(r.one_browser for r in reports):
        return ONE_BROWSER
    if len(reports) < len(seats):
        return DISPUTED if len({(r.outcome, r.winner_id) for r in reports}) > 1 else WAITING
    return HELD if agreed_report(seats, reports) else DISPUTED


def _save_report(
    m: Match,
    fmt: ResultFormat,
    seats: list[MatchSeat],
    seat: MatchSeat,
    mine: SelfReport | None,
    wanted: Result,
    browser: str = "",
    shared: bool = False,
) -> SelfReport:
    """Create or change the player's report and audit it (old and new value); keep the
    sending browser and, once set, the ``one_browser`` mark."""
    reg = seat.registration
    old = fmt.report_json(fmt.report_value(mine, seat), seats, reg) if mine else None
    if mine is None:
        mine = SelfReport(match=m, registration=reg)
    else:
        mine.changes += 1
    fmt.keep_report(mine, seats, seat, wanted)
    mine.browser = browser or mine.browser
    mine.one_browser = mine.one_browser or shared
    mine.save()
    audit_log(
        event=m.round.event,
        by=reg,
        action="report.change" if old else "report.submit",
        obj=m,
        round_number=m.round.number,
        old=old,
        new=fmt.report_json(wanted, seats, reg),
    )
    return mine


@transaction.atomic
def report_submit(
    *,
    match: Match,
    registration: Registration,
    result: Result,
    browser: str = "",
) -> str:
    """The player ``registration`` reports the result of their table; they are the acting
    person (``by``). ``browser``: the id of the sending browser (``tournaments.browsers``;
    "" when unknown).

    result: the reported :class:`Result`. A match: ``win`` with the
    winner, ``draw`` or ``double-loss``; under best-of-3 rulesets the game record in seat
    order, required for a win or draw, from which outcome and winner follow
    (M-MATCH-1) and agreement includes the games. A pod: the winner, or a draw (no
    winner) with ``conceded`` holding the player's own id when they conceded (MP-PTS-1).

    Returns the table's state afterwards: ``waiting`` (for the others), ``held`` (agreed,
    waiting for a staff click), ``disputed``, ``one-browser`` or ``recorded``. Sending
    the same report again changes nothing. when ``browser`` already reported
    for another player of the table, the report is kept with ``one_browser`` set and the
    table becomes a dispute for staff (``one-browser``) whatever the reports say; it is
    never recorded from the reports. Raises InvalidInput (self-reporting off, not seated,
    impossible result), RoundStateError (round not in progress), ResultConflict (the
    table is already recorded otherwise, or everyone confirmed the report).
    """
    m = locked_match(match)
    check_can_report(m, registration)
    seats = seats_of(m)
    fmt = result_format(seats)
    wanted = fmt.report_checked(m, seats, registration, result)
    seat = next(s for s in seats if s.registration_id == registration.pk)
    if m.reported:
        if fmt.matches_record(m, seat, wanted):
            return RECORDED
        message, text = fmt.recorded_conflict(m, seats)
        raise ResultConflict(message, current=text)
    reports = list(m.reports.select_related("registration", "winner__player"))
    mine = next((r for r in reports if r.registration_id == registration.pk), None)
    shared = bool(browser) and any(
        r.browser == browser and r.registration_id != registration.pk for r in reports
    )
    unchanged = mine is not None and fmt.report_value(mine, seat) == wanted
    if mine is not None and unchanged and (mine.one_browser or not shared):
        return report_state(m, seats, reports)
    if mine and not unchanged and agreed_report(seats, reports):
        message, text = fmt.confirmed_conflict(seats, mine, m.round.event.rules.draw_word or "draw")
        raise ResultConflict(message, current=text)
    mine = _save_report(m, fmt, seats, seat, mine, wanted, browser, shared)
    reports = [r for r in reports if r.registration_id != registration.pk] + [mine]
    return _after_report(m, fmt, seats, reports, registration)


def _after_report(
    m: Match,
    fmt: ResultFormat,
    seats: list[MatchSeat],
    reports: list[SelfReport],
    reg: Registration,
) -> str:
    """Accept, hold or dispute once the reports are in (or wait for the others)."""
    state = report_state(m, seats, reports)
    rnd = m.round
    if state == ONE_BROWSER and reports[-1].one_browser:
        audit_log(
            event=rnd.event,
            by=reg,
            action="report.dispute",
            obj=m,
            round_number=rnd.number,
            reason="Both reports came from one phone (one browser reported for two players).",
        )
    if state == DISPUTED:
        audit_log(event=rnd.event, by=reg, action="report.dispute", obj=m, round_number=rnd.number)
    if state != HELD:
        return state
    if rnd.event.self_report == SelfReportMode.HOLD:
        audit_log(event=rnd.event, by=reg, action="report.agree", obj=m, round_number=rnd.number)
        return HELD
    agreed = fmt.agreed_result(seats, reports[-1])
    slip_enter(match=m, result=agreed, by=reg, reason=fmt.agreed_reason)
    return RECORDED


@transaction.atomic
def report_accept(*, match: Match, by: Actor) -> Match:
    """A staff click records the result every player of the table reported (the ``hold``
    setting); in a pod the players who said they conceded share no draw (MP-PTS-1). A
    second click changes nothing. Raises InvalidInput unless all reports agree, and for
    a table one browser reported for (staff decide it with a reason)."""
    m = locked_match(match)
    if m.reported:
        return m
    seats = seats_of(m)
    fmt = result_format(seats)
    reports = list(m.reports.select_related("winner"))
    if any(r.one_browser for r in reports):
        raise InvalidInput(_one_browser_refusal())
    agreed = agreed_report(seats, reports)
    if agreed is None:
        raise InvalidInput(fmt.not_agreed(m))
    return slip_enter(
        match=m, result=fmt.agreed_result(seats, agreed), by=by, reason=fmt.accepted_reason
    )


@transaction.atomic
def dispute_resolve(
    *,
    match: Match,
    by: Actor,
    reason: str,
    result: Result,
    version: int | None = None,
) -> Match:
    """Staff (scorekeeper, judge or organiser) decide a disputed table, with a reason.
    ``result`` (a :class:`Result`) as for ``slip_enter``: best-of-3 rulesets need the game
    record (M-MATCH-1); a pod's draw names who conceded (MP-PTS-1).

    The decision is a staff entry: it overrides the players' reports and the override
    is logged with the reason (``slip_enter``). Raises InvalidInput without a reason,
    ResultConflict when someone recorded the table meanwhile, as ``slip_enter``.
    """
    reason = reason.strip()
    if not reason:
        raise InvalidInput(
            gettext("Say why: resolving a dispute needs a reason for the audit trail.")
        )
    return slip_enter(match=match, result=result, version=version, reason=reason, by=by)


def _one_browser_refusal() -> str:
    """Why staff cannot accept a table one browser reported for."""
    return gettext(
        "Both reports came from one phone: decide the result at the table and record it "
        "with a reason."
    )


def browser_acted_against(registration: Registration, browser: str) -> bool:
    """Whether ``browser`` (an id from ``tournaments.browsers``) sent a self-report for a
    player who sat at a table with ``registration`` in any round of the event: it acted
    as one of their opponents. "" matches nothing. 1 query."""
    if not browser:
        return False
    return (
        SelfReport.objects.filter(browser=browser, match__seats__registration=registration)
        .exclude(registration=registration)
        .exists()
    )


@transaction.atomic
def registration_self_drop(*, registration: Registration, browser: str = "") -> Registration:
    """The player drops themselves on their private link (P-SW-6), acting as ``by``;
    ``browser``: the sending browser's id. Refused (InvalidInput, nothing changes) when
    that browser reported for one of the player's opponents (whoever
    holds both links of a table cannot drop the other player; the player sees the staff,
    who can drop them or undo a drop, ``registration_reinstate``). Otherwise as
    ``registration_drop``; returns the dropped registration."""
    if browser_acted_against(registration, browser):
        raise InvalidInput(
            gettext(
                "This phone already reported for your opponent, so it cannot drop you. "
                "Please see the staff to drop."
            )
        )
    return registration_drop(
        registration=registration,
        by=registration,
        reason="Dropped themselves on their private link.",
    )
