"""The judges' desk: the disputes queue (every staff role), corrections of recorded
results within the P-POST-4 window and penalty notes (organisers and judges).

Each view parses input, calls one service and shows a ``MatchslipError`` as a message
(docs/style.md §7); forms post to real URLs and redirect back (post/redirect/get).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from rulesets import get_ruleset
from rulesets.penalties import infraction_key, repeated_infractions

from .. import services
from ..errors import MatchslipError
from ..forms import PenaltyForm
from ..groups import group_label
from ..models import Event, Match, Round, RoundStatus
from ..permissions import event_staff_required
from ..search import table_matches
from ..selectors import round_for_staff
from ..selectors.reports import disputes_for_staff, reports_for_round
from .result_forms import reason_form, result_args


def _ties(event: Event) -> bool:
    return get_ruleset(event.ruleset).allows_ties


@require_safe
@event_staff_required("resolve")
def disputes(request: HttpRequest, event: Event) -> HttpResponse:
    """Tables whose players disagree, and agreed results held for a staff click."""
    context = {"event": event, "items": disputes_for_staff(event), "ties": _ties(event)}
    return render(request, "tournaments/staff/disputes.html", context)


def _match(event: Event, match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("round").prefetch_related("seats__registration"),
        pk=match_id,
        round__event=event,
    )


@require_POST
@event_staff_required("resolve")
def report_accept(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Record the result both players reported (events that hold agreed results)."""
    match = _match(event, match_id)
    try:
        services.report_accept(match=match, by=request.user)
    except MatchslipError as e:
        messages.error(
            request, gettext("Table %(table)s: %(error)s") % {"table": match.table, "error": e}
        )
    else:
        messages.success(
            request, gettext("Table %(table)s: result recorded.") % {"table": match.table}
        )
    return redirect("staff:disputes", event.slug)


