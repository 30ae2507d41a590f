"""Players of a multiplayer pod report its result on their private links (MP-PTS-1,
P-POST-3 for pods).

Each player reports the winner, or a draw and whether they themselves conceded (or took
a match-loss penalty: no share of the draw). When every player of the pod has reported
the same winner or draw, the result is recorded at once — the players who said they
conceded get no draw point — or held for a staff click when the event says so
(``Event.self_report``). A different report sends the pod to the disputes queue. A
player may change their report until everyone agrees. A staff entry
(``pod_results.pod_slip_enter``) always overrides the reports, as for head-to-head
matches (``reports``). The match row is the lock.

A player's "I conceded" is kept on their seat (``MatchSeat.conceded``) while the pod is
pending: it is their own statement, shown to staff, and replaced by whatever result is
recorded.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from ..errors import InvalidInput, ResultConflict
from ..models import Match, MatchSeat, Outcome, Registration, SelfReport, SelfReportMode
from .audit import audit_log
from .pod_results import pod_result_text, pod_slip_enter
from .reports import DISPUTED, HELD, RECORDED, WAITING, check_can_report

AGREED_REASON = "Every player of the pod reported this result."


def _locked(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event")
        .get(pk=match.pk)
    )


def _report_json(outcome: str, winner: Registration | None, conceded: bool) -> dict[str, Any]:
    return {
        "outcome": outcome,
        "winner": winner.external_id if winner else None,
        "conceded": conceded,
    }


def _agreed(seats: list[MatchSeat], reports: list[SelfReport]) -> SelfReport | None:
    """The common report when every seated player reported the same result, else None."""
    if len(reports) < len(seats):
        return None
    first = reports[0]
    return first if all(r.same_result(first) for r in reports) else None


def pod_report_state(m: Match, seats: list[MatchSeat], reports: list[SelfReport]) -> str:
    """``recorded``, ``waiting`` (someone has not reported), ``held`` or ``disputed``."""
    if m.reported:
        return RECORDED
    if len(reports) < len(seats):
        return DISPUTED if len({(r.outcome, r.winner_id) for r in reports}) > 1 else WAITING
    return HELD if _agreed(seats, reports) else DISPUTED


def _check(seats: list[MatchSeat], reg: Registration, winner: Any, conceded: bool) -> None:
    if winner is not None and winner.pk not in {s.registration_id for s in seats}:
        raise InvalidInput(gettext("The winner must be one of the players of your pod."))
    if conceded and winner is not None and winner.pk == reg.pk:
        raise InvalidInput(gettext("You cannot win the pod and concede it."))


def _save(m: Match, seat: MatchSeat, mine: SelfReport | None, wanted: tuple) -> SelfReport:
    """Create or change the player's report, keep their concession on the seat, audit."""
    outcome, winner, conceded = wanted
    reg = seat.registration
    old = _report_json(mine.outcome, mine.winner, seat.conceded) if mine else None
    if mine is None:
        mine = SelfReport(match=m, registration=reg)
    else:
        mine.changes += 1
    mine.outcome, mine.winner = outcome, winner
    mine.save()
    seat.conceded = conceded
    seat.save(update_fields=["conceded"])
    audit_log(
        event=m.round.event,
        by=reg,
        action="report.change" if old else "report.submit",
        obj=m,
        round_number=m.round.number,
        old=old,
        new=_report_json(outcome, winner, conceded),
    )
    return mine


@transaction.atomic
def pod_report_submit(
    *, match: Match, registration: Registration, winner: Registration | None, conceded: bool = False
) -> str:
    """The player ``registration`` reports their pod: ``winner``, or a draw (None) and
    whether they conceded or took a match-loss penalty (MP-PTS-1); they are ``by``.

    Returns ``waiting``, ``held``, ``disputed`` or ``recorded`` (as ``report_submit``).
    Sending the same report again changes nothing. Raises InvalidInput (self-reporting
    off, not seated, impossible report), RoundStateError (round not in progress),
    ResultConflict (already recorded otherwise, or everyone agreed and staff hold it).
    """
    m = _locked(match)
    check_can_report(m, registration)
    seats = list(m.seats.select_related("registration__player").order_by("seat"))
    _check(seats, registration, winner, conceded)
    wanted = (Outcome.WIN if winner else Outcome.DRAW, winner, bool(conceded) and not winner)
    seat = next(s for s in seats if s.registration_id == registration.pk)
    if m.reported:
        return _already_recorded(m, seats, seat, wanted)
    reports = list(m.reports.select_related("winner", "registration"))
    mine = next((r for r in reports if r.registration_id == registration.pk), None)
    same = mine and (mine.outcome, mine.winner_id, seat.conceded) == (
        wanted[0],
        winner.pk if winner else None,
        wanted[2],
    )
    if same:
        return pod_report_state(m, seats, reports)
    if mine and _agreed(seats, reports):
        raise ResultConflict(
            gettext("Every player of your pod reported the same result: ask a judge to change it."),
            current=_text(seats, mine),
        )
    mine = _save(m, seat, mine, wanted)
    reports = [r for r in reports if r.registration_id != registration.pk] + [mine]
    return _after_report(m, seats, reports, registration)


