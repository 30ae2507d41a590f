"""Staff pairing pages: the event dashboard (each pod's next step), queueing the pairing
of a pod's next round, and polling a pairing run (organisers and scorekeepers, see
``tournaments.permissions``). URL names are in the ``staff`` namespace.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from tournaments.errors import MatchslipError
from tournaments.forms import CheckinCloseForm, PairForm
from tournaments.models import BackgroundRun, BackgroundRunStatus, Event, RoundStatus, Structure
from tournaments.multiplayer import uses_pods
from tournaments.permissions import event_operator_required, event_staff_required
from tournaments.selectors import divisions_for_event, rounds_for_staff

from ..checkin_services import age_plan
from ..checkin_services import checkin_close as checkin_close_service
from ..flight_services import division_flight_options, flights_assign
from ..pods import event_pods
from ..services import cut_decklists, pairing_request, pod_states

RUN_TEMPLATE = "pairings/staff/run.html"


def _pairing_runs(event: Event) -> dict[str, BackgroundRun]:
    """The latest pairing run per pod, when it is still going or failed. 1 query."""
    latest: dict[str, BackgroundRun] = {}
    for run in event.runs.filter(kind=BackgroundRun.Kind.PAIRING).order_by("-created_at")[:20]:
        latest.setdefault(run.pod, run)
    return {p: r for p, r in latest.items() if r.status != BackgroundRunStatus.DONE}


@require_GET
@event_staff_required("operate", other_staff_to="staff:disputes")
def dashboard(request: HttpRequest, event: Event) -> HttpResponse:
    """The event at a glance: divisions with recommended structure, each pod's current
    round and next step (pair / review / publish / start / enter results). Judges, who
    do not operate the event, are sent to their desk (the disputes queue) instead."""
    runs = _pairing_runs(event)
    pods = [(state, runs.get(state.pod)) for state in pod_states(event)]
    context = {
        "event": event,
        "divisions": divisions_for_event(event),
        "pods": pods,
        "rounds": rounds_for_staff(event),
        # P-POST-5: deck lists of the players about to make the top cut.
        "cut_decklists": [
            (state.label, rows) for state, _ in pods if (rows := cut_decklists(event, state.pod))
        ],
        **_checkin_context(event),
    }
    return render(request, "pairings/staff/dashboard.html", context)


def _checkin_context(event: Event, form: CheckinCloseForm | None = None) -> dict[str, object]:
    """The age plan closing check-in would apply, while round 1 is not paired yet."""
    if event.rounds.exists() or event.structure == Structure.SINGLE_ELIMINATION:
        return {"checkin_open": False}
    if uses_pods(event):  # no age divisions in pod events; P-RT-6 cuts are not powers of 2
        return {"checkin_open": False}
    try:
        plan, error = age_plan(event), ""
    except MatchslipError as e:
        plan, error = None, str(e)
    flights = [(d, division_flight_options(d)) for d in event.divisions.order_by("code")]
    return {
        "checkin_open": True,
        "flight_choices": [(d, opts) for d, opts in flights if opts or d.flights],
        "plan": plan,
        "plan_error": error,
        "checkin_form": form or CheckinCloseForm(),
    }


@require_POST
@event_operator_required
def flights(request: HttpRequest, event: Event) -> HttpResponse:
    """Split a division into flights before round 1 (P-FL-1 … P-FL-3); a refusal names
    every broken rule."""
    division = event.divisions.filter(code=request.POST.get("division", "")).first()
    count = request.POST.get("flights", "")
    if division is None or not count.isdigit():
        messages.error(request, "Choose a division and a number of flights.")
        return redirect("staff:dashboard", event.slug)
    try:
        division = flights_assign(division=division, flights=int(count), by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            f"{division.get_code_display()}: {division.flights} flights, "
            f"{division.swiss_rounds} Swiss rounds each (P-FL-2).",
        )
    return redirect("staff:dashboard", event.slug)


@require_POST
@event_operator_required
def checkin_close(request: HttpRequest, event: Event) -> HttpResponse:
    """Close check-in: fix the age mode, pods, rounds and cuts (P-AGE-2 … P-AGE-6)."""
    form = CheckinCloseForm(request.POST)
    if form.is_valid():
        try:
            plan = checkin_close_service(event=event, by=request.user, **form.cleaned_data)
        except MatchslipError as e:
            messages.error(request, str(e))
        else:
            messages.success(request, f"Check-in closed. {plan.mode.reason}")
    else:
        messages.error(request, "Choose rounds from 1 to 20 and a top cut from the list.")
    return redirect("staff:dashboard", event.slug)


@require_POST
@event_operator_required
def pair(request: HttpRequest, event: Event) -> HttpResponse:
    """Queue the pairing of a pod's next round: Swiss, then the top cut, then the following
    elimination rounds. Lands on the review page when pairing already finished."""
    form = PairForm(request.POST)
    pod = form.cleaned_data["pod"] if form.is_valid() else ""
    if pod not in event_pods(event) and not event.rounds.filter(pod=pod).exists():
        messages.error(request, "Choose a pairing group of this event.")
        return redirect("staff:dashboard", event.slug)
    run = pairing_request(event=event, pod=pod, by=request.user)  # a failure shows on the pod
    paired = list(event.rounds.filter(status=RoundStatus.PAIRED))
    if run.status == BackgroundRunStatus.DONE and len(paired) == 1:
        return redirect("staff:round", event.slug, paired[0].pk)
    return redirect(reverse("staff:dashboard", args=[event.slug]) + f"#pod-{pod}")


@require_GET
@event_operator_required
def run_status(request: HttpRequest, event: Event, run_id: int) -> HttpResponse:
    """A pairing run's progress; HTMX polls the ``run`` partial every second until the run
    is done or failed. The finished partial carries no trigger, so polling stops, and
    asks the page to reload so every panel shows the new round."""
    run = get_object_or_404(BackgroundRun, pk=run_id, event=event)
    context = {
        "event": event,
        "run": run,
        "paired": list(event.rounds.filter(status=RoundStatus.PAIRED)),
    }
    if not request.htmx:
        return render(request, RUN_TEMPLATE, context)
    response = render(request, f"{RUN_TEMPLATE}#run", context)
    if run.status in (BackgroundRunStatus.DONE, BackgroundRunStatus.FAILED):
        response["HX-Refresh"] = "true"
    return response
