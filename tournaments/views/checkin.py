"""Check-in pages.

* ``staff:checkin``: the staff check-in list, made for a phone at the door: a search by
  name (any order, accents ignored) or player ID, and one tap per player toggling present
  (an htmx POST answering the row and the counts; without JavaScript a plain form post
  and a redirect back to the same search). Counts present / absent per division.
* ``staff:checkin_door``: a page to print or project at the door, with a QR code of the
  event's check-in address.
* ``public:checkin``: where that QR code leads. A player proves who they are with their
  player ID and birth year, both as registered (``services.checkin.door_registration``).
  Decision: this weak proof only checks the player in; it never reveals their private
  link (which reports results and drops), and every mismatch gets the same answer.
* ``public:player_checkin``: the "Check in" button of the player's private page.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from .. import services
from ..errors import MatchslipError
from ..models import Event, Registration
from ..permissions import event_operator_required
from ..qr import qr_svg
from ..services.checkin import (
    checkin_list_for_staff,
    checkin_row,
    checkin_window,
    door_registration,
    self_checkin_open,
)
from ..venue import absolute_url
from .common import HtmxRequest
from .player import _private, _registration

LIST_TEMPLATE = "tournaments/staff/checkin.html"


def _list_url(event: Event, query: str) -> str:
    url = reverse("staff:checkin", args=[event.slug])
    return f"{url}?{urlencode({'q': query})}" if query else url


@require_safe
@event_operator_required
def checkin(request: HtmxRequest, event: Event) -> HttpResponse:
    """The staff check-in list; ``?q=`` a name or player ID. An htmx search (typing in
    the box) answers only the list and counts. 2 queries for the list (the players, and
    whether a round exists)."""
    view = checkin_list_for_staff(event, request.GET.get("q", ""))
    context = {
        "event": event,
        "list": view,
        "query": view.query,
        "open": checkin_window(event),
    }
    if request.htmx and request.GET.get("part") == "rows":
        return render(request, f"{LIST_TEMPLATE}#rows", context)
    return render(request, LIST_TEMPLATE, context)


@require_POST
@event_operator_required
def checkin_toggle(request: HtmxRequest, event: Event, registration_id: int) -> HttpResponse:
    """Tick (``present=1``) or untick (``present=0``) one player. htmx: answers the row,
    with the counts out of band (422 and the reason when refused); without JavaScript:
    back to the list with the same search (``q``) and a message."""
    reg = get_object_or_404(Registration, pk=registration_id, event=event)
    present = request.POST.get("present") == "1"
    query = request.POST.get("q", "").strip()[:100]
    error = ""
    try:
        services.registration_checkin(registration=reg, by=request.user, present=present)
    except MatchslipError as e:
        error = str(e)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(_list_url(event, query) + f"#reg-{reg.pk}")
    try:
        row = checkin_row(event, reg.pk)
    except Registration.DoesNotExist:  # dropped meanwhile: the page's next refresh drops it
        row = None
    context = {
        "event": event,
        "row": row,
        "list": checkin_list_for_staff(event),
        "query": query,
        "open": checkin_window(event),
        "error": error,
    }
    return render(request, f"{LIST_TEMPLATE}#tapped", context, status=422 if error else 200)


@require_safe
@event_operator_required
def checkin_door(request: HttpRequest, event: Event) -> HttpResponse:
    """The door sign: a QR code of the public check-in page, to print or project."""
    url = absolute_url(request, reverse("public:checkin", args=[event.slug]))
    context = {
        "event": event,
        "url": url,
        "qr": qr_svg(url, title=gettext("Check in here")),
        "open": self_checkin_open(event),
    }
    return render(request, "tournaments/staff/checkin_door.html", context)


class DoorCheckinForm(forms.Form):
    """What a player types at the door: their player ID and birth year."""

    player_id = forms.CharField(max_length=40, label=_("Player ID"))
    birth_year = forms.IntegerField(min_value=1900, max_value=2100, label=_("Birth year"))


@require_http_methods(["GET", "HEAD", "POST"])
def door_checkin(request: HttpRequest, slug: str) -> HttpResponse:
    """The page the door QR code opens: a player checks in with their player ID and
    birth year while check-in is open. A refusal changes nothing and says what to do.
    Open for a draft event too: check-in comes before the event is published, and the
    page shows nothing but its name (a player's private link works for a draft alike)."""
    event = get_object_or_404(Event, slug=slug)
    form = DoorCheckinForm(request.POST or None)
    done = None
    status = 200
    open_now = self_checkin_open(event)
    if request.method == "POST" and open_now:
        if form.is_valid():
            try:
                reg = door_registration(
                    event, form.cleaned_data["player_id"], str(form.cleaned_data["birth_year"])
                )
                services.registration_checkin(registration=reg, by=reg)
            except MatchslipError as e:
                form.add_error(None, str(e))
                status = 422
            else:
                done = reg
        else:
            status = 422
    context = {"event": event, "form": form, "done": done, "open": open_now}
    return _private(render(request, "tournaments/public/checkin.html", context, status=status))


@require_POST
def player_checkin(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The "Check in" button of the player's private page (while check-in is open)."""
    reg = _registration(slug, token)
    try:
        changed = services.registration_checkin(registration=reg, by=reg)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        if changed:
            messages.success(request, gettext("You are checked in. Good luck!"))
    return _private(redirect("public:player", slug, token))
