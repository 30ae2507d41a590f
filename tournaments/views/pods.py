"""Staff actions on multiplayer pods: the intentional-draw note that starts the top
cut's 150-minute limit (MP-TIME-1) and the pod structure (P-RT-6, MP-SE-1).

A pod's slip is every table's slip (``staff.match_result``, the form chosen in
``result_forms.slip_form``); corrections and dispute decisions of pods go through the
judges' desk (``desk.result_correct``, ``desk.dispute_resolve``) like every table's.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from .. import services
from ..errors import MatchslipError
from ..models import Event
from ..permissions import event_operator_required, event_staff_required
from ..services.pod_events import pod_cut_set
from .common import event_match_or_404


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
                    "value": gettext("top %(cut)s") % {"cut": cut}
                    if cut
                    else gettext("no top cut"),
                },
            )
    return redirect("staff:dashboard", event.slug)