def _text(seats: list[MatchSeat], report: SelfReport) -> str:
    names = {s.registration_id: s.registration.player.name for s in seats}
    conceded = [names[s.registration_id] for s in seats if s.conceded]
    return pod_result_text(report.outcome, names.get(report.winner_id or 0), conceded)


def _already_recorded(m: Match, seats: list[MatchSeat], seat: MatchSeat, wanted: tuple) -> str:
    outcome, winner, conceded = wanted
    if (m.outcome, m.winner_id, seat.conceded) == (outcome, winner and winner.pk, conceded):
        return RECORDED
    names = {s.registration_id: s.registration.player.name for s in seats}
    text = pod_result_text(
        m.outcome,
        names.get(m.winner_id or 0),
        [names[s.registration_id] for s in seats if s.conceded],
    )
    raise ResultConflict(
        gettext("This pod was just recorded as %(text)s. Ask a judge if that is wrong.")
        % {"text": text},
        current=text,
    )


def _after_report(
    m: Match, seats: list[MatchSeat], reports: list[SelfReport], reg: Registration
) -> str:
    """Accept, hold or dispute once the reports are in (or wait for the others)."""
    state = pod_report_state(m, seats, reports)
    rnd = m.round
    if state == DISPUTED:
        audit_log(event=rnd.event, by=reg, action="report.dispute", obj=m, round_number=rnd.number)
    if state != HELD:
        return state
    if rnd.event.self_report == SelfReportMode.HOLD:
        audit_log(event=rnd.event, by=reg, action="report.agree", obj=m, round_number=rnd.number)
        return HELD
    _record_agreed(m, seats, reports[0], by=reg, reason=AGREED_REASON)
    return RECORDED


def _record_agreed(
    m: Match, seats: list[MatchSeat], report: SelfReport, *, by: Any, reason: str
) -> Match:
    conceded = [s.registration_id for s in seats if s.conceded] if report.winner_id is None else []
    return pod_slip_enter(match=m, winner=report.winner, conceded=conceded, by=by, reason=reason)


@transaction.atomic
def pod_report_accept(*, match: Match, by: Any) -> Match:
    """A staff click records the result every player of the pod reported (the ``hold``
    setting), the players who said they conceded sharing no draw (MP-PTS-1). A second
    click changes nothing. Raises InvalidInput unless every player reported the same."""
    m = _locked(match)
    if m.reported:
        return m
    seats = list(m.seats.select_related("registration__player").order_by("seat"))
    agreed = _agreed(seats, list(m.reports.select_related("winner")))
    if agreed is None:
        raise InvalidInput(
            gettext(
                "The players of table %(table)s have not all reported the same result: resolve it as a dispute."
            )
            % {"table": m.table}
        )
    reason = "Every player of the pod reported this result; accepted by staff."
    return _record_agreed(m, seats, agreed, by=by, reason=reason)


@transaction.atomic
def pod_dispute_resolve(
    *,
    match: Match,
    by: Any,
    reason: str,
    winner: Registration | None = None,
    conceded: Iterable[int] = (),
    version: int | None = None,
) -> Match:
    """Staff decide a disputed pod, with a reason: a staff entry (``pod_slip_enter``) that
    overrides the players' reports, the override logged. Raises InvalidInput without a
    reason, ResultConflict when someone recorded the pod meanwhile, as pod_slip_enter."""
    reason = reason.strip()
    if not reason:
        raise InvalidInput(
            gettext("Say why: resolving a dispute needs a reason for the audit trail.")
        )
    return pod_slip_enter(
        match=match, winner=winner, conceded=conceded, version=version, reason=reason, by=by
    )
