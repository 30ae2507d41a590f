"""Staff actions on multiplayer pods: the pod slip (MP-PTS-1), the intentional-draw note
that starts the top cut's 150-minute limit (MP-TIME-1) and the pod structure.

The pod slip is the head-to-head slip's (``staff.match_result``) with a pod's buttons:
the same service (``services.slip_enter``) and the same answer (``staff.slip_response``):
HTMX gets the table's row back with the round's progress out of band; a stale form is
answered 409 with the current result; without JavaScript the view redirects to the
round. Corrections and dispute decisions of pods go through the judges' desk
(``desk.result_correct``, ``desk.dispute_resolve``) like every table's.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from .. import services
from ..errors import MatchslipError, RoundStateError
from ..models import Event, Match, RoundStatus
from ..permissions import event_operator_required, event_staff_required
from ..services.pod_events import pod_cut_set
from .common import event_match_or_404
from .result_forms import PodSlipForm
from .staff import slip_attempt, slip_response


def _enter(match: Match, form: PodSlipForm, by: Any) -> None:
    """Turn the pressed button into a ``slip_enter`` call; a win ignores the
    conceded boxes (they only decide who shares a draw). Raises MatchslipError."""
    if match.round.status == RoundStatus.COMPLETE:
        raise RoundStateError(
            gettext("Round %(number)s is complete: its pods are final.")
            % {"number": match.round.number}
        )
    services.slip_enter(
        match=match, result=form.result(), version=form.cleaned_data["version"], by=by
    )


@require_POST
@event_operator_required
def pod_result(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Enter a pod slip from one click: a winner button, or "Draw" with the conceded
    players ticked (MP-PTS-1). Same conflict and double-submit rules as a match slip."""
    match = event_match_or_404(event, match_id)
    form = PodSlipForm(request.POST, match=match)
    if not form.is_valid():
        error, status = "Choose a winner or Draw.", 422
    else:
        error, status = slip_attempt(lambda: _enter(match, form, request.user))
    return slip_response(request, event, match, error, status)


@require_POST
@event_operator_required
def pod_intentional_draw(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Note an intentional draw in a top-cut pod: the round clock shows the 150-minute
    limit from the round start (MP-TIME-1)."""
    match = event_match_or_404(event, match_id)
    try:
        services.pod_intentional_draw_note(match=match, by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("Table %(table)s: the 150-minute limit now applies.") % {"table": match.table},
        )
    return redirect("staff:round", event.slug, match.round_id)


class PodStructureForm(forms.Form):
    swiss_rounds = forms.IntegerField(min_value=1, max_value=20)
    cut = forms.IntegerField(min_value=0)


@require_POST
@event_staff_required("manage")
def pod_structure(request: HttpRequest, event: Event) -> HttpResponse:
    """The organiser announces the Swiss rounds and the pod top cut (P-RT-6, MP-SE-1)."""
    form = PodStructureForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Give the Swiss rounds (1–20) and a top cut size."))
    else:
        try:
            pod_cut_set(
                event=event,
                cut=form.cleaned_data["cut"],
                swiss_rounds=form.cleaned_data["swiss_rounds"],
                by=request.user,
            )
        except MatchslipError as e:
            messages.error(request, str(e))
        else:
            cut = form.cleaned_data["cut"]
            messages.success(
                request,
                gettext("%(swiss_rounds)s Swiss rounds, %(value)s.")
                % {
                    "swiss_rounds": event.swiss_rounds,
                    "value": f"top {cut}" if cut else "no top cut",
                },
            )
    return redirect("staff:dashboard", event.slug)
