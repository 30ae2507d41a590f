"""The round timer for a projector (MP-TIME-1): a big clock per started round, the pods
still playing and a QR code to the public pairings.

The clock is the server's: the page carries the round's start and the server's "now"
(milliseconds since the epoch); its script measures the device's offset from the server
once per refresh and counts from the start, so every phone and projector shows the same
time whatever its own clock says. Without JavaScript the server-rendered time refreshes
with the page.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from ..models import Event
from ..multiplayer import uses_pods
from ..qr import qr_svg
from ..selectors.timer import timer_for_public
from .common import public_page


@require_GET
def timer(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector page: clocks of the started rounds, pods still playing, QR code."""
    event = get_object_or_404(Event, slug=slug)
    if not uses_pods(event):  # the MP-TIME-1 limits are those of multiplayer pods
        raise Http404("The round timer is for multiplayer pod events.")
    now = timezone.now()
    clocks = timer_for_public(event, now)
    pairings_url = request.build_absolute_uri(reverse("public:pairings", args=[event.slug]))
    context = {
        "event": event,
        "clocks": clocks,
        "live": event.status != "finished",  # a projector waits for the next round
        "server_ms": int(now.timestamp() * 1000),
        "pairings_url": pairings_url,
        "qr": qr_svg(pairings_url),
        "refresh_seconds": 15,
    }
    return public_page(request, "tournaments/public/timer.html", context)
