"""The round clock's staff controls: pause, resume and add time to a round, and a table's
time extension (every staff role: organisers, scorekeepers and judges, ``clock``).

The controls are in two partials, ``_round_clock.html`` (the round) and
``_table_time.html`` (one table), included on the staff round page and on the clock page
of this module (``round_clock``), which judges, who do not operate the event, use. Each
form posts to a real URL with its CSRF token: without JavaScript the answer redirects back
to the page the form was on (``next``); HTMX swaps the partial in place. A refusal
(``MatchslipError``) is a message, or the partial with the error and status 422.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST, require_safe

from .. import services
from ..errors import MatchslipError
from ..models import Event, Round
from ..permissions import event_staff_required
from ..selectors import match_for_staff, round_for_staff
from ..selectors.timer import clock_for_staff
from .common import HtmxRequest, event_match_or_404

ROUND_CLOCK = "tournaments/staff/_round_clock.html"
TABLE_TIME = "tournaments/staff/_table_time.html"


def clock_context(rnd: Round) -> dict[str, Any]:
    """What ``_round_clock.html`` needs: the round's clock at the server's now. 1 query."""
    now = timezone.now()
    return {"clock": clock_for_staff(rnd, now), "clock_server_ms": int(now.timestamp() * 1000)}


@require_safe
@event_staff_required("clock")
def round_clock(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """A round's clock with its controls and every table's time extension: the page of
    staff who do not operate the event (judges); operators have the same on the round
    page."""
    rnd = get_object_or_404(Round.objects.select_related("event"), pk=round_id, event=event)
    context = {"event": event, "round": round_for_staff(rnd), **clock_context(rnd)}
    return render(request, "tournaments/staff/round_clock.html", context)


def _minutes(request: HttpRequest) -> int | None:
    """The posted ``minutes`` as a whole number, or None (the service refuses it)."""
    value = request.POST.get("minutes", "").strip()
    return int(value) if value.isdigit() else None


def _back(request: HttpRequest, event: Event, rnd: Round) -> HttpResponse:
    """Redirect to the page the form was on (``next``, same site only), else the round's
    clock page."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = reverse("staff:round_clock", args=[event.slug, rnd.pk])
    return redirect(target)


def _round_action(
    request: HtmxRequest, event: Event, round_id: int, action: Callable[[Round], Any], done: str
) -> HttpResponse:
    rnd = get_object_or_404(Round, pk=round_id, event=event)
    error = ""
    try:
        action(rnd)
    except MatchslipError as e:
        error = str(e)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, done)
        return _back(request, event, rnd)
    rnd = Round.objects.select_related("event").get(pk=rnd.pk)
    context = {"event": event, "round": rnd, "error": error, "clock_next": request.POST.get("next")}
    context |= clock_context(rnd)
    return render(request, ROUND_CLOCK, context, status=422 if error else 200)


@require_POST
@event_staff_required("clock")
def round_clock_pause(request: HtmxRequest, event: Event, round_id: int) -> HttpResponse:
    """Pause the round's clock."""
    return _round_action(
        request,
        event,
        round_id,
        lambda rnd: services.round_clock_pause(round=rnd, by=request.user),
        gettext("The round clock is paused."),
    )


@require_POST
@event_staff_required("clock")
def round_clock_resume(request: HtmxRequest, event: Event, round_id: int) -> HttpResponse:
    """Run the round's clock again."""
    return _round_action(
        request,
        event,
        round_id,
        lambda rnd: services.round_clock_resume(round=rnd, by=request.user),
        gettext("The round clock runs again."),
    )


@require_POST
@event_staff_required("clock")
def round_clock_add(request: HtmxRequest, event: Event, round_id: int) -> HttpResponse:
    """Add ``minutes`` (1–60) to the whole round."""
    minutes = _minutes(request)
    return _round_action(
        request,
        event,
        round_id,
        lambda rnd: services.round_clock_add_time(round=rnd, by=request.user, minutes=minutes),  # type: ignore[arg-type]
        ngettext(
            "%(minutes)s minute added to the round.",
            "%(minutes)s minutes added to the round.",
            minutes or 0,
        )
        % {"minutes": minutes},
    )


@require_POST
@event_staff_required("clock")
def match_time_extend(request: HtmxRequest, event: Event, match_id: int) -> HttpResponse:
    """Give one table ``minutes`` (1–60) more: a judge's time extension."""
    match = event_match_or_404(event, match_id)
    minutes, error = _minutes(request), ""
    try:
        services.match_time_extend(match=match, by=request.user, minutes=minutes)  # type: ignore[arg-type]
    except MatchslipError as e:
        error = str(e)
    if not request.htmx:
        if error:
            messages.error(
                request,
                gettext("Table %(table)s: %(error)s") % {"table": match.table, "error": error},
            )
        else:
            messages.success(
                request,
                gettext("Table %(table)s has %(minutes)s more minutes.")
                % {"table": match.table, "minutes": minutes},
            )
        return _back(request, event, match.round)
    view, _ = match_for_staff(match.pk)
    context = {
        "event": event,
        "m": view,
        "round": match.round,
        "time_error": error,
        "clock_next": request.POST.get("next"),
    }
    return render(request, TABLE_TIME, context, status=422 if error else 200)
