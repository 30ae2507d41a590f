"""Deck lists and random deck checks (P-POST-5).

Deck lists: every staff role (capability ``decklists``) records a list as received and
draws a random deck check; the page lists who is missing one, the checks drawn and the
top-cut players' status. Each view calls one service and shows a ``MatchslipError`` as a
message (docs/style.md §7); forms post and redirect back. Disqualifying a player, from
their page or the penalties page, is ``roster.player_disqualify``.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from .. import services
from ..errors import MatchslipError
from ..models import Event, MatchSeat, Phase, Registration
from ..permissions import event_staff_required
from ..selectors.names import registration_name, with_shown_names
from ..services.decklists import deck_checks_for_staff, decklists_missing
from .decklists import settings_forms


class DecklistForm(forms.Form):
    text = forms.CharField(required=False, max_length=20_000, widget=forms.Textarea)


class DeckCheckForm(forms.Form):
    count = forms.IntegerField(min_value=1, max_value=64, initial=4)


def _reg(event: Event, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, event=event
    )


def _cut_players(event: Event) -> list[Registration]:
    """Players seated in a top-cut round, with their deck-list status (P-POST-5)."""
    ids = MatchSeat.objects.filter(round__event=event, round__phase=Phase.TOP_CUT).values(
        "registration_id"
    )
    return list(
        with_shown_names(event.registrations.filter(pk__in=ids), event.pk).order_by("player__name")
    )


@require_safe
@event_staff_required("decklists")
def decklists(request: HttpRequest, event: Event) -> HttpResponse:
    """Who has handed in a deck list, who is missing one, the deck checks drawn and the
    top-cut players' status (P-POST-5)."""
    regs = with_shown_names(event.registrations.all(), event.pk).order_by("player__name")
    context = {
        "event": event,
        "registrations": [r for r in regs if not r.dropped and not r.disqualified],
        "missing": decklists_missing(event),
        "checks": deck_checks_for_staff(event),
        "cut_players": _cut_players(event),
        "check_form": DeckCheckForm(),
        **settings_forms(event),  # the deadline, collected, published
    }
    return render(request, "tournaments/staff/decklists.html", context)


@require_POST
@event_staff_required("decklists")
def decklist_record(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Record a player's deck list as received, the pasted text optional (P-POST-5)."""
    reg = _reg(event, registration_id)
    form = DecklistForm(request.POST)
    text = form.cleaned_data["text"] if form.is_valid() else ""
    try:
        services.decklist_record(registration=reg, by=request.user, text=text)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request, gettext("Deck list of %(name)s received.") % {"name": registration_name(reg)}
        )
    back = "staff:players" if request.POST.get("next") == "players" else "staff:decklists"
    return redirect(back, event.slug)


@require_POST
@event_staff_required("decklists")
def deck_check(request: HttpRequest, event: Event) -> HttpResponse:
    """Draw a random deck check from a stored seed (P-POST-5, I-1)."""
    form = DeckCheckForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Give how many players to check (1–64)."))
        return redirect("staff:decklists", event.slug)
    try:
        picked = services.deck_check_draw(
            event=event, count=form.cleaned_data["count"], by=request.user
        )
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("Deck check: %(names)s")
            % {"names": ", ".join(registration_name(r) for r in picked)},
        )
    return redirect("staff:decklists", event.slug)
