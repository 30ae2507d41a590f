"""Fixing what was entered: a player's page for the desk (edit name, player id and birth
year; drop; disqualify behind a confirmation; their private link) and the event's
details (name, date, venue, announced Swiss rounds).

Each view parses input, calls one service and shows a ``MatchslipError`` as a form error
(docs/style.md §7); forms post to real URLs and redirect back (post/redirect/get).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from .. import services
from ..errors import MatchslipError
from ..forms import DisqualifyForm, EventEditForm, PlayerEditForm, StaffDropForm
from ..models import Event, PenaltyNote, Registration
from ..permissions import event_operator_required, event_staff_required
from ..selectors.changes import changes_for_player
from ..selectors.floor import repeated_for_player
from ..selectors.names import registration_name


def _registration(event: Event, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("player", "division"), pk=registration_id, event=event
    )


def _ages(event: Event) -> bool:
    return event.rules.features.age_divisions


# The player's page holds the drop and the disqualify forms, each with a ``reason``: their
# fields get ids of their own (the posted names stay), so each label names its own field.
DROP_IDS = "drop_%s"
DISQUALIFY_IDS = "disqualify_%s"


def _player_page(
    request: HttpRequest,
    event: Event,
    reg: Registration,
    edit: PlayerEditForm | None = None,
    disqualify: DisqualifyForm | None = None,
) -> HttpResponse:
    context: dict[str, Any] = {
        "event": event,
        "reg": reg,
        "edit_form": edit or PlayerEditForm.for_player(reg.player, ages=_ages(event)),
        "disqualify_form": disqualify or DisqualifyForm(auto_id=DISQUALIFY_IDS),
        "drop_form": StaffDropForm(auto_id=DROP_IDS),
        # the player's registration and their matches' results, in words
        "history": changes_for_player(event, reg),
        # the player's penalties, an infraction noted twice flagged
        "penalties": PenaltyNote.objects.filter(event=event, registration=reg).select_related("by"),
        "repeated": repeated_for_player(event, reg.pk),
    }
    return render(request, "tournaments/staff/player.html", context)


@require_http_methods(["GET", "POST"])
@event_operator_required
def player_detail(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """One player for the desk: fix their name, player id and birth year
    (``player_update``; a new birth year moves them to its age division before round 1,
    P-AGE-1), drop them, disqualify them behind a confirmation, and their changes from
    the audit trail."""
    reg = _registration(event, registration_id)
    if request.method != "POST":
        return _player_page(request, event, reg)
    form = PlayerEditForm(request.POST, ages=_ages(event))
    if form.is_valid():
        try:
            reg = services.player_update(registration=reg, by=request.user, **form.service_kwargs())
        except MatchslipError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, gettext("Saved %(name)s.") % {"name": registration_name(reg)})
            return redirect("staff:player", event.slug, reg.pk)
    return _player_page(request, event, reg, edit=form)


@require_POST
@event_staff_required("correct")
def player_disqualify(
    request: HttpRequest, event: Event, registration_id: int | None = None
) -> HttpResponse:
    """Disqualify a player: a reason and the ticked confirmation (``DisqualifyForm``,
    ``registration_disqualify``; P-SE-3 in a bracket). Organisers and judges. The player
    is in the URL (their page) or the form's ``registration`` (the penalties page); done,
    it goes back where it came from. A post without the reason or the confirmation, or
    that the service refuses, shows the player's page with the form and its errors, and
    changes nothing."""
    raw = registration_id or request.POST.get("registration", "")
    if not str(raw).isdigit():
        messages.error(request, gettext("Choose the player to disqualify."))
        return redirect("staff:penalties", event.slug)
    reg = _registration(event, int(raw))
    form = DisqualifyForm(request.POST, auto_id=DISQUALIFY_IDS)
    if form.is_valid():
        try:
            services.registration_disqualify(
                registration=reg, by=request.user, reason=form.cleaned_data["reason"]
            )
        except MatchslipError as e:
            form.add_error(None, str(e))
        else:
            messages.success(
                request, gettext("%(name)s is disqualified.") % {"name": registration_name(reg)}
            )
            if registration_id is None:
                return redirect("staff:penalties", event.slug)
            return redirect("staff:player", event.slug, reg.pk)
    return _player_page(request, event, reg, disqualify=form)


def _event_form(event: Event, data: Any = None) -> EventEditForm:
    rounds = not services.event_rounds_editable(event)
    floor = services.event_rounds_floor(event) if rounds else 0
    if data is None:
        return EventEditForm.for_event(event, rounds=rounds, floor=floor)
    return EventEditForm(data, rounds=rounds, floor=floor)


@require_http_methods(["GET", "POST"])
@event_staff_required("manage")
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    """Edit the event's name, date, venue and announced Swiss rounds while they can
    still change (``event_update``): not below a round already paired, not once the
    top cut is paired or the rounds are set per division. Organisers only."""
    form = _event_form(event, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            ev = services.event_update(event=event, by=request.user, **form.service_kwargs())
        except MatchslipError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, gettext("Saved %(name)s.") % {"name": ev.name})
            return redirect("staff:event_edit", ev.slug)
    context = {
        "event": event,
        "form": form,
        "rounds_locked": services.event_rounds_editable(event),
    }
    return render(request, "tournaments/staff/event_edit.html", context)
