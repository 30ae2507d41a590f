"""Table results: entering them (P-POST-3, P-POST-4, R-6, MP-PTS-1).

``slip_enter`` is the one place a table's result changes, for a head-to-head match and
a multiplayer pod alike: staff slips, judges' corrections (``corrections``), dispute
resolutions and agreeing player reports (``reports``) all end here, so the version
check, the row lock, the P-POST-4 window and the audit row apply to every path. What
differs between the formats is a :class:`~.result_types.ResultFormat`.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from ..actors import Actor, acting_user
from ..errors import (
    AgreedResultOverride,
    RecordLocked,
    ReportOverride,
    ResultConflict,
    RoundStateError,
)
from ..models import Match, MatchSeat, Outcome, Registration, Round, RoundStatus, SelfReport
from .audit import audit_log
from .result_types import (
    POD,
    Result,
    ResultFormat,
    games_text,
    match_result_text,
    result_format,
    result_json,
    seats_of,
)
from .rounds import round_complete_if_reported, standings_refresh_on_commit

__all__ = [
    "check_agreed_override",
    "check_report_override",
    "correction_window_open",
    "locked_match",
    "locked_message",
    "match_result_text",
    "pod_intentional_draw_note",
    "result_json",
    "slip_enter",
]


def correction_window_open(rnd: Round) -> bool:
    """P-POST-4: a round's records lock once the second subsequent round is paired."""
    return not Round.objects.filter(group_id=rnd.group_id, number__gte=rnd.number + 2).exists()


def locked_message(rnd: Round) -> str:
    """The refusal of a change outside the P-POST-4 window, the rule in plain words."""
    return gettext(
        "Round %(number)s is locked: a round's match records can no longer be altered "
        "once the second subsequent round has been paired."
    ) % {"number": rnd.number}


def locked_match(match: Match) -> Match:
    """The match row locked (``select_for_update``) for the rest of the transaction, so
    two changes of one table are applied one after the other and the second sees the
    first's version."""
    return (
        Match.objects.select_for_update(of=("self",))
        # Not the winner: after waiting for the lock, PostgreSQL re-reads the locked row
        # but not the joined ones, so a joined winner could be stale (seen as None).
        .select_related("round__event")
        .get(pk=match.pk)
    )


def _log_overrides(m: Match, fmt: ResultFormat, by: Actor, reason: str) -> None:
    """A staff entry always overrides the players' own reports: log the ones it overrode."""
    if isinstance(by, Registration):
        return
    differing = [r for r in m.reports.select_related("registration", "winner") if r.differs_from(m)]
    if not differing:
        return
    old, new = fmt.override_values(m, differing)
    audit_log(
        event=m.round.event,
        by=by,
        action="report.override",
        obj=m,
        round_number=m.round.number,
        old=old,
        new=new,
        reason=reason or "A staff entry overrides the players' reports.",
    )


def _agreed_text(m: Match, seats: list[MatchSeat], agreed: Result) -> str:
    """The players' agreed result in words: "Ash wins 2-1-0", "tie", "double loss", a
    pod's "draw (Brock conceded)"."""
    names = {s.registration_id: s.registration.player.name for s in seats}
    if agreed.outcome == Outcome.WIN and agreed.winner_id in names:
        text = gettext("%(name)s wins") % {"name": names[agreed.winner_id]}
    elif agreed.outcome == Outcome.DRAW:
        text = gettext(m.round.event.rules.draw_word or "Draw").lower()
        conceded = sorted(names[i] for i in agreed.conceded if i in names)
        if conceded:
            text += " " + gettext("(%(names)s conceded)") % {"names": ", ".join(conceded)}
    else:
        text = Outcome(agreed.outcome).label.lower()
    return f"{text} {games_text(agreed.games)}" if agreed.games else text


def _same_result(a: Result, b: Result) -> bool:
    """Two results say the same (games compared when both have them)."""
    if (a.outcome, a.winner_id, a.conceded) != (b.outcome, b.winner_id, b.conceded):
        return False
    return a.games is None or b.games is None or tuple(a.games) == tuple(b.games)


def check_agreed_override(
    m: Match, fmt: ResultFormat, seats: list[MatchSeat], new: Result, by: Actor, reason: str
) -> None:
    """A staff entry (``by`` not a Registration) that differs from the
    result *every* seated player reported — recorded already or held for a staff click —
    needs a reason. Raises AgreedResultOverride (the agreed result in words) when
    ``reason`` is blank; otherwise returns and ``_log_overrides`` audits the reason.
    Players' partial or disagreeing reports, or reports one browser sent for two
    players, need nothing (a dispute is decided with a reason anyway,
    ``dispute_resolve``)."""
    if isinstance(by, Registration) or reason.strip():
        return
    reports = list(m.reports.all())
    if not reports or len(reports) < len(seats):
        return
    if any(getattr(r, "one_browser", False) for r in reports):
        return  # one phone reported for both: no real agreement to protect
    if not all(r.same_result(reports[0]) for r in reports):
        return
    agreed = fmt.agreed_result(seats, reports[0])
    if _same_result(agreed, new):
        return
    text = _agreed_text(m, seats, agreed)
    message = (
        gettext("Every player of the pod reported %(result)s: overriding it needs a reason.")
        if fmt is POD
        else gettext("Both players reported %(result)s: overriding it needs a reason.")
    )
    raise AgreedResultOverride(message % {"result": text}, agreed=text)


def _contradicts(report: SelfReport, new: Result) -> bool:
    """The player's report says something else than ``new``: another outcome or winner,
    or another game record when both have one (as ``SelfReport.differs_from`` compares a
    report with the recorded result, so what is asked here is what ``report.override``
    would log)."""
    if (report.outcome, report.winner_id) != (new.outcome, new.winner_id):
        return True
    return report.games is not None and new.games is not None and tuple(report.games) != new.games


