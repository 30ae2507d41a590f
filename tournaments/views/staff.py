"""Staff pages: run an event (organisers and scorekeepers, see ``permissions``).

The judges' desk is in ``desk``, the audit trail in ``audit``, print pages in
``printing``, staff management and players' private links in ``team``.

Each view parses input, calls one service, and shows a ``MatchslipError`` as a form
error or message (docs/style.md §2, §7). Anything else is a bug and propagates. The
dashboard and pairing pages live in ``pairings.views.staff``, the standings page in
``standings.views.staff``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from pairings.engine.planner import default_round_seconds
from rulesets import DEFAULT, RULESETS, get_ruleset
from rulesets.tables import Recommendation

from .. import services
from ..actors import Actor
from ..errors import (
    AgreedResultOverride,
    DivisionUnconfirmed,
    MatchslipError,
    ReportOverride,
    ResultConflict,
    RoundStateError,
)
from ..forms import (
    DivisionForm,
    DropForm,
    EventForm,
    PlayerForm,
    PlayersSheetForm,
    StaffDropForm,
)
from ..groups import age_order
from ..models import (
    Event,
    EventListing,
    EventStatus,
    Match,
    Outcome,
    Registration,
    Round,
    RoundStatus,
)
from ..permissions import event_operator_required, login_required_htmx
from ..planning import PlanForm, plan_for_form
from ..search import table_matches
from ..seasons import current_season, cutoffs, event_season
from ..selectors import (
    ELIMINATION_PHASES,
    divisions_for_event,
    match_for_staff,
    registrations_for_staff,
    round_for_staff,
)
from ..selectors.featured import fixed_seats_for_staff
from ..selectors.names import registration_name
from ..selectors.reports import reports_for_round
from .clock import clock_context
from .common import HtmxRequest, event_match_or_404, int_param, wants_fragment
from .result_forms import PodSlipForm, SlipForm, refusal, result_args, slip_form

ROUND_TEMPLATE = "tournaments/staff/round.html"
#: The field of a slip posted again from the question "… Record … anyway?".
CONFIRM_OVERRIDE = "confirm_override"


@login_required_htmx
def event_create(request: HtmxRequest) -> HttpResponse:
    """Create an event with its announced structure (S-1, S-2); ``?players=N`` shows the
    recommendation of the chosen ruleset's table (P-RT-1 … P-RT-7) and pre-fills rounds
    and cut. The creator becomes organiser."""
    expected = int_param(request, "players")
    two_day = request.GET.get("two_day") == "1"  # P-RT-2: the two-day table
    ruleset_id = request.GET.get("ruleset", DEFAULT)
    rule = _recommendation(ruleset_id, expected, two_day=two_day)
    initial: dict[str, Any] = {"ruleset": ruleset_id} if ruleset_id in RULESETS else {}
    if rule is not None:
        initial |= {
            "structure": rule.structure,
            "swiss_rounds": rule.rounds,
            "top_cut_size": rule.cut,
        }
        if rule.day2_rounds:  # P-RT-2: two days from 227 players
            initial["day2_rounds"] = rule.day2_rounds
    form = EventForm(request.POST or None, initial=initial)
    season = str(form.data.get("season_year") or "") if form.is_bound else ""
    rules = RULESETS.get(str(form.data.get("ruleset") if form.is_bound else ruleset_id))
    # The planner: the GET inputs, or the same names posted with the event.
    plan_form = PlanForm(request.POST if request.method == "POST" else request.GET)
    plan = plan_for_form(plan_form, rules.id) if rules else None
    context = {
        "form": form,
        "plan_form": plan_form,
        "plan": plan,
        # "Use these" gives every planned division its structure
        "fill_divisions": ",".join(f"{d.division}:{d.rounds}:{d.cut}" for d in plan.divisions)
        if plan
        else "",
        "default_round_minutes": default_round_seconds(rules) // 60 if rules else "",
        "expected": expected,
        "recommendation": rule,
        "rules": rules,
        "round_table": rules.table(two_day=two_day) if rules else None,
        "two_day": two_day,
        "cutoffs": cutoffs(int(season) if season.isdigit() else current_season()),
        "ruleset_features": _ruleset_features(),
    }
    if request.method == "GET" and wants_fragment(request):
        return render(request, "tournaments/staff/event_create.html#recommendation", context)
    if request.method == "POST" and not plan_form.is_valid():
        form.add_error(None, _plan_error(plan_form))
    if request.method == "POST" and form.is_valid():
        try:
            event = services.event_create(
                by=request.user,
                checkin_step=True,  # round 1 waits for Close check-in
                listing=EventListing.DRAFT,  # staff only until published
                carry_staff=True,  # the organiser's last staff join it
                **form.service_kwargs(),
                **plan_form.event_fields(form.cleaned_data["ruleset"]),
            )
        except MatchslipError as e:
            form.add_error(None, str(e))
        else:
            messages.success(
                request, gettext("%(name)s created. Now add the players.") % {"name": event.name}
            )
            return redirect("staff:players", event.slug)
    return render(request, "tournaments/staff/event_create.html", context)


def _plan_error(plan_form: PlanForm) -> str:
    """The planner's refused inputs in one line: "Round length (minutes): …"."""
    return " ".join(
        f"{plan_form.fields[name].label}: {' '.join(str(e) for e in errors)}"
        for name, errors in plan_form.errors.items()
    )


