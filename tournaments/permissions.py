"""Who may do what at an event: staff roles mapped to capabilities, checked on the server.

Roles (``EventStaff``, one user may hold several):
- **organiser**: owns the event; can do everything below and manages staff and settings.
- **scorekeeper**: operates the event: players, pairing, publishing, starting, match
  slips, drops, standings and printing.
- **judge**: corrects results within the P-POST-4 window, records penalty notes.
Every staff role runs the round clock (pause, resume, add time) and gives a table a
time extension, and answers judge calls on the floor board (``floor``).
Every staff role sees the disputes queue (and may resolve a dispute, with a reason, or
accept an agreed result) and the audit trail. Decision: scorekeepers resolve disputes
too, because "a staff entry always overrides" — the slip brought to their desk decides.

A view declares the capability it needs with ``event_staff_required``. Anonymous
visitors are sent to the login page; signed-in users without the capability get 403;
an unknown event is 404. The decorator puts ``request.can`` (``Can``) on the request,
so templates show only the links and buttons the user may use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, cast

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext_lazy as _
from django_htmx.http import HttpResponseClientRedirect

from .models import Event, EventStaff, StaffRole

OPERATOR_ROLES = frozenset({StaffRole.ORGANISER, StaffRole.SCOREKEEPER})
ALL_STAFF = frozenset(StaffRole)

# capability → (roles that have it, what a refused user is told)
CAPABILITIES: dict[str, tuple[frozenset[str], str]] = {
    "operate": (OPERATOR_ROLES, "Only the organisers and scorekeepers of this event can do that."),
    "correct": (
        frozenset({StaffRole.ORGANISER, StaffRole.JUDGE}),
        "Only the organisers and judges of this event can correct results or note penalties.",
    ),
    "resolve": (ALL_STAFF, "Only the staff of this event can handle disputes."),
    "audit": (ALL_STAFF, "Only the staff of this event can read its audit trail."),
    "clock": (ALL_STAFF, "Only the staff of this event can run the round clock."),
    "decklists": (ALL_STAFF, "Only the staff of this event can handle deck lists."),
    # the judges' floor board (judge calls, the end of the round), any staff role.
    "floor": (ALL_STAFF, cast(str, _("Only the staff of this event can answer judge calls."))),
    "manage": (
        frozenset({StaffRole.ORGANISER}),
        "Only the organisers of this event can manage its staff and settings.",
    ),
}


@dataclass(frozen=True)
class Can:
    """What a user may do at one event (``request.can`` on staff pages)."""

    roles: frozenset[str]

    def __getattr__(self, capability: str) -> bool:
        if capability not in CAPABILITIES:
            raise AttributeError(capability)
        return bool(self.roles & CAPABILITIES[capability][0])


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


def event_staff_required(
    capability: str, *, other_staff_to: str | None = None
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """Decorate a staff view taking ``(request, event, ...)`` whose URL has ``<slug>``.

    Anonymous → login redirect; signed in without ``capability`` → 403
    (PermissionDenied, with who may); unknown event → 404. ``other_staff_to``: a URL
    name where staff of the event who lack the capability are sent instead of the 403
    (the staff entry page sends judges to their desk).
    """
    roles_needed, refusal = CAPABILITIES[capability]

    def decorator(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return _to_login(request)
            event = get_object_or_404(Event, slug=slug)
            roles = frozenset(staff_roles(request.user, event))
            if not roles & roles_needed:
                if roles and other_staff_to:
                    return redirect(other_staff_to, event.slug)
                raise PermissionDenied(refusal)
            request.can = Can(roles)  # type: ignore[attr-defined]
            return view(request, event, *args, **kwargs)

        return wrapper

    return decorator


event_operator_required = event_staff_required("operate")


def login_required_htmx(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Like ``login_required``, answering HTMX requests with a client-side redirect."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return _to_login(request)
        return view(request, *args, **kwargs)

    return wrapper
