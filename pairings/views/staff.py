"""Staff pairing pages: the event dashboard (each pairing group's next step), queueing the
pairing of a group's next round, and polling a pairing run (organisers and scorekeepers, see
``tournaments.permissions``). URL names are in the ``staff`` namespace.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tournaments.errors import MatchslipError
from tournaments.forms import CheckinCloseForm, PairForm
from tournaments.groups import age_order, group_label
from tournaments.models import (
    BackgroundRun,
    BackgroundRunStatus,
    Event,
    Registration,
    RoundStatus,
)
from tournaments.permissions import event_operator_required, event_staff_required
from tournaments.planning import plan_for_event
from tournaments.procedures import plans_ages_at_checkin
from tournaments.selectors import divisions_for_event, rounds_for_staff
from tournaments.services.checkin import checkin_absentees
from tournaments.services.tables import rounds_to_start
from tournaments.stored_text import shown
from tournaments.views.common import HtmxRequest, wants_fragment

from ..checkin_services import AgePlan, age_plan, proposed_rounds
from ..checkin_services import checkin_close as checkin_close_service
from ..next_steps import what_next
from ..procedures import event_group_keys
from ..procedures.flights import division_flight_options, flights_assign
from ..services import cut_decklists, group_states, pairing_request, pairing_runs_for_staff

RUN_TEMPLATE = "pairings/staff/run.html"


@require_safe
@event_staff_required("operate", other_staff_to="staff:disputes")
def dashboard(request: HttpRequest, event: Event) -> HttpResponse:
    """The event at a glance: divisions with recommended structure, each pairing group's current
    round and next step (pair / review / publish / start / enter results). Judges, who
    do not operate the event, are sent to their desk (the disputes queue) instead."""
    runs = pairing_runs_for_staff(event)
    groups = [(state, runs.get(state.key)) for state in group_states(event)]
    context = {
        "event": event,
        "divisions": divisions_for_event(event),
        "groups": groups,
        "rounds": rounds_for_staff(event),
        # each group's first table, and the rounds "Start all" starts
        "first_tables": dict(event.groups.values_list("key", "first_table")),
        "to_start": rounds_to_start(event),
        # P-POST-5: deck lists of the players about to make the top cut.
        "cut_decklists": [
            (state.label, rows) for state, _ in groups if (rows := cut_decklists(event, state.key))
        ],
        **_checkin_context(event),
    }
    # what the event needs now, and when the day is expected to end
    # the "check the players in" prompt stays until check-in is closed
    checkin_prompt = bool(context["checkin_open"]) and event.checkin_closed_at is None
    context["next_step"] = what_next(
        event, [state for state, _ in groups], checkin_open=checkin_prompt
    )
    context["schedule"] = plan_for_event(event)  # ("plan" is the check-in's age plan)
    return render(request, "pairings/staff/dashboard.html", context)


def _checkin_context(event: Event, form: CheckinCloseForm | None = None) -> dict[str, object]:
    """The age plan closing check-in would apply, while round 1 is not paired yet: with
    the rounds the organiser announced, when there are (``proposed_rounds``; the form's
    Swiss rounds field starts from them), else the round table's."""
    if event.rounds.exists() or not plans_ages_at_checkin(event):
        return {"checkin_open": False}
    rounds = proposed_rounds(event)
    try:
        plan, error = age_plan(event, swiss_rounds=rounds), ""
    except MatchslipError as e:
        plan, error = None, str(e)
    flights = [(d, division_flight_options(d)) for d in event.divisions.order_by(age_order())]
    ticks = Registration.objects.filter(
        event=event, disqualified=False, dropped_after_round__isnull=True
    ).values_list("checked_in_at", flat=True)
    ticked = [at is not None for at in ticks]
    return {
        "checkin_open": True,
        "checkin_present": sum(ticked),
        "checkin_total": len(ticked),
        "flight_choices": [(d, opts) for d, opts in flights if opts or d.flights],
        "plan": plan,
        "plan_error": error,
        "checkin_rounds": rounds,  # the announced rounds the plan proposes, or None
        "checkin_form": form
        or CheckinCloseForm(cuts=event.rules.allowed_cuts(), initial={"swiss_rounds": rounds}),
    }


@require_POST
@event_operator_required
def flights(request: HttpRequest, event: Event) -> HttpResponse:
    """Split a division into flights before round 1 (P-FL-1 … P-FL-3); a refusal names
    every broken rule."""
    division = event.divisions.filter(code=request.POST.get("division", "")).first()
    count = request.POST.get("flights", "")
    if division is None or not count.isdigit():
        messages.error(request, gettext("Choose a division and a number of flights."))
        return redirect("staff:dashboard", event.slug)
    try:
        division = flights_assign(division=division, flights=int(count), by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("%(code)s: %(flights)s flights, %(swiss_rounds)s Swiss rounds each.")
            % {
                "code": division.get_code_display(),
                "flights": division.flights,
                "swiss_rounds": division.swiss_rounds,
            },
        )
    return redirect("staff:dashboard", event.slug)