def _ruleset_features() -> dict[str, dict[str, Any]]:
    """What the New-event page's script shows per ruleset: ``{id: {"features": [the
    Features that are on], "cuts": [allowed top-cut sizes]}}``."""
    return {
        r.id: {
            "features": [name for name, on in vars(r.features).items() if on],
            "cuts": list(r.allowed_cuts()),
        }
        for r in RULESETS.values()
    }


def _recommendation(
    ruleset: str, players: int | None, *, two_day: bool = False
) -> Recommendation | None:
    """The chosen ruleset's round-table recommendation for ``players`` (P-RT-1 …
    P-RT-7, S-3; the two-day table P-RT-2 when ``two_day``, its Day 2 rounds included),
    read at the table's first row for fewer players; None without a count, for an
    unknown ruleset or fewer than two players."""
    if not players or ruleset not in RULESETS:
        return None
    try:
        return get_ruleset(ruleset).recommend(players, two_day=two_day)
    except ValueError:
        return None


# --- players --------------------------------------------------------------------------


def _players_page(
    request: HttpRequest, event: Event, preview: Any = None, **forms: Any
) -> HttpResponse:
    ages = event.rules.features.age_divisions
    registrations = registrations_for_staff(event)
    context = {
        "event": event,
        "registrations": registrations,
        "fixed_seats": fixed_seats_for_staff(registrations),  # the event's, no query
        "add_form": forms.get("add_form") or PlayerForm(event=event),
        "csv_form": forms.get("csv_form") or PlayersSheetForm(ages=ages),
        "preview": preview,
        "divisions": divisions_for_event(event),
        "late_losses": services.late_losses(event),
        "divisions_open": not event.rounds.exists(),
        "division_choices": list(event.divisions.order_by(age_order())),
        "cutoffs": cutoffs(event_season(event)),
        # a division against the birth year, asked before it is saved
        "division_question": forms.get("division_question", ""),
        "move": forms.get("move"),
    }
    return render(request, "tournaments/staff/players.html", context)


@require_safe
@event_operator_required
def players(request: HttpRequest, event: Event) -> HttpResponse:
    """Registered players; forms to add one, paste many, and drop."""
    return _players_page(request, event)


@require_POST
@event_operator_required
def player_add(request: HttpRequest, event: Event) -> HttpResponse:
    """Register one player; a late player is told the losses they receive (P-LATE-1). A
    division chosen against the birth year is asked first: the page shows the question
    and a button posting the same form with ``confirm_division``."""
    form = PlayerForm(request.POST, event=event)
    if form.is_valid():
        try:
            reg = services.registration_add(
                event=event,
                by=request.user,
                confirm_division=request.POST.get("confirm_division") == "1",
                **form.cleaned_data,
            )
        except DivisionUnconfirmed as e:
            return _players_page(request, event, add_form=form, division_question=str(e))
        except MatchslipError as e:
            form.add_error(None, str(e))
        else:
            text = gettext("Added %(name)s.") % {"name": registration_name(reg)}
            if reg.late:
                losses = reg.seats.count()
                text += " " + ngettext(
                    "Late entry: a loss for the %(count)d round already started.",
                    "Late entry: a loss for each of the %(count)d rounds already started.",
                    losses,
                ) % {"count": losses}
            messages.success(request, text)
            return redirect("staff:players", event.slug)
    return _players_page(request, event, add_form=form)


