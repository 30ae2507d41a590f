"""The round timer for a projector, for every ruleset: a big clock per started round
(the ruleset's time, plus time added by the staff; "Paused" while paused; pods follow
MP-TIME-1), the tables still playing, the tables with a time extension, and a QR code to
the public pairings.

The clock is the server's: the page carries the round's start, its ended pauses and the
server's "now" (milliseconds since the epoch); its script measures the device's offset
from the server once per refresh and counts from the start, so every phone and projector
shows the same time whatever its own clock says. Without JavaScript the server-rendered
time refreshes with the page.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from ..permissions import staff_roles
from ..qr import qr_svg
from ..selectors.timer import timer_for_public
from ..venue import absolute_url
from .common import HtmxRequest, public_event_or_404, public_page


@require_safe
def timer(request: HtmxRequest, slug: str) -> HttpResponse:
    """The projector page: clocks of the started rounds, tables playing and with a time
    extension, QR code of the public pairings. Staff of the event also get a link to each
    round's controls. Full screen for a 1920×1080 projector, without the site header."""
    event = public_event_or_404(request, slug)
    now = timezone.now()
    clocks = timer_for_public(event, now)
    pairings_url = absolute_url(request, reverse("public:pairings", args=[event.slug]))
    context = {
        "event": event,
        "clocks": clocks,
        "live": event.status != "finished",  # a projector waits for the next round
        "server_ms": int(now.timestamp() * 1000),
        "pairings_url": pairings_url,
        # The code's accessible name says where it leads.
        "qr": qr_svg(pairings_url, title=gettext("QR code of the public pairings")),
        "is_staff": bool(staff_roles(request.user, event)),
    }
    return public_page(request, "tournaments/public/timer.html", context)
