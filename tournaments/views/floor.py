"""The judges' floor board, made for a phone in a dim hall:
the open judge calls by table with how long they have waited (claim, escalate to the
head judge, resolve with a note and a time extension), the end-of-round board (the
tables still playing with their extension and time used, the results missing) and the
players with a repeated infraction. Any staff role of the event (``floor``).

The board is a live staff page (``live_source … page=``): every change at the event
refreshes it, morphed in place. Each action is a plain form post (its CSRF token and
the call's ``version``) answered by a redirect back to the board with a message, so it
works without JavaScript; a refused or stale action (``MatchslipError``) is the message
and changes nothing. ``?theme=dark`` (kept in a cookie) shows it light on dark.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from .. import services
from ..errors import MatchslipError
from ..models import Event, JudgeCall
from ..permissions import event_staff_required
from ..selectors.floor import floor_for_staff

THEME_COOKIE = "matchslip_floor_theme"
THEMES = ("light", "dark")


@require_safe
@event_staff_required("floor")
def floor(request: HttpRequest, event: Event) -> HttpResponse:
    """The floor board of the event for the signed-in staff member."""
    now = timezone.now()
    asked = request.GET.get("theme", "")
    theme = asked if asked in THEMES else request.COOKIES.get(THEME_COOKIE, "light")
    context = {
        "event": event,
        "board": floor_for_staff(event, now, request.user),
        "server_ms": int(now.timestamp() * 1000),
        "dark": theme == "dark",
    }
    response = render(request, "tournaments/staff/floor.html", context)
    if asked in THEMES:
        response.set_cookie(THEME_COOKIE, asked, max_age=400 * 24 * 3600, samesite="Lax")
    return response


def _act(
    request: HttpRequest, event: Event, call_id: int, action: Callable[[JudgeCall], Any]
) -> HttpResponse:
    call = get_object_or_404(JudgeCall, pk=call_id, event=event)
    try:
        message = action(call)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, message)
    return redirect("staff:floor", event.slug)


@require_POST
@event_staff_required("floor")
def judge_call_claim(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    """Claim a call (``version``: the one the board showed)."""

    def claim(call: JudgeCall) -> str:
        services.judge_call_claim(call=call, by=request.user, version=request.POST.get("version"))
        return gettext("You claimed table %(table)s's call.") % {"table": call.table}

    return _act(request, event, call_id, claim)


@require_POST
@event_staff_required("floor")
def judge_call_escalate(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    """Hand a call to the head judge."""

    def escalate(call: JudgeCall) -> str:
        services.judge_call_escalate(
            call=call, by=request.user, version=request.POST.get("version")
        )
        return gettext("Table %(table)s's call is with the head judge.") % {"table": call.table}

    return _act(request, event, call_id, escalate)


def _minutes(request: HttpRequest) -> int | None:
    """The posted ``minutes`` (empty: 0) as a whole number, or None (refused)."""
    value = request.POST.get("minutes", "").strip() or "0"
    return int(value) if value.isdigit() else None


@require_POST
@event_staff_required("floor")
def judge_call_resolve(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    """Resolve a call with a ``note`` and ``minutes`` of time extension for the table."""

    def resolve(call: JudgeCall) -> str:
        minutes = _minutes(request)
        services.judge_call_resolve(
            call=call,
            by=request.user,
            version=request.POST.get("version"),
            note=request.POST.get("note", ""),
            minutes=minutes,  # type: ignore[arg-type]  # None: refused by the service
        )
        if minutes:
            return gettext(
                "Table %(table)s's call is resolved; the table has %(minutes)s more minutes."
            ) % {"table": call.table, "minutes": minutes}
        return gettext("Table %(table)s's call is resolved.") % {"table": call.table}

    return _act(request, event, call_id, resolve)
