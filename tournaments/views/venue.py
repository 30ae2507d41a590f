"""The venue sign: the event's address on the local network as a QR code, to print for
the door or show on the projector (venue mode, ``manage.py venue``; docs/operations.md)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from ..models import Event
from ..permissions import event_operator_required
from ..qr import qr_svg
from ..venue import absolute_url


@require_safe
@event_operator_required
def venue_sign(request: HttpRequest, event: Event) -> HttpResponse:
    """A QR code of the event's public page at the address phones reach: the laptop's
    LAN address in venue mode (``settings.VENUE_URL``), else this page's own address.
    Organisers and scorekeepers."""
    url = absolute_url(request, reverse("public:event", args=[event.slug]))
    context = {
        "event": event,
        "url": url,
        "qr": qr_svg(url, title=gettext("The event on your phone")),
        "venue_mode": bool(settings.VENUE_URL),
    }
    return render(request, "tournaments/staff/venue_sign.html", context)