@require_POST
@event_operator_required
def players_import(request: HttpRequest, event: Event) -> HttpResponse:
    """Players pasted or uploaded from a spreadsheet (CSV/TSV): first a preview with
    every problem marked, nothing saved (``players_sheet_preview``); the preview's
    "Add these players" posts the same text back with ``confirm`` and, when names are
    duplicated, the organiser's confirmation (``registrations_add_sheet``)."""
    form = PlayersSheetForm(
        request.POST,
        request.FILES,
        ages=event.rules.features.age_divisions,
        max_bytes=settings.UPLOAD_MAX_BYTES,
    )
    if not form.is_valid():
        return _players_page(request, event, csv_form=form)
    text = form.cleaned_data["text"]
    preview = services.players_sheet_preview(event=event, text=text)
    refused = ""
    if form.cleaned_data["confirm"]:
        try:
            regs = services.registrations_add_sheet(
                event=event,
                text=text,
                by=request.user,
                allow_duplicate_names=form.cleaned_data["allow_duplicates"],
            )
        except MatchslipError as e:
            refused = gettext("Nothing was added. %(reason)s") % {"reason": e}
        else:
            count = len(regs)
            messages.success(
                request,
                ngettext("Added %(count)d player.", "Added %(count)d players.", count)
                % {"count": count},
            )
            return redirect("staff:players", event.slug)
    # The preview carries the sheet's text (an upload's too) to the confirmation.
    ages = event.rules.features.age_divisions
    shown = PlayersSheetForm({"lines": text}, ages=ages)
    shown.is_valid()
    if refused:
        shown.add_error(None, refused)
    return _players_page(request, event, preview=preview, csv_form=shown)


@require_POST
@event_operator_required
def player_division(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Move a player to another age division, before round 1 only (P-AGE-1 override). A
    move against the player's birth year is asked first: the players page shows the
    question with a button confirming it."""
    reg = get_object_or_404(Registration, pk=registration_id, event=event)
    form = DivisionForm(request.POST, event=event)
    if not form.is_valid():
        messages.error(request, gettext("Choose a division of this event."))
        return redirect("staff:players", event.slug)
    division = form.cleaned_data["division"]
    try:
        reg = services.registration_set_division(
            registration=reg,
            division=division,
            by=request.user,
            confirm=form.cleaned_data["confirm"],
        )
    except DivisionUnconfirmed as e:
        move = {"reg": reg, "division": division, "question": str(e)}
        return _players_page(request, event, move=move)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("%(name)s is now %(code)s.")
            % {"name": registration_name(reg), "code": reg.division.get_code_display()},
        )
    return redirect("staff:players", event.slug)


@require_http_methods(["GET", "HEAD", "POST"])
@event_operator_required
def player_drop(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Drop a player (P-SW-6): never paired again, kept in the standings (P-TB-7), once
    staff ticked the confirmation (``StaffDropForm``), as a player's own drop needs. The
    Players page's Drop button opens the question (GET: "Drop Inés Ruiz?", a reason and
    the tick box); a post without the tick changes nothing and shows the question again,
    saying why. Done or refused by the service: back to the Players page with a message."""
    reg = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, event=event
    )
    if request.method != "POST":
        return _drop_question(request, event, reg, StaffDropForm())
    form = StaffDropForm(request.POST)
    if not form.is_valid():
        return _drop_question(request, event, reg, form)
    reason = form.cleaned_data["reason"]
    try:
        reg = services.registration_drop(registration=reg, by=request.user, reason=reason)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("%(name)s dropped after round %(dropped_after_round)s.")
            % {"name": registration_name(reg), "dropped_after_round": reg.dropped_after_round},
        )
    return redirect("staff:players", event.slug)


def _drop_question(
    request: HttpRequest, event: Event, reg: Registration, form: StaffDropForm
) -> HttpResponse:
    """The page asking "Drop <name>?"; a posted form without the tick says that nothing
    changed."""
    refused = ""
    if form.is_bound:
        refused = gettext("%(name)s was not dropped: tick “Yes, drop this player” to confirm.") % {
            "name": registration_name(reg)
        }
    context = {"event": event, "reg": reg, "form": form, "refused": refused}
    return render(request, "tournaments/staff/player_drop.html", context)


