"""Who may operate an event's staff pages.

Staff pages are for the event's organisers and scorekeepers (``EventStaff``). Judges are
event staff too, but in this release they do not operate the event (pairing, publishing,
entering slips): their pages (record corrections, P-POST-4) come later, so every operate
page answers them 403. Anyone else signed in gets 403; anonymous visitors are sent to
the login page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django_htmx.http import HttpResponseClientRedirect

from .models import Event, EventStaff, StaffRole

OPERATOR_ROLES = frozenset({StaffRole.ORGANISER, StaffRole.SCOREKEEPER})


def staff_roles(user: Any, event: Event) -> set[str]:
    """The roles ``user`` holds at ``event`` (empty for anonymous users). One query."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(EventStaff.objects.filter(event=event, user=user).values_list("role", flat=True))


def can_operate(user: Any, event: Event) -> bool:
    """True when ``user`` is an organiser or scorekeeper of ``event``."""
    return bool(staff_roles(user, event) & OPERATOR_ROLES)


def _to_login(request: HttpRequest) -> HttpResponse:
    # An HTMX request would swap the login page into a table row: redirect the window.
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(redirect_to_login(request.get_full_path()).url)
    return redirect_to_login(request.get_full_path())


def event_operator_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorate a staff view taking ``(request, event, ...)`` whose URL has ``<slug>``.

    Anonymous → login redirect; signed in without an operator role → 403 (PermissionDenied);
    unknown event → 404.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return _to_login(request)
        event = get_object_or_404(Event, slug=slug)
        if not can_operate(request.user, event):
            raise PermissionDenied(
                "Only the organisers and scorekeepers of this event can do that."
            )
        return view(request, event, *args, **kwargs)

    return wrapper


def login_required_htmx(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Like ``login_required``, answering HTMX requests with a client-side redirect."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return _to_login(request)
        return view(request, *args, **kwargs)

    return wrapper
