"""Public pages: no login, phone-first, small, and only ever published rounds (P-POST-1).

Until the event is finished each page follows it live (``tournaments.live``):
the page holds the event's stream and its ``live`` partial fetches itself again on a
notice of the public topic; an HTMX request receives only that partial
(``common.public_page``). The standings page lives in ``standings.views.public``.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..forms import SearchForm
from ..planning import plan_for_event
from ..public_cache import pairings_fragment
from ..selectors import (
    bracket_for_public,
    divisions_for_event,
    events_for_home,
    pairings_search_for_public,
)
from ..selectors.featured import featured_for_public
from .common import HtmxRequest, public_event_context, public_event_or_404, public_page
from .prebuilt import pairings_page, prebuilt, search_entries


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Recent events, the signed-in user's own events, and the way to staff login."""
    recent, mine = events_for_home(request.user)
    return render(request, "tournaments/home.html", {"events": recent, "my_events": mine})


@require_safe
def event_home(request: HtmxRequest, slug: str) -> HttpResponse:
    """The event's announcements (S-2), divisions, current rounds, links and the
    estimated finish (``planning``) and the featured matches. 6 queries."""
    event = public_event_or_404(request, slug)
    context = public_event_context(event)
    context["divisions"] = divisions_for_event(event)
    # divisions announced with different rounds or cuts show their own
    context["per_division"] = len({(d.rounds, d.cut) for d in context["divisions"]}) > 1
    context["plan"] = plan_for_event(event)  # the estimated finish
    # the featured matches of the current rounds
    context["featured"] = featured_for_public(event, context["current_rounds"])
    return public_page(request, "tournaments/public/event.html", context)


@require_safe
@prebuilt(pairings_page)
def pairings(request: HtmxRequest, slug: str) -> HttpResponse:
    """Current pairings by table or by name: the prebuilt response when stored (no
    query, ``views.prebuilt``), else rendered around the cached fragment
    (``public_cache``), 2 queries; ``?q=`` finds a player's table, from the stored
    name list when there is one."""
    event = public_event_or_404(request, slug)
    context = public_event_context(event)
    form = SearchForm(request.GET)
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    order = "name" if request.GET.get("by") == "name" else "table"
    context.update(form=form, query=query, order=order, several=len(context["current_rounds"]) > 1)
    if query:
        found = search_entries(slug, query)
        if found is None:
            found = pairings_search_for_public(event, context["current_rounds"], query)
        context["results"] = found
    elif context["current_rounds"]:
        fragment = pairings_fragment(event, context["current_rounds"])
        context["fragment"] = fragment["by_name"] if order == "name" else fragment["by_table"]
    return public_page(request, "tournaments/public/pairings.html", context)


@require_safe
def bracket(request: HtmxRequest, slug: str) -> HttpResponse:
    """The published top-cut rounds of every division, round by round. 5 queries."""
    event = public_event_or_404(request, slug)
    context = public_event_context(event)
    context["brackets"] = bracket_for_public(event)
    return public_page(request, "tournaments/public/bracket.html", context)