@require_POST
@event_operator_required
def player_reinstate(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Undo a drop before the player's next round is paired: they are paired
    again from it. Refused, with the reason, once that round is paired."""
    reg = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, event=event
    )
    form = DropForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        reg = services.registration_reinstate(registration=reg, by=request.user, reason=reason)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request, gettext("%(name)s is back in the event.") % {"name": registration_name(reg)}
        )
    return redirect("staff:players", event.slug)


# --- rounds and match slips -----------------------------------------------------------


def _slips_open(rnd: Round) -> bool:
    """Slips are entered while the round is in progress; once it is complete, results
    change only through a judge's correction, with a reason (P-POST-4)."""
    return rnd.status == RoundStatus.STARTED


@require_safe
@event_operator_required
def round_detail(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """One round: review the pairings (table, players with record, why) and publish,
    start, then a one-click slip per table. ``?missing=1`` lists only unreported tables;
    ``?q=`` only the table with that number or the tables of the players named
    (``tournaments.search.table_matches``: a jump to one table among 128)."""
    rnd = get_object_or_404(Round, pk=round_id, event=event)
    view = round_for_staff(rnd)
    only_missing = request.GET.get("missing") == "1"
    query = request.GET.get("q", "").strip()[:100]
    matches = [
        m
        for m in view.tables
        if (not only_missing or m.outcome == Outcome.PENDING)
        and table_matches(m.table, [s.name for s in m.seats], query)
    ]
    marked = _marked(rnd)
    context = {
        "event": event,
        "round": view,
        "matches": matches,
        "only_missing": only_missing,
        "query": query,
        "slips_open": _slips_open(rnd),
        "ties": _ties_allowed(event, view.is_elimination),
        "reports": reports_for_round(rnd.pk),
        "marked_ids": marked,
        "marked": [m.table for m in view.tables if m.id in marked],
        "pair_next": _pair_next(rnd),
        "undo_last": _undo_last(rnd),
        **clock_context(rnd),  # the round clock and its controls (views.clock)
    }
    return render(request, ROUND_TEMPLATE, context)


def _pair_next(rnd: Round) -> str:
    """The key of the round's pairing group when the round is complete and is the
    group's latest of an event still running (the round page then offers "Pair the next
    round" for that group), else ""."""
    if rnd.status != RoundStatus.COMPLETE or rnd.event.status == EventStatus.FINISHED:
        return ""
    latest = not Round.objects.filter(group_id=rnd.group_id, number__gt=rnd.number).exists()
    return rnd.group.key if latest else ""


def _undo_last(rnd: Round) -> Match | None:
    """The table whose entry completed the round, while "Undo last entry" is offered
    (the round complete, the next round not paired), else None."""
    if rnd.status != RoundStatus.COMPLETE or services.last_entry_undo_refusal(rnd):
        return None
    return services.round_last_entry(rnd)


def _marked(rnd: Round) -> set[int]:
    """Tables a correction of an earlier round marked (their brackets changed)."""
    return set(rnd.matches.filter(bracket_changed=True).values_list("pk", flat=True))


def _ties_allowed(event: Event, elimination: bool) -> bool:
    return get_ruleset(event.ruleset).allows_ties and not elimination


def _round_action(
    request: HttpRequest, event: Event, round_id: int, action: Any, done: str
) -> HttpResponse:
    rnd = get_object_or_404(Round, pk=round_id, event=event)
    try:
        action(round=rnd, by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, done.format(number=rnd.number))
    return redirect("staff:round", event.slug, rnd.pk)


@require_POST
@event_operator_required
def round_publish(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """Post the pairings: the round becomes public (P-POST-1)."""
    return _round_action(
        request,
        event,
        round_id,
        services.round_publish,
        gettext("Round {number} is published: players can see their tables."),
    )


@require_POST
@event_operator_required
def round_start(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """Start the round: its pairings are frozen (P-POST-2) and slips can be entered."""
    return _round_action(
        request,
        event,
        round_id,
        services.round_start,
        gettext("Round {number} started. Enter results as slips come in."),
    )


def _slip(
    match: Match, form: SlipForm, by: Actor, reason: str = "", confirmed: bool = False
) -> None:
    """Turn a validated :func:`slip_form` into a ``slip_enter`` call. In a complete
    round a pod is final and a match slip may only repeat the recorded result (a double
    submit): a change is a judge's correction, with a reason (P-POST-4). ``reason``: the
    override's reason when the slip differs from what every player reported;
    ``confirmed``: staff confirmed a slip that contradicts a player's own report.
    Raises MatchslipError."""
    args = result_args(match, form)
    result: services.Result = args["result"]
    if match.round.status == RoundStatus.COMPLETE:
        number = {"number": match.round.number}
        if isinstance(form, PodSlipForm):
            raise RoundStateError(
                gettext("Round %(number)s is complete: its pods are final.") % number
            )
        if result.games is not None:
            same = list(result.games) == match.games
        else:
            same = (result.outcome, result.winner_id) == (match.outcome, match.winner_id)
        if not same:
            raise RoundStateError(
                gettext(
                    "Round %(number)s is complete: a judge corrects its results, with a reason."
                )
                % number
            )
    services.slip_enter(
        match=match,
        result=result,
        version=args["version"],
        by=by,
        reason=reason,
        confirmed=confirmed,
    )


@require_POST
@event_operator_required
def match_result(request: HtmxRequest, event: Event, match_id: int) -> HttpResponse:
    """Enter the slip of any table from one click, its form chosen per format
    (``result_forms.slip_form``): a match's result buttons (R-6), a best-of-3 game score
    or double loss (M-MATCH-1; an impossible score such as 3-0, or a draw in single
    elimination, M-SE-2, is refused with the reason), a pod's winner or a draw with the
    conceded players ticked (MP-PTS-1). HTMX: answers the table's row plus the round's
    progress (results missing) as an out-of-band swap; a refused form is answered 422
    with the reason and changes nothing; a stale form (version mismatch) 409, showing
    "This match was just recorded as …". Without JS: redirects to the round.
    A slip that differs from the result every player reported asks first:
    "Both players reported … Override? Reason:", posting the same slip with ``reason``;
    one that contradicts a player's own report asks "Inés Ruiz reported: … Record …
    anyway?", posting the same slip with ``confirm_override=1`` (HTMX: in the row, 409;
    without JS: a page of its own)."""
    match = event_match_or_404(event, match_id)
    form = slip_form(match, request.POST)
    reason = request.POST.get("reason", "").strip()[:500]
    confirmed = request.POST.get(CONFIRM_OVERRIDE) == "1"
    if not form.is_valid():
        error, status = refusal(form), 422
    else:
        try:
            error, status = slip_attempt(
                lambda: _slip(match, form, request.user, reason, confirmed)
            )
        except (AgreedResultOverride, ReportOverride) as e:
            return override_response(request, event, match, e)
    return slip_response(request, event, match, error, status)


def override_response(
    request: HtmxRequest,
    event: Event,
    match: Match,
    override: AgreedResultOverride | ReportOverride,
) -> HttpResponse:
    """Ask before a slip overrides the players' own reports, the same slip's fields
    carried in hidden inputs: over what every player reported, a reason to type and
    "Override"; over one player's report (or disagreeing reports), what they reported
    and "Record anyway" (``kind``: ``agreed`` or ``reported``). HTMX: the table's row
    with the question (409); without JS: a page."""
    fields = [
        (name, value)
        for name in request.POST
        if name not in ("csrfmiddlewaretoken", "reason", CONFIRM_OVERRIDE)
        for value in request.POST.getlist(name)
    ]
    # The question answered with a blank reason: said, not just asked again.
    blank = "reason" in request.POST
    ask = {"message": str(override), "fields": fields, "blank": blank}
    if isinstance(override, AgreedResultOverride):
        ask |= {"kind": "agreed", "agreed": override.agreed}
    else:
        ask |= {"kind": "reported", "reported": override.reported, "entered": override.entered}
    if request.htmx:
        return slip_response(request, event, match, "", 409, override=ask)
    view, _ = match_for_staff(match.pk)
    context = {"event": event, "m": view, "round": match.round, "override": ask}
    return render(request, "tournaments/staff/override_confirm.html", context, status=409)


def slip_attempt(action: Callable[[], object]) -> tuple[str, int]:
    """Run a slip service call; return ``("", 200)``, or the refusal's message with 409
    for a stale form (ResultConflict) and 422 for any other MatchslipError."""
    try:
        action()
    except ResultConflict as e:
        return str(e), 409
    except (AgreedResultOverride, ReportOverride):
        raise  # the caller asks first
    except MatchslipError as e:
        return str(e), 422
    return "", 200


def slip_response(
    request: HtmxRequest,
    event: Event,
    match: Match,
    error: str,
    status: int,
    override: dict[str, Any] | None = None,
) -> HttpResponse:
    """The answer to a posted slip (result buttons or game score): HTMX gets the row and
    the progress out of band; without JS, a redirect to the round (errors as messages).
    ``override``: the question of :func:`override_response`, shown in the row."""
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
        "reports": reports_for_round(rnd.pk, match_ids=[match.pk]),
        "error": error,
        "missing": missing,
        "round": rnd,
        "status_label": rnd.get_status_display(),
        "slips_open": _slips_open(rnd),
        "ties": _ties_allowed(event, rnd.phase in ELIMINATION_PHASES),
        "pair_next": _pair_next(rnd) if not missing else "",
        "undo_last": _undo_last(rnd) if not missing else None,
        "override": override,
    }
    return render(request, f"{ROUND_TEMPLATE}#result_response", context, status=status)