@require_http_methods(["GET", "HEAD", "POST"])
@event_operator_required
def checkin_close(request: HttpRequest, event: Event) -> HttpResponse:
    """Close check-in: fix the age mode, pairing groups, rounds and cuts (P-AGE-2 … P-AGE-6).
    A GET (the confirmation page reloaded, its address opened) goes back to the
    dashboard's check-in box, where closing starts again: nothing is closed by a GET.

    When players are not checked in (or dropped before round 1), the
    answer is a page listing them, whose button posts here again with their ids
    (``absent``) and ``confirm_absent``; closing then removes exactly them (the service
    refuses when the list changed meanwhile)."""
    if request.method != "POST":
        return redirect(reverse("staff:dashboard", args=[event.slug]) + "#checkin")
    form = CheckinCloseForm(request.POST, cuts=event.rules.allowed_cuts())
    confirmed = request.POST.get("confirm_absent") == "1"
    absentees = checkin_absentees(event) if form.is_valid() else []
    if absentees and not confirmed:
        context = {"event": event, "absentees": absentees, "form": form}
        return render(request, "pairings/staff/checkin_close.html", context)
    absent = [int(x) for x in request.POST.getlist("absent") if x.isdigit()]
    if form.is_valid():
        try:
            plan = checkin_close_service(
                event=event,
                by=request.user,
                absent=absent if confirmed else None,
                **form.cleaned_data,
            )
        except MatchslipError as e:
            messages.error(request, str(e))
        else:
            messages.success(
                request,
                gettext("Check-in closed. %(closed)s") % {"closed": _closed_text(event, plan)},
            )
    else:
        messages.error(request, gettext("Choose rounds from 1 to 20 and a top cut from the list."))
    return redirect("staff:dashboard", event.slug)


def _closed_text(event: Event, plan: AgePlan) -> str:
    """What closing check-in fixed: the age mode and why for a ruleset with age
    divisions, else the Swiss rounds and the cut."""
    if event.rules.features.age_divisions:
        return shown(plan.mode.reason)
    rounds = max(p.rounds for p in plan.groups)
    cut = max((c for p in plan.groups for c in p.cuts.values()), default=0)
    text = ngettext("%(rounds)s Swiss round", "%(rounds)s Swiss rounds", rounds) % {
        "rounds": rounds
    }
    tail = gettext("top %(cut)s.") % {"cut": cut} if cut else gettext("no top cut.")
    return f"{text}, {tail}"


@require_POST
@event_operator_required
def pair(request: HttpRequest, event: Event) -> HttpResponse:
    """Queue the pairing of a pairing group's next round: Swiss, then the top cut, then the following
    elimination rounds. Lands on the review page when pairing already finished. A second
    request (a double click, two staff) shows the run already going; one for a group with
    nothing to pair now (its round already paired) says why in a message, and no run is
    recorded, so no failure stays on the group."""
    form = PairForm(request.POST)
    key = form.cleaned_data["group"] if form.is_valid() else ""
    back = reverse("staff:dashboard", args=[event.slug]) + f"#group-{key}"
    if key not in event_group_keys(event) and not event.rounds.filter(group__key=key).exists():
        messages.error(request, gettext("Choose a pairing group of this event."))
        return redirect("staff:dashboard", event.slug)
    try:
        run, created = pairing_request(event=event, group=key, by=request.user)
    except MatchslipError as e:
        messages.warning(request, str(e))
        return redirect(back)
    if not created:
        messages.info(request, _under_way(run))
        return redirect(back)
    paired = list(event.rounds.filter(status=RoundStatus.PAIRED))
    if run.status == BackgroundRunStatus.DONE and len(paired) == 1:
        return redirect("staff:round", event.slug, paired[0].pk)
    return redirect(back)  # a failure shows on the group


def _under_way(run: BackgroundRun) -> str:
    """The message for a run already going, e.g. "Pairing Masters already under way
    (started by ann at 10:42)." (local time), followed by the run's note when it has one
    (e.g. sent again by this "Try again" after no worker answered)."""
    who = run.requested_by.get_username() if run.requested_by else gettext("the system")
    at = timezone.localtime(run.created_at)
    text = gettext("Pairing %(group)s already under way (started by %(who)s at %(at)s).") % {
        "group": group_label(run.event.groups.get(key=run.group)),
        "who": who,
        "at": f"{at:%H:%M}",
    }
    return f"{text} {shown(run.note)}" if run.note else text


@require_safe
@event_operator_required
def run_status(request: HtmxRequest, event: Event, run_id: int) -> HttpResponse:
    """A pairing run's progress; HTMX polls the ``run`` partial every second until the run
    is done or failed. The finished partial carries no trigger, so polling stops, and
    asks the page to reload so every panel shows the new round."""
    runs = BackgroundRun.objects.select_related("requested_by")
    run = get_object_or_404(runs, pk=run_id, event=event)
    context = {
        "event": event,
        "run": run,
        "paired": [
            (group_label(r.group), r)
            for r in event.rounds.filter(status=RoundStatus.PAIRED).select_related("group")
        ],
    }
    if not wants_fragment(request):
        return render(request, RUN_TEMPLATE, context)
    response = render(request, f"{RUN_TEMPLATE}#run", context)
    if run.status in (BackgroundRunStatus.DONE, BackgroundRunStatus.FAILED):
        response["HX-Refresh"] = "true"
    return response
