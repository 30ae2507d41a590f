"""Public pages: no login, phone-first, small, and only ever published rounds (P-POST-1).

While a round is live (published or started) each page's content refreshes itself every
``settings.PUBLIC_REFRESH_SECONDS`` on visible tabs: the page's ``live`` partial carries
the polling attributes and an HTMX request receives only that partial, so polling stops
by itself once nothing is live.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from standings.services import standings_latest

from ..forms import SearchForm
from ..models import Event
from ..public_cache import pairings_fragment
from ..selectors import (
    ELIMINATION_PHASES,
    LIVE_STATUSES,
    bracket_for_public,
    current_public_rounds,
    divisions_for_event,
    events_for_home,
    pairings_search_for_public,
    pod_label,
    standings_for_public,
)


def _page(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """The whole page, or only its ``live`` partial for an HTMX refresh or search."""
    context.setdefault("refresh_seconds", settings.PUBLIC_REFRESH_SECONDS)
    return render(request, f"{template}#live" if request.htmx else template, context)


def _event_context(event: Event) -> dict[str, Any]:
    """What every public event page needs: the current published rounds and whether one
    is live. 1 query."""
    rounds = current_public_rounds(event)
    return {
        "event": event,
        "current_rounds": rounds,
        "now": [(pod_label(r.pod), r) for r in rounds],
        "live": any(r.status in LIVE_STATUSES for r in rounds),
        "has_bracket": any(r.phase in ELIMINATION_PHASES for r in rounds),
    }


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Recent events, the signed-in user's own events, and the way to staff login."""
    recent, mine = events_for_home(request.user)
    return render(request, "tournaments/home.html", {"events": recent, "my_events": mine})


@require_GET
def event_home(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's announcements (S-2), divisions, current rounds and links. 3 queries."""
    event = get_object_or_404(Event, slug=slug)
    context = _event_context(event)
    context["divisions"] = divisions_for_event(event)
    return _page(request, "tournaments/public/event.html", context)


@require_GET
def pairings(request: HttpRequest, slug: str) -> HttpResponse:
    """Current pairings by table or by name, served from the cache (``public_cache``);
    ``?q=`` finds a player's table. 2 queries on a cache hit."""
    event = get_object_or_404(Event, slug=slug)
    context = _event_context(event)
    form = SearchForm(request.GET)
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    order = "name" if request.GET.get("by") == "name" else "table"
    context.update(form=form, query=query, order=order, several=len(context["current_rounds"]) > 1)
    if query:
        context["results"] = pairings_search_for_public(event, context["current_rounds"], query)
    elif context["current_rounds"]:
        context["fragment"] = pairings_fragment(event, context["current_rounds"])[f"by_{order}"]
    return _page(request, "tournaments/public/pairings.html", context)


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The latest standings: place, record, match points, OWP and OOWP (P-TB-8). 3 queries."""
    event = get_object_or_404(Event, slug=slug)
    context = _event_context(event)
    snapshot = standings_latest(event)
    context["snapshot"] = snapshot
    context["divisions"] = standings_for_public(snapshot.data) if snapshot else []
    return _page(request, "tournaments/public/standings.html", context)


@require_GET
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """The published top-cut rounds of every division, round by round. 5 queries."""
    event = get_object_or_404(Event, slug=slug)
    context = _event_context(event)
    context["brackets"] = bracket_for_public(event)
    return _page(request, "tournaments/public/bracket.html", context)
