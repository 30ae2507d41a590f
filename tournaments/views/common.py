"""Helpers shared by the page views of every app (``tournaments``, ``pairings``,
``standings``): the public page frame, fragment-or-page for HTMX, and query-string
parsing."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django_htmx.middleware import HtmxDetails

from ..groups import group_label
from ..models import Event, EventListing, Match, RoundStatus
from ..permissions import staff_roles
from ..selectors import ELIMINATION_PHASES, LIVE_STATUSES, current_public_rounds


class HtmxRequest(HttpRequest):
    """The request every view gets: django-htmx's middleware (``config.settings``) adds
    ``htmx``, the request's htmx headers (falsy for a plain browser request). A view that
    reads ``request.htmx``, or passes the request to a helper that does, takes this."""

    htmx: HtmxDetails


def wants_fragment(request: HtmxRequest) -> bool:
    """Whether to answer with a fragment: an HTMX request that is not a history restore.
    Going Back to a URL htmx pushed (the pairings search), when htmx no longer has the
    page cached, asks the server again (``HX-History-Restore-Request``) and puts the
    answer in place of the whole body: it needs the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def public_page(request: HtmxRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """The whole page, or only its ``live`` partial for an HTMX refresh or search (not for
    a history restore, :func:`wants_fragment`). ``updated_at`` (shown as "Updated
    14:02:31") is when the page was built: now, or the prebuild's time
    (``public_pages``)."""
    context.setdefault("updated_at", getattr(request, "prebuilt_at", None) or timezone.now())
    return render(request, f"{template}#live" if wants_fragment(request) else template, context)


def public_event_context(event: Event) -> dict[str, Any]:
    """What every public event page needs: the current published rounds and whether one
    is live. 3 queries."""
    rounds = current_public_rounds(event)
    return {
        "event": event,
        "current_rounds": rounds,
        "now": [(group_label(r.group), r) for r in rounds],
        "live": any(r.status in LIVE_STATUSES for r in rounds),
        "started": any(r.status == RoundStatus.STARTED for r in rounds),
        "has_bracket": any(r.phase in ELIMINATION_PHASES for r in rounds),
    }


def public_event_or_404(request: HttpRequest, slug: str) -> Event:
    """The event ``slug`` for a public page, or 404: unknown, or a draft and the visitor is not its staff (a draft's staff see its pages as they will be).
    1 query; 2 for a signed-in visitor of a draft."""
    event = get_object_or_404(Event, slug=slug)
    if event.listing == EventListing.DRAFT and not staff_roles(request.user, event):
        raise Http404("draft event")
    return event


def int_param(request: HttpRequest, name: str) -> int | None:
    """The query-string parameter ``name`` as a non-negative int, or None."""
    value = request.GET.get(name, "")
    return int(value) if value.isdigit() else None


def event_match_or_404(event: Event, match_id: int) -> Match:
    """The match ``match_id`` of ``event`` with its round, or 404 (another event's match
    is never reachable through this event's URLs)."""
    return get_object_or_404(Match.objects.select_related("round"), pk=match_id, round__event=event)