@require_POST
@event_staff_required("resolve")
def dispute_resolve(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Decide a disputed table, with a reason; overrides the players' reports."""
    match = _match(event, match_id)
    form = reason_form(match, request.POST)
    if not form.is_valid():
        messages.error(
            request,
            gettext("Table %(table)s: choose a result and give a reason.") % {"table": match.table},
        )
        return redirect("staff:disputes", event.slug)
    try:
        m = services.dispute_resolve(by=request.user, **result_args(match, form))
    except MatchslipError as e:
        messages.error(
            request, gettext("Table %(table)s: %(error)s") % {"table": match.table, "error": e}
        )
    else:
        text = services.match_result_text(m)
        messages.success(
            request,
            gettext("Table %(table)s: recorded as %(text)s.")
            % {"table": match.table, "text": text},
        )
    return redirect("staff:disputes", event.slug)


def _correctable_rounds(event: Event) -> list[tuple[Round, str]]:
    """The started and complete rounds, latest first, each with its label: its pairing
    group's name for people ("Junior + Senior") when the event pairs several groups, else
    "" (never a group key)."""
    statuses = (RoundStatus.STARTED, RoundStatus.COMPLETE)
    rounds = list(
        event.rounds.filter(status__in=statuses)
        .select_related("group")
        .prefetch_related("group__divisions")
        .order_by("-number", "group__key")
    )
    several = len({r.group_id for r in rounds}) > 1
    return [(r, group_label(r.group) if several else "") for r in rounds]


@require_safe
@event_staff_required("correct")
def corrections(request: HttpRequest, event: Event) -> HttpResponse:
    """Pick a round (by default the last completed one: the round in progress takes its
    slips on the round page); each recorded table can be corrected with a reason while
    the P-POST-4 window is open. A locked round says so, quoting the rule. ``?q=``
    keeps the tables whose number is ``q`` or where a player's name contains it."""
    labelled = _correctable_rounds(event)
    rounds = [r for r, _label in labelled]
    chosen = next((r for r in rounds if str(r.pk) == request.GET.get("round")), None)
    complete = [r for r in rounds if r.status == RoundStatus.COMPLETE]
    chosen = chosen or next(iter(complete or rounds), None)
    query = request.GET.get("q", "").strip()[:100]
    context: dict[str, Any] = {
        "event": event,
        "rounds": labelled,
        "chosen": chosen,
        "query": query,
    }
    if chosen is not None:
        view = round_for_staff(chosen)
        context.update(
            round=view,
            tables=[
                m for m in view.tables if table_matches(m.table, [s.name for s in m.seats], query)
            ],
            reports=reports_for_round(chosen.pk),
            open=services.correction_window_open(chosen),
            locked=services.locked_message(chosen),
            ties=_ties(event) and chosen.phase not in ("top-cut", "single-elimination"),
        )
    return render(request, "tournaments/staff/corrections.html", context)


def _correction_message(request: HttpRequest, event: Event, c: services.Correction) -> None:
    m = c.match
    text = f"Round {m.round.number} table {m.table} is now: {services.match_result_text(m)}."
    if c.marked:
        tables = ", ".join(str(x.table) for x in c.marked)
        text += " " + ngettext(
            "Round %(number)d was paired on the old records: table %(tables)s is marked.",
            "Round %(number)d was paired on the old records: tables %(tables)s are marked.",
            len(c.marked),
        ) % {"number": c.marked[0].round.number, "tables": tables}
    messages.success(request, text)
    if c.repairable is not None:
        messages.warning(
            request,
            gettext("Round %(number)s has not started: re-pair the marked tables from its page.")
            % {"number": c.repairable.number},
        )


@require_http_methods(["POST"])
@event_staff_required("correct")
def result_correct(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Correct one recorded result with a reason (P-POST-4); refused outside the window
    with the rule quoted, or when the match changed meanwhile (version check)."""
    match = _match(event, match_id)
    form = reason_form(match, request.POST)
    url = reverse("staff:corrections", args=[event.slug]) + f"?round={match.round_id}"
    if not form.is_valid():
        messages.error(
            request,
            gettext("Table %(table)s: choose a result and give a reason.") % {"table": match.table},
        )
        return redirect(url)
    try:
        correction = services.result_correct(by=request.user, **result_args(match, form))
    except MatchslipError as e:
        messages.error(
            request, gettext("Table %(table)s: %(error)s") % {"table": match.table, "error": e}
        )
    else:
        _correction_message(request, event, correction)
    return redirect(f"{url}#match-{match.pk}")


def _round_being_played(event: Event) -> int | None:
    """The number of the round the hall is playing: the highest started round, else the
    highest published one; None before any."""
    for status in (RoundStatus.STARTED, RoundStatus.PUBLISHED):
        rounds = Round.objects.filter(event=event, status=status)
        if (
            number := rounds.order_by("-number").values_list("number", flat=True).first()
        ) is not None:
            return int(number)
    return None


@require_http_methods(["GET", "POST"])
@event_staff_required("correct")
def penalties(request: HttpRequest, event: Event) -> HttpResponse:
    """Penalty notes of the event, newest first, and the form to add one (its player and
    round may come in the query string: the floor board's "Note a penalty"); notes of
    an infraction the player repeated are flagged. The round defaults to the round being
    played (the highest started round's number), else the highest published one."""
    asked = {k: request.GET[k] for k in ("registration", "round_number") if k in request.GET}
    if "round_number" not in asked and (playing := _round_being_played(event)) is not None:
        asked["round_number"] = str(playing)
    form = PenaltyForm(request.POST or None, event=event, initial=asked)
    if request.method == "POST" and form.is_valid():
        try:
            services.penalty_note_add(event=event, by=request.user, **form.cleaned_data)
        except MatchslipError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, gettext("Penalty noted."))
            return redirect("staff:penalties", event.slug)
    notes = list(event.penalties.select_related("registration__player", "by"))
    found = repeated_infractions((n.registration_id, n.infraction) for n in notes)
    again = {(reg, infraction_key(name)) for reg, names in found.items() for name in names}
    for n in notes:
        n.repeated = (n.registration_id, infraction_key(n.infraction)) in again  # type: ignore[attr-defined]
    context = {"event": event, "form": form, "notes": notes}
    return render(request, "tournaments/staff/penalties.html", context)
