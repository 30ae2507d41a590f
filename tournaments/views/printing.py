"""Print pages (organisers and scorekeepers): pairings by name for the wall, pairings by
table, and match slips in cut-stack order with each player's report QR code.

Each page is plain HTML with a print stylesheet (``static/css/print.css``); ``?paper=``
``a4`` (default) or ``letter`` sets the page size and the slip height, so four match
slips (or two pod slips) fill a sheet of either paper.

A player's private link lets whoever holds it report and drop for
them, so a slip no longer carries both links side by side. The staff part (table,
players, result boxes, signatures) stays whole; each player's QR code, link and name
are on that player's own tear-off strip beyond a dashed cut line, one strip per seat.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from ..models import Event, Round
from ..permissions import event_staff_required
from ..qr import qr_svg
from ..selectors.printing import (
    Slip,
    SlipSeat,
    cut_stack,
    names_for_print,
    round_for_print,
    slips_for_print,
)
from ..venue import absolute_url

SLIPS_PER_SHEET = 4
POD_SLIPS_PER_SHEET = 2  # a pod's slip is twice as tall: up to five seats and strips
PAPERS = {"a4": ("A4", "210mm", "297mm"), "letter": ("letter", "8.5in", "11in")}


def paper_context(request: HttpRequest) -> dict[str, Any]:
    """The chosen paper: CSS ``@page`` size name, width and height."""
    key = request.GET.get("paper", "a4")
    key = key if key in PAPERS else "a4"
    name, width, height = PAPERS[key]
    return {"paper": key, "paper_size": name, "paper_width": width, "paper_height": height}


def _round(event: Event, round_id: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event"), pk=round_id, event=event)


@require_safe
@event_staff_required("operate")
def print_pairings(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """``?by=name`` (default): alphabetical in several columns, large type, for the wall;
    ``?by=table``: table order with records."""
    view = round_for_print(_round(event, round_id))
    order = "table" if request.GET.get("by") == "table" else "name"
    context = {
        "event": event,
        "round": view,
        "order": order,
        "names": names_for_print(view) if order == "name" else [],
        **paper_context(request),
    }
    return render(request, "tournaments/print/pairings.html", context)


@require_safe
@event_staff_required("operate")
def print_slips(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """Match slips, four per sheet in cut-stack order (pods: two per sheet, after the
    matches): table, players with records, result boxes and signature lines on the staff
    part; each player's report QR code, link and name on their own tear-off strip."""
    view = round_for_print(_round(event, round_id))
    slips: list[tuple[Slip, list[tuple[SlipSeat, str, str]]]] = []
    pods: list[tuple[Slip, list[tuple[SlipSeat, str, str]]]] = []
    for slip in slips_for_print(view):
        links = [
            absolute_url(request, reverse("public:player", args=[event.slug, s.token]))
            for s in slip.seats
        ]
        strips = [(seat, url, qr_svg(url)) for seat, url in zip(slip.seats, links, strict=True)]
        (pods if slip.is_pod else slips).append((slip, strips))
    context = {
        "event": event,
        "round": view,
        "sheets": cut_stack(slips, SLIPS_PER_SHEET) + cut_stack(pods, POD_SLIPS_PER_SHEET),
        **paper_context(request),
    }
    response = render(request, "tournaments/print/slips.html", context)
    response["Cache-Control"] = "private, no-store"
    return response
