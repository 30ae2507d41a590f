"""The round clock's controls: pause, resume and add time to a started round, and give
one table a time extension (``tournaments.clock`` computes what the clock shows).

Each service locks the round (``select_for_update``, the natural lock of its clock),
refuses with a RoundStateError or InvalidInput that changes nothing, and writes an audit
row. Times are stored in seconds; staff give time in whole minutes, 1 to 60 at a time.
docs/rules.md gives no head-to-head round time or extension rule; the ruleset modules declare
the round times (pods: MP-TIME-1).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from ..actors import Actor
from ..clock import MAX_ADDED_MINUTES
from ..errors import InvalidInput, RoundStateError
from ..models import Match, Outcome, Round, RoundStatus
from .audit import audit_log


def _started(round_: Round) -> Round:
    """The round, locked; RoundStateError unless it is in progress."""
    rnd = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    if rnd.status != RoundStatus.STARTED:
        raise RoundStateError(
            gettext(
                "Round %(number)s is %(lower)s: its clock runs only while the round is in progress."
            )
            % {"number": rnd.number, "lower": rnd.get_status_display().lower()}
        )
    return rnd


def _seconds(minutes: Any) -> int:
    """Whole minutes 1–60 as seconds; InvalidInput otherwise (0, 999, 2.5, "abc")."""
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise InvalidInput(gettext("Give the time in whole minutes."))
    if not 1 <= minutes <= MAX_ADDED_MINUTES:
        raise InvalidInput(
            gettext("Give between 1 and %(max_added_minutes)s minutes at a time.")
            % {"max_added_minutes": MAX_ADDED_MINUTES}
        )
    return int(minutes) * 60


def _log(
    rnd: Round,
    by: Actor,
    action: str,
    obj: Any,
    old: dict[str, Any],
    new: dict[str, Any],
    reason: str,
) -> None:
    audit_log(
        event=rnd.event,
        by=by,
        action=action,
        obj=obj,
        round_number=rnd.number,
        old=old,
        new=new,
        reason=reason,
    )


@transaction.atomic
def round_clock_pause(*, round: Round, by: Actor, reason: str = "") -> Round:  # noqa: A002
    """Stop the clock of a started round at the server's now (``clock_paused_at``).

    Returns the round. Raises RoundStateError when the round is not in progress or
    its clock is already paused.
    """
    rnd = _started(round)
    if rnd.clock_paused_at is not None:
        raise RoundStateError(
            gettext("Round %(number)s's clock is already paused.") % {"number": rnd.number}
        )
    rnd.clock_paused_at = timezone.now()
    rnd.save(update_fields=["clock_paused_at"])
    paused = {"paused_at": rnd.clock_paused_at.isoformat()}
    _log(rnd, by, "round.clock_pause", rnd, {"paused_at": None}, paused, reason)
    return rnd


@transaction.atomic
def round_clock_resume(*, round: Round, by: Actor, reason: str = "") -> Round:  # noqa: A002
    """Run the clock of a paused round again: the pause (seconds, server time) is added
    to ``clock_paused_seconds``, so the elapsed time goes on from where it stopped.

    Returns the round. Raises RoundStateError when the round is not in progress or its
    clock is not paused.
    """
    rnd = _started(round)
    if rnd.clock_paused_at is None:
        raise RoundStateError(
            gettext("Round %(number)s's clock is running; it is not paused.")
            % {"number": rnd.number}
        )
    was = {"paused_at": rnd.clock_paused_at.isoformat(), "paused_seconds": rnd.clock_paused_seconds}
    pause = max(0, int((timezone.now() - rnd.clock_paused_at).total_seconds()))
    rnd.clock_paused_seconds += pause
    rnd.clock_paused_at = None
    rnd.save(update_fields=["clock_paused_at", "clock_paused_seconds"])
    now = {"paused_at": None, "paused_seconds": rnd.clock_paused_seconds}
    _log(rnd, by, "round.clock_resume", rnd, was, now, reason)
    return rnd


@transaction.atomic
def round_clock_add_time(*, round: Round, by: Actor, minutes: int, reason: str = "") -> Round:  # noqa: A002
    """Give every table of a started round ``minutes`` more (whole minutes, 1–60);
    stored as seconds in ``clock_added_seconds``. Allowed while paused.

    Returns the round. Raises InvalidInput for another number of minutes and
    RoundStateError when the round is not in progress.
    """
    seconds = _seconds(minutes)
    rnd = _started(round)
    old = {"added_seconds": rnd.clock_added_seconds}
    rnd.clock_added_seconds += seconds
    rnd.save(update_fields=["clock_added_seconds"])
    _log(rnd, by, "round.clock_add", rnd, old, {"added_seconds": rnd.clock_added_seconds}, reason)
    return rnd


@transaction.atomic
def match_time_extend(*, match: Match, by: Actor, minutes: int, reason: str = "") -> Match:
    """Give one table a time extension of ``minutes`` (whole minutes, 1–60; a deck check,
    a ruling), added to the match's ``extra_seconds``; extensions add up.

    Returns the match. Raises InvalidInput for another number of minutes or a match
    without a table, RoundStateError when the round is not in progress or the table
    already has its result.
    """
    seconds = _seconds(minutes)
    rnd = _started(match.round)
    m = Match.objects.select_for_update().get(pk=match.pk)
    if m.table is None:
        raise InvalidInput(gettext("A bye has no table to give time to."))
    if m.outcome != Outcome.PENDING:
        raise RoundStateError(
            gettext("Table %(table)s has its result: it needs no more time.") % {"table": m.table}
        )
    old = {"extra_seconds": m.extra_seconds}
    m.extra_seconds += seconds
    m.save(update_fields=["extra_seconds"])
    _log(rnd, by, "match.time_extend", m, old, {"extra_seconds": m.extra_seconds}, reason)
    return m
