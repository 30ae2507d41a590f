"""The "time called" helper of a ``bo3-wins-against`` match (W-TIME-1, W-TIME-2): staff
say where the match stands, the page says what happens next, then they record the
outcome with the game-score slip (``staff:match_result``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from rulesets import get_ruleset
from tournaments.models import Event, Match
from tournaments.permissions import event_operator_required
from tournaments.selectors import match_for_staff
from tournaments.views.common import HtmxRequest, wants_fragment

from ..engine.wins_against import MatchState, NextStep, Resolution, TimeCallError, time_called

TEMPLATE = "standings/staff/time_called.html"


class TimeCalledForm(forms.Form):
    """Where the match stands: the game in progress (or the next one, between games)
    and the games each player has won."""

    game = forms.TypedChoiceField(choices=[(n, f"Game {n}") for n in (1, 2, 3)], coerce=int)
    wins_1 = forms.IntegerField(min_value=0, max_value=2, initial=0)
    wins_2 = forms.IntegerField(min_value=0, max_value=2, initial=0)
    between = forms.BooleanField(required=False, label=_("Between games (none in progress)"))


def named(text: str, p1: str, p2: str) -> str:
    """The engine's "player A/B" in the players' names."""
    return text.replace("player A", p1).replace("player B", p2)


def _resolve(form: TimeCalledForm) -> Resolution | None:
    if not form.is_valid():
        return None
    data = form.cleaned_data
    state = MatchState(data["game"], (data["wins_1"], data["wins_2"]), data["between"])
    try:
        return time_called(state)
    except TimeCallError as e:
        form.add_error(None, f"{e}.")
        return None


def _decided_score(resolution: Resolution | None, form: TimeCalledForm) -> str:
    """The game score to record when time decides the match now (e.g. "1-0-0")."""
    if resolution is None or resolution.step != NextStep.MATCH_OVER:
        return ""
    return f"{form.cleaned_data['wins_1']}-{form.cleaned_data['wins_2']}-0"


@require_safe
@event_operator_required
def time_called_view(request: HtmxRequest, event: Event, match_id: int) -> HttpResponse:
    """Resolve time called (W-TIME-1): the match state in, what happens next out, with
    the sudden-death procedure (W-TIME-2); then the slip to record the outcome. HTMX
    gets only the answer."""
    if not get_ruleset(event.ruleset).time_called:
        raise Http404("Time called is resolved this way only in the best-of-3 wins-against rules.")
    match = get_object_or_404(Match, pk=match_id, round__event=event)
    view, _ = match_for_staff(match.pk)
    form = TimeCalledForm(request.GET or None)
    resolution = _resolve(form)
    p2 = view.p2.name if view.p2 else ""
    context: dict[str, Any] = {
        "event": event,
        "m": view,
        "round_id": match.round_id,
        "form": form,
        "resolution": resolution,
        "text": named(resolution.text, view.p1.name, p2) if resolution else "",
        "decided_score": _decided_score(resolution, form),
    }
    return render(request, f"{TEMPLATE}#answer" if wants_fragment(request) else TEMPLATE, context)
