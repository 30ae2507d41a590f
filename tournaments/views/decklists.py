"""Deck lists from players: the player's own list on their private
link, the judges' reading of any list, reopening one list, the deadline and the
organiser's settings, and the lists published after the event.

Each view calls one service (``services.player_decklists``) and shows a refusal beside
the form (the player's list: every problem, each naming its line or the count, with the
text kept as typed) or as a message. Every form posts to a real address and works
without JavaScript. Capabilities: every staff role reads lists, reopens one and sets the
deadline (``decklists``); only organisers choose whether lists are collected and
published (``manage``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..errors import DecklistRefused, MatchslipError
from ..models import Event, Registration
from ..permissions import event_staff_required
from ..selectors.names import registration_name, with_shown_names
from ..services import player_decklists as decks
from .common import public_event_or_404
from .player import _private, _registration

REQUIRED_CHOICES = (
    ("default", _("As the ruleset says")),
    ("yes", _("Yes: players hand in a list")),
    ("no", _("No")),
)
_REQUIRED = {"default": None, "yes": True, "no": False}


class PlayerDecklistForm(forms.Form):
    text = forms.CharField(
        label=_("Your deck list"),
        required=False,
        max_length=decks.MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the game's own example: "4 Lightning Bolt" at a Magic event
        self.fields["text"].help_text = decks.decklist_help(event)


class DecklistDeadlineForm(forms.Form):
    deadline = forms.DateTimeField(
        label=_("Players submit and edit their lists until"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Empty: until round 1 starts."),
    )


class DecklistSettingsForm(forms.Form):
    required = forms.ChoiceField(
        label=_("Players hand in a deck list"), choices=REQUIRED_CHOICES, widget=forms.RadioSelect
    )
    public = forms.BooleanField(
        label=_("Publish the lists once the event is finished"), required=False
    )


def settings_forms(event: Event) -> dict[str, Any]:
    """The deadline and settings forms of the staff Deck lists page, with the event's
    values, and what the ruleset would say by itself."""
    required = {None: "default", True: "yes", False: "no"}[event.decklists_required]
    deadline = timezone.localtime(event.decklist_deadline) if event.decklist_deadline else None
    return {
        "deadline_form": DecklistDeadlineForm(initial={"deadline": deadline}),
        "settings_form": DecklistSettingsForm(
            initial={"required": required, "public": event.decklists_public}
        ),
        "published": decks.decklists_published(event),
    }


# --- the player's own list ----------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def player_decklist(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player's deck list on their private link: submit or edit it while the window
    is open (``decklist_window``), read it once locked. A refused list is shown again as
    typed, with every problem (422); an accepted one redirects back with a notice."""
    reg = _registration(slug, token)
    if not reg.event.collects_decklists:
        raise Http404("this event collects no deck lists")
    form = PlayerDecklistForm(initial={"text": reg.decklist}, event=reg.event)
    problems: tuple[str, ...] = ()
    if request.method == "POST":
        form = PlayerDecklistForm(request.POST, event=reg.event)
        text = str(request.POST.get("text", ""))
        try:
            decks.decklist_submit(registration=reg, text=text)
        except DecklistRefused as e:
            problems = e.problems
        except MatchslipError as e:
            problems = (str(e),)
        else:
            messages.success(request, gettext("Your deck list is in. Thank you!"))
            return _private(redirect("public:player_decklist", slug, token))
        reg.refresh_from_db()
    context = {
        "event": reg.event,
        "reg": reg,
        "form": form,
        "problems": problems,
        "window": decks.decklist_window(reg),
        "reading": decks.decklist_reading(reg.event, reg.decklist) if reg.decklist else None,
    }
    status = 422 if problems else 200
    return _private(render(request, "tournaments/public/decklist.html", context, status=status))


# --- staff --------------------------------------------------------------------------


def _reg(event: Event, registration_id: int) -> Registration:
    return get_object_or_404(
        with_shown_names(Registration.objects.all(), event.pk), pk=registration_id, event=event
    )


@require_safe
@event_staff_required("decklists")
def decklist_read(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """A judge reads one player's list (every staff role): as submitted, counted per
    section, with what the deck rules refuse in a list staff typed in; reopen or lock it."""
    reg = _reg(event, registration_id)
    context = {
        "event": event,
        "reg": reg,
        "reading": decks.decklist_reading(event, reg.decklist),
        "window": decks.decklist_window(reg),
    }
    return render(request, "tournaments/staff/decklist.html", context)


@require_POST
@event_staff_required("decklists")
def decklist_reopen(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Reopen one player's list after the deadline (``reopen=1``) or lock it again."""
    reg = _reg(event, registration_id)
    reopen = request.POST.get("reopen") == "1"
    try:
        decks.decklist_reopen(registration=reg, by=request.user, reopen=reopen)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        notice = (
            gettext("%(name)s may submit their list once more.")
            if reopen
            else gettext("The list of %(name)s is locked.")
        )
        messages.success(request, notice % {"name": registration_name(reg)})
    if request.POST.get("next") == "decklists":
        return redirect("staff:decklists", event.slug)
    return redirect("staff:decklist_read", event.slug, reg.pk)


@require_POST
@event_staff_required("decklists")
def decklist_deadline(request: HttpRequest, event: Event) -> HttpResponse:
    """Set or clear the deadline for players' lists (every staff role)."""
    form = DecklistDeadlineForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Give the deadline as a date and a time."))
        return redirect("staff:decklists", event.slug)
    deadline: dt.datetime | None = form.cleaned_data["deadline"]
    decks.decklist_deadline_set(event=event, by=request.user, deadline=deadline)
    messages.success(request, gettext("Deadline saved."))
    return redirect("staff:decklists", event.slug)


@require_POST
@event_staff_required("manage")
def decklist_settings(request: HttpRequest, event: Event) -> HttpResponse:
    """The organiser's choices: lists collected or not (or the ruleset's default), and
    published once the event is finished."""
    form = DecklistSettingsForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Choose whether players hand in a deck list."))
        return redirect("staff:decklists", event.slug)
    decks.decklist_settings_update(
        event=event,
        by=request.user,
        required=_REQUIRED[form.cleaned_data["required"]],
        public=form.cleaned_data["public"],
    )
    messages.success(request, gettext("Settings saved."))
    return redirect("staff:decklists", event.slug)


# --- published lists ------------------------------------------------------------------


@require_safe
def decklists_public(request: HttpRequest, slug: str) -> HttpResponse:
    """The published lists of a finished event, one link per player (404 while they are
    not published)."""
    event = public_event_or_404(request, slug)
    if not decks.decklists_published(event):
        raise Http404("deck lists are not published")
    context = {"event": event, "players": decks.decklists_for_public(event)}
    return render(request, "tournaments/public/decklists.html", context)


@require_safe
def decklist_public(request: HttpRequest, slug: str, registration_id: int) -> HttpResponse:
    """One player's published list (404 while the lists are not published, or for a
    player without one)."""
    event = public_event_or_404(request, slug)
    if not decks.decklists_published(event):
        raise Http404("deck lists are not published")
    reg = _reg(event, registration_id)
    if not reg.decklist:
        raise Http404("no list")
    reading = decks.decklist_reading(event, reg.decklist)
    context = {"event": event, "reg": reg, "reading": reading, "public": True}
    return render(request, "tournaments/public/decklist_published.html", context)
