"""A player's private link ``/e/<event>/p/<token>/``: no account, phone-first.

The unguessable token (``Registration.report_token``) is the only credential: the page
shows this player's table, lets them report their result (``services.report_submit``)
and drop themselves. It never shows another player's link; it is sent with
``Referrer-Policy: same-origin`` and ``Cache-Control: private, no-store`` so the token
does not leak to other sites or shared caches. An unknown token is a 404.

Decision: ``same-origin``, not ``no-referrer``: with ``no-referrer``
the browser posts the page's forms with ``Origin: null``, which Django's CSRF check
refuses, so a player could not drop or report without JavaScript. ``same-origin`` still
sends no address to any other site.

The page gives the browser a signed id cookie
(``tournaments.browsers``); reports and drops pass that id to the services, which hold
a table for staff when one browser reports for two of its players and refuse a drop
from a browser that reported for the player's opponent.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST, require_safe

from rulesets import get_ruleset

from .. import services
from ..browsers import browser_id, remember_browser
from ..errors import InvalidInput, MatchslipError
from ..forms import PlayerDropForm
from ..models import (
    EventStatus,
    JudgeCall,
    JudgeCallReason,
    JudgeCallStatus,
    Match,
    Registration,
    RoundStatus,
    SelfReportMode,
)
from ..selectors import ELIMINATION_PHASES
from ..selectors.floor import call_for_player
from ..selectors.names import twin_exists
from ..selectors.outlook import outlook_for_player
from ..selectors.reports import page_for_player, standing_for_player
from ..services.checkin import self_checkin_open
from ..services.judge_calls import judge_name_for_players
from ..services.player_decklists import decklist_window
from .common import HtmxRequest, wants_fragment
from .prebuilt import my_table_html, seat_entries
from .result_forms import PlayerPodReportForm, refusal, report_form, report_result

TEMPLATE = "tournaments/public/player.html"


def _registration(slug: str, token: str) -> Registration:
    """The registration of a private link, with ``name_twin`` (another player of the
    event has its name: the heading tells them apart, in the same query) and
    ``judge_called`` (a judge was called to their table of a published or started round:
    only then is the call read), or 404."""
    called = JudgeCall.objects.filter(
        match__seats__registration=OuterRef("pk"),
        match__round__status__in=(RoundStatus.PUBLISHED, RoundStatus.STARTED),
    )
    return get_object_or_404(
        Registration.objects.select_related("player", "event", "division").annotate(
            name_twin=twin_exists(), judge_called=Exists(called)
        ),
        event__slug=slug,
        report_token=token,
    )


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "same-origin"  # see the module docstring
    response["X-Robots-Tag"] = "noindex"
    return response


def _render(
    request: HtmxRequest, reg: Registration, partial: str = "report", **extra: Any
) -> HttpResponse:
    page = page_for_player(reg)
    rnd, match = page.round, page.match
    can_report = bool(
        rnd
        and match
        and (match.is_slip or match.is_pod)
        and rnd.status == RoundStatus.STARTED
        and not match.reported
        and reg.event.self_report != SelfReportMode.OFF
    )
    context = {
        "event": reg.event,
        "reg": reg,
        "page": page,
        "opponent": next((s for s in match.seats if s.registration_id != reg.pk), None)
        if match
        else None,
        "can_report": can_report,
        "ties": rnd is not None
        and get_ruleset(reg.event.ruleset).allows_ties
        and rnd.phase not in ELIMINATION_PHASES,
        "game_record": get_ruleset(reg.event.ruleset).game_record,
        "drop_form": PlayerDropForm(),
        "self_checkin": self_checkin_open(reg.event),  # the "Check in" button
        **_judge_call_context(reg, page),  # "Call a judge"
        # the deck list card (a query only while no deadline is set)
        "decklist": decklist_window(reg) if reg.event.collects_decklists else None,
        # place, record and points; every report line says whom it is about
        "standing": (standing := standing_for_player(reg)),
        # "Top 8: 64 % — a win next round makes it 97 %" (1 query)
        "outlook": outlook_for_player(reg) if standing else [],
        "report_lines": [(x.registration_id, x.name, x.seen_by(reg.pk)) for x in page.summary.lines]
        if page.summary
        else [],
        **extra,
    }
    if not wants_fragment(request):
        table_url = reverse("public:player_table", args=[reg.event.slug, reg.report_token])
        seats = seat_entries(reg.event.slug, reg.report_token, reg)
        context["my_table"] = my_table_html(seats, table_url)
        template = TEMPLATE
    elif request.GET.get("part") == "live":  # a live refresh (sse:me, sse:public)
        template = f"{TEMPLATE}#player_live"
    else:  # a report's answer, or a judge call's
        template = f"{TEMPLATE}#{partial}"
    return _private(render(request, template, context, status=extra.get("status", 200)))


def _judge_call_context(reg: Registration, page: Any) -> dict[str, Any]:
    """The "Call a judge" card: the latest call of the player's table
    this round (``judge_call``, with ``judge_call_who``: who claimed it and ``judge_call_by``: who
    answered it, by full name, "" for an account without one) and whether a
    new call can be made (seated at a table of a published or started round, no call of
    the table open). 1 query once a judge was called to the table (``judge_called``)."""
    live = bool(
        page.round
        and page.match
        and page.match.table
        and page.round.status in (RoundStatus.PUBLISHED, RoundStatus.STARTED)
        and reg.event.status != EventStatus.FINISHED
    )
    called = getattr(reg, "judge_called", True)
    call = call_for_player(page.match.id) if live and called else None
    return {
        "judge_call": call,
        "judge_call_who": judge_name_for_players(call.claimed_by) if call else "",
        "judge_call_by": judge_name_for_players(call.resolved_by) if call else "",
        "can_call_judge": live and (call is None or call.status == JudgeCallStatus.RESOLVED),
        "call_reasons": JudgeCallReason.choices,
    }


@require_safe
def player_home(request: HtmxRequest, slug: str, token: str) -> HttpResponse:
    """The player's page: their table and opponent, their report, earlier results. Gives
    the browser its id cookie."""
    return remember_browser(request, _render(request, _registration(slug, token)))


STATE_MESSAGES = {
    "waiting": _("Thanks! Your opponent now reports too; you can change yours until they do."),
    "held": _("You both reported the same result. Staff will confirm it shortly."),
    "disputed": _("Your opponent reported something else. A judge will come to your table."),
    "recorded": _("Result recorded. Thank you!"),
    "one-browser": _(
        "Both reports came from one phone, so your result went to the staff: a judge will "
        "come to your table."
    ),
}

POD_MESSAGES = {
    "waiting": _(
        "Thanks! The other players of your pod report too; you can change yours "
        "until everyone agrees."
    ),
    "held": _("Your whole pod reported the same result. Staff will confirm it shortly."),
    "disputed": _("Your pod reported different results. A judge will come to your table."),
}


def _reported_match(reg: Registration, post: Any) -> Match | None:
    """The table named by ``post["match"]`` where ``reg`` is seated (404 for anyone
    else's table), or None when the post names no table."""
    match_id = str(post.get("match", ""))
    if not match_id.isdigit():
        return None
    return get_object_or_404(
        Match.objects.select_related("round__event").prefetch_related("seats__registration"),
        pk=int(match_id),
        seats__registration=reg,
    )


def _report(reg: Registration, post: Any, browser: str = "") -> str:
    """Report the posted result of the player's table with ``services.report_submit``
    and return the notice for the report's new state ("waiting", "held", "disputed",
    "recorded", "one-browser"), in the visitor's language; ``browser``: the sending
    browser's id (``tournaments.browsers``). The form follows the table's format
    (``result_forms.report_form``). Raises InvalidInput for a form out of shape and
    MatchslipError for a refused report."""
    match = _reported_match(reg, post)
    if match is None:
        raise InvalidInput(gettext("Choose one of the result buttons."))
    form = report_form(match, reg, post)
    if not form.is_valid():
        raise InvalidInput(refusal(form))
    result = report_result(match, reg, form)
    state = services.report_submit(match=match, registration=reg, result=result, browser=browser)
    notices = POD_MESSAGES if isinstance(form, PlayerPodReportForm) else {}
    return str(notices.get(state) or STATE_MESSAGES[state])


@require_POST
def player_report(request: HtmxRequest, slug: str, token: str) -> HttpResponse:
    """Report (or change) the result of the player's table, whatever its format: a
    match's result buttons (``result`` "me", "opponent", "draw"), a best-of-3 game score
    from the player's side (M-MATCH-1) or a pod's winner (``winner``: a seated player's
    id or "draw") with the player's own concession (``conceded``, MP-PTS-1); ``match``
    names the table, which must be the player's own (else 404). HTMX: answers the report
    panel (422 with the reason when refused); without JavaScript: redirects to the page
    with a message."""
    reg = _registration(slug, token)
    error, notice = "", ""
    try:
        notice = _report(reg, request.POST, browser_id(request))
    except MatchslipError as e:
        error = str(e)
    if not request.htmx:
        messages.add_message(
            request, messages.ERROR if error else messages.SUCCESS, error or notice
        )
        return _private(redirect("public:player", slug, token))
    return _render(request, reg, error=error, notice=notice, status=422 if error else 200)


@require_POST
def player_drop(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player drops themselves (P-SW-6), after ticking the confirmation; refused
    from a browser that reported for their opponent (
    ``services.registration_self_drop``)."""
    reg = _registration(slug, token)
    if not PlayerDropForm(request.POST).is_valid():
        messages.error(request, gettext("Tick the box to confirm that you want to drop."))
        return _private(redirect("public:player", slug, token))
    try:
        reg = services.registration_self_drop(registration=reg, browser=browser_id(request))
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("You dropped after round %(dropped_after_round)s. Thanks for playing!")
            % {"dropped_after_round": reg.dropped_after_round},
        )
    return _private(redirect("public:player", slug, token))


@require_POST
def player_judge_call(request: HtmxRequest, slug: str, token: str) -> HttpResponse:
    """Call a judge to the player's table, with an optional
    ``reason`` (``JudgeCallReason``; ``services.judge_call_open``). HTMX: answers the
    judge-call card (422 with the reason when refused: already called, not seated);
    without JavaScript: redirects to the page with a message."""
    reg = _registration(slug, token)
    error, notice = "", ""
    try:
        call = services.judge_call_open(registration=reg, reason=request.POST.get("reason", ""))
    except MatchslipError as e:
        error = str(e)
    else:
        notice = gettext("A judge is coming to table %(table)s.") % {"table": call.table}
    reg.judge_called = True  # type: ignore[attr-defined]  # read it now: made, or refused as open
    if not request.htmx:
        messages.add_message(
            request, messages.ERROR if error else messages.SUCCESS, error or notice
        )
        return _private(redirect("public:player", slug, token))
    return _render(
        request,
        reg,
        partial="judge_call",
        call_error=error,
        call_notice=notice,
        status=422 if error else 200,
    )
