"""The staff standings page and its print version (organisers and scorekeepers, see
``tournaments.permissions``). URL name ``staff:standings``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from tournaments.models import Event
from tournaments.permissions import event_operator_required
from tournaments.selectors import standings_for_public
from tournaments.stored_text import shown
from tournaments.views.common import HtmxRequest, int_param, wants_fragment
from tournaments.views.printing import paper_context

from ..receipts import receipt_links
from ..services import standings_latest, standings_request, standings_run_latest


@require_safe
@event_operator_required
def standings(request: HtmxRequest, event: Event) -> HttpResponse:
    """Standings after each round (every computed version is kept, P-POST-3): the latest,
    or ``?snapshot=<id>``; the final standings once the event is finished."""
    versions = list(event.standings.defer("data").order_by("-computed_at", "-id")[:100])
    chosen_id = int_param(request, "snapshot")
    snapshot = (
        event.standings.filter(pk=chosen_id).first() if chosen_id else standings_latest(event)
    )
    run = standings_run_latest(event)
    if wants_fragment(request) and request.GET.get("run"):
        return render(
            request, "standings/staff/standings.html#run-status", {"event": event, "run": run}
        )
    context = {
        "event": event,
        "run": run,
        "versions": versions,
        "snapshot": snapshot,
        "divisions": standings_for_public(snapshot.data) if snapshot else [],
        "receipt_links": receipt_links(event) if snapshot else {},
    }
    return render(request, "standings/staff/standings.html", context)


@require_POST
@event_operator_required
def standings_retry(request: HttpRequest, event: Event) -> HttpResponse:
    """The "Try again" button after a failed standings run: a fresh run through the same
    service as a completed round (or the run already going)."""
    run, created = standings_request(event=event, by=request.user)
    if created:
        messages.success(request, gettext("Standings are being computed again."))
    else:  # with the run's note: e.g. sent again after no worker answered
        text = gettext("Standings are already being computed.")
        messages.info(request, f"{text} {shown(run.note)}" if run.note else text)
    return redirect("staff:standings", event.slug)


@require_safe
@event_operator_required
def print_standings(request: HttpRequest, event: Event) -> HttpResponse:
    """The latest standings (or ``?snapshot=<id>``) on paper, A4 or Letter (``?paper=``)."""
    chosen_id = int_param(request, "snapshot")
    snapshot = (
        event.standings.filter(pk=chosen_id).first() if chosen_id else standings_latest(event)
    )
    context = {
        "event": event,
        "snapshot": snapshot,
        "divisions": standings_for_public(snapshot.data) if snapshot else [],
        **paper_context(request),
    }
    return render(request, "standings/print/standings.html", context)