def check_report_override(
    m: Match, fmt: ResultFormat, seats: list[MatchSeat], new: Result, by: Actor, confirmed: bool
) -> None:
    """A staff entry (``by`` not a Registration) that contradicts any player's own report
    of the table — one player reported, the players disagree, or one phone reported for
    both — is recorded only once staff confirmed it (``confirmed``: the slip posted
    again from the question, or given with a reason, as a dispute's decision or a
    correction is): a misclick over what a player said is caught before it counts. No
    reason is needed (a single report may be the mistaken one; when every player
    reported the same result ``check_agreed_override`` asks for a reason first).
    Raises ReportOverride ("Inés Ruiz reported: Inés Ruiz wins 2-0-0. Record Kofi Mensah
    wins 2-0-0 anyway?"), naming each contradicted report in seat order."""
    if isinstance(by, Registration) or confirmed:
        return
    reports = {r.registration_id: r for r in m.reports.all()}
    reported = tuple(
        gettext("%(name)s reported: %(result)s")
        % {
            "name": s.registration.player.name,
            "result": _agreed_text(m, seats, fmt.report_value(reports[s.registration_id], s)),
        }
        for s in seats
        if s.registration_id in reports and _contradicts(reports[s.registration_id], new)
    )
    if not reported:
        return
    entered = _agreed_text(m, seats, new)
    message = gettext("%(reported)s. Record %(result)s anyway?") % {
        "reported": "; ".join(reported),
        "result": entered,
    }
    raise ReportOverride(message, reported=reported, entered=entered)


def _record(
    m: Match, fmt: ResultFormat, seats: list[MatchSeat], new: Result, by: Actor, reason: str
) -> None:
    """Store the new result with a new version and write its audit row."""
    old_value, new_value = fmt.audit_values(m, seats, new)
    was = m.outcome
    fields = fmt.apply(m, seats, new)
    m.version += 1
    m.reported_at = timezone.now()
    m.reported_by = acting_user(by)
    m.save(update_fields=[*fields, "version", "reported_at", "reported_by"])
    audit_log(
        event=m.round.event,
        by=by,
        action="result.correct" if was != "pending" else "result.enter",
        obj=m,
        round_number=m.round.number,
        old=old_value,
        new=new_value,
        reason=reason,
    )


@transaction.atomic
def slip_enter(
    *,
    match: Match,
    by: Actor,
    result: Result,
    version: int | None = None,
    reason: str = "",
    confirmed: bool = False,
) -> Match:
    """Record a table's result (or correct it) and return the updated match.

    result: the table's :class:`Result` (``Result.win(winner)``, ``Result.draw()``,
    ``Result.of(...)``). A head-to-head match takes ``win`` (with the winner),
    ``draw`` or ``double-loss`` (R-6); best-of-3 rulesets need the games
    ``(wins of seat 1, wins of seat 2, drawn games)`` for a win or draw, from which
    outcome and winner follow (M-MATCH-1, M-SE-2). A pod of 3–5 takes a winner, or a draw
    (no winner) shared by every player not in ``conceded`` (MP-PTS-1).
    version: the match version the form was rendered with. When it is stale and the
    stored result differs, ResultConflict is raised with the current value; when it is
    stale but equal (a double click, a resent form) nothing changes.
    by: a staff user, or the Registration of a player whose report just made everyone
    agree. The match row is locked for the whole transaction.
    Raises RoundStateError before the round started, RecordLocked outside the P-POST-4
    window, InvalidInput for an impossible result, AgreedResultOverride when a staff
    entry differs from the result every player reported and ``reason`` is blank,
    ReportOverride when a staff entry contradicts any player's own report and is neither
    ``confirmed`` nor given with a reason (``check_report_override``). Writes a
    ``result.enter`` or
    ``result.correct`` audit row, plus ``report.override`` when a staff entry differs
    from a player's own report; the round completes (standings queued on commit) with
    its last result.
    """
    m = locked_match(match)
    seats = seats_of(m)
    fmt = result_format(seats)
    rnd = m.round
    new = fmt.checked(m, seats, result)
    if fmt.current(m, seats) == new:
        return m
    if version is not None and version != m.version:
        text = fmt.text(m, seats)
        raise ResultConflict(fmt.conflict(text), current=text)
    if rnd.status not in (RoundStatus.STARTED, RoundStatus.COMPLETE):
        raise RoundStateError(
            gettext("Round %(number)s has not started; start it before entering slips.")
            % {"number": rnd.number}
        )
    if m.reported and not correction_window_open(rnd):
        raise RecordLocked(locked_message(rnd))
    check_agreed_override(m, fmt, seats, new, by, reason)
    check_report_override(m, fmt, seats, new, by, confirmed or bool(reason.strip()))
    _record(m, fmt, seats, new, by, reason)
    _log_overrides(m, fmt, by, reason)
    round_complete_if_reported(rnd, by=by)
    if rnd.status == RoundStatus.COMPLETE:  # standings change only with complete rounds
        standings_refresh_on_commit(rnd.event_id)
    return m


INTENTIONAL_DRAW = "pod.intentional-draw"


@transaction.atomic
def pod_intentional_draw_note(*, match: Match, by: Actor) -> Match:
    """Record that players of a top-cut pod made an intentional draw: the first note sets
    ``Match.intentional_draw_at`` (later ones change nothing), and from then on the
    round's clock applies the 150-minute limit from the round start (MP-TIME-1; the
    final is never timed, whatever is noted). Audited (``pod.intentional-draw``).
    Raises RoundStateError outside a started top-cut round."""
    m = locked_match(match)
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
