"""Staff actions on multiplayer pods: the pod slip (MP-PTS-1) and the intentional-draw
note that starts the top cut's 150-minute limit (MP-TIME-1).

The pod slip behaves like the head-to-head slip (``staff.match_result``): HTMX gets the
pod's row back with the round's progress out of band; a stale form is answered 409 with
the current result; without JavaScript the view redirects to the round.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ..errors import MatchslipError, RoundStateError
from ..models import Event, Match, Registration, Round, RoundStatus
from ..permissions import event_operator_required, event_staff_required
from ..selectors import match_for_staff
from ..services.pod_events import pod_cut_set
from ..services.pod_reports import pod_dispute_resolve as pod_dispute_resolve_service
from ..services.pod_results import pod_intentional_draw_note, pod_result_correct, pod_slip_enter
from .common import event_match_or_404
from .staff import slip_attempt


class PodSlipForm(forms.Form):
    """The pressed button (a registration id, or ``draw``), conceded players, version."""

    winner = forms.CharField(max_length=20)
    conceded = forms.TypedMultipleChoiceField(coerce=int, required=False, choices=())
    version = forms.IntegerField(min_value=0)
    reason = forms.CharField(max_length=500, required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ids = [str(s.registration_id) for s in match.seats.all()]
        self.fields["conceded"].choices = [(i, i) for i in ids]
        self.seat_ids = ids

    def clean_winner(self) -> str:
        value = self.cleaned_data["winner"]
        if value != "draw" and value not in self.seat_ids:
            raise forms.ValidationError("Choose a winner of this pod, or draw.")
        return value

    def result(self) -> dict[str, Any]:
        """The pod services' keyword arguments: ``winner`` (a Registration, or None for
        a draw), ``conceded`` (only a draw uses them, MP-PTS-1) and ``version``."""
        choice = self.cleaned_data["winner"]
        winner = None if choice == "draw" else Registration.objects.get(pk=int(choice))
        conceded = [] if winner else self.cleaned_data["conceded"]
        return {"winner": winner, "conceded": conceded, "version": self.cleaned_data["version"]}


def _enter(match: Match, form: PodSlipForm, by: Any) -> None:
    """Turn the pressed button into a ``pod_slip_enter`` call; a win ignores the
    conceded boxes (they only decide who shares a draw). Raises MatchslipError."""
    if match.round.status == RoundStatus.COMPLETE:
        raise RoundStateError(
            gettext("Round %(number)s is complete: its pods are final.")
            % {"number": match.round.number}
        )
    pod_slip_enter(match=match, by=by, **form.result())


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
    if not request.htmx:
        if error:
            messages.error(
                request,
                gettext("Table %(table)s: %(error)s") % {"table": match.table, "error": error},
            )
        url = reverse("staff:round", args=[event.slug, match.round_id])
        return redirect(f"{url}#match-{match.pk}")
    rnd = Round.objects.get(pk=match.round_id)
    view, missing = match_for_staff(match.pk)
    context = {
        "event": event,
        "m": view,
        "error": error,
        "missing": missing,
        "round": rnd,
        "status_label": rnd.get_status_display(),
        "slips_open": rnd.status == RoundStatus.STARTED,
    }
    return render(request, "tournaments/staff/pod_result.html", context, status=status)


@require_POST
@event_operator_required
def pod_intentional_draw(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Note an intentional draw in a top-cut pod: the round clock shows the 150-minute
    limit from the round start (MP-TIME-1)."""
    match = event_match_or_404(event, match_id)
    try:
        pod_intentional_draw_note(match=match, by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("Table %(table)s: the 150-minute limit now applies.") % {"table": match.table},
        )
    return redirect("staff:round", event.slug, match.round_id)


@require_POST
@event_staff_required("correct")
def pod_correct(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """A judge corrects a recorded pod from the corrections page, with a reason
    (P-POST-4); later Swiss pods seating a moved player are marked (P-SW-9)."""
    match = event_match_or_404(event, match_id)
    form = PodSlipForm(request.POST, match=match)
    if not form.is_valid():
        messages.error(
            request,
            gettext("Table %(table)s: choose a result and give a reason.") % {"table": match.table},
        )
    else:
        try:
            pod_result_correct(
                match=match, by=request.user, reason=form.cleaned_data["reason"], **form.result()
            )
        except MatchslipError as e:
            messages.error(
                request, gettext("Table %(table)s: %(error)s") % {"table": match.table, "error": e}
            )
        else:
            messages.success(
                request,
                gettext("Round %(number)s table %(table)s corrected.")
                % {"number": match.round.number, "table": match.table},
            )
    url = reverse("staff:corrections", args=[event.slug])
    return redirect(f"{url}?round={match.round_id}#match-{match.pk}")


@require_POST
@event_staff_required("resolve")
def pod_dispute_resolve(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Staff decide a disputed pod from the disputes queue, with a reason; the entry
    overrides the players' reports (MP-PTS-1, ``pod_reports``)."""
    match = event_match_or_404(event, match_id)
    form = PodSlipForm(request.POST, match=match)
    if not form.is_valid():
        messages.error(
            request,
            gettext("Table %(table)s: choose a result and give a reason.") % {"table": match.table},
        )
        return redirect("staff:disputes", event.slug)
    try:
        pod_dispute_resolve_service(
            match=match, by=request.user, reason=form.cleaned_data["reason"], **form.result()
        )
    except MatchslipError as e:
        messages.error(
            request, gettext("Table %(table)s: %(error)s") % {"table": match.table, "error": e}
        )
    else:
        messages.success(
            request, gettext("Table %(table)s: pod result recorded.") % {"table": match.table}
        )
    return redirect("staff:disputes", event.slug)


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
