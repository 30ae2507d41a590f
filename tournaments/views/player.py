"""A player's private link ``/e/<event>/p/<token>/``: no account, phone-first.

The unguessable token (``Registration.report_token``) is the only credential: the page
shows this player's table, lets them report their result (``services.report_submit``)
and drop themselves. It never shows another player's link; it is sent with
``Referrer-Policy: no-referrer`` and ``Cache-Control: private, no-store`` so the token
does not leak to other sites or shared caches. An unknown token is a 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from rulesets import get_ruleset

from .. import services
from ..errors import InvalidInput, MatchslipError
from ..forms import PlayerDropForm, PlayerGameReportForm, PlayerReportForm
from ..models import Match, Outcome, Registration, RoundStatus, SelfReportMode
from ..selectors import ELIMINATION_PHASES
from ..selectors.reports import page_for_player, standing_for_player
from .common import wants_fragment
from .games import form_error

TEMPLATE = "tournaments/public/player.html"


def _registration(slug: str, token: str) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("player", "event", "division"),
        event__slug=slug,
        report_token=token,
    )


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


def _render(request: HttpRequest, reg: Registration, **extra: Any) -> HttpResponse:
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
        # issue 13: place, record and points; every report line says whom it is about
        "standing": standing_for_player(reg),
        "report_lines": [(x.registration_id, *x.seen_by(reg.pk)) for x in page.summary.lines]
        if page.summary
        else [],
        **extra,
    }
    template = f"{TEMPLATE}#report" if wants_fragment(request) else TEMPLATE
    return _private(render(request, template, context, status=extra.get("status", 200)))


@require_safe
def player_home(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player's page: their table and opponent, their report, earlier results."""
    return _render(request, _registration(slug, token))


def _report_form(reg: Registration, data: Any) -> PlayerReportForm | PlayerGameReportForm:
    """The result buttons, or for best-of-3 rulesets the game score (M-MATCH-1)."""
    if get_ruleset(reg.event.ruleset).game_record:
        return PlayerGameReportForm(data)
    return PlayerReportForm(data)


def _report(reg: Registration, form: PlayerReportForm | PlayerGameReportForm) -> str:
    """Turn the pressed button into ``report_submit``; raises MatchslipError. A game
    score is given from the player's side and passed on in seat order."""
    match = get_object_or_404(
        Match.objects.prefetch_related("seats__registration"),
        pk=form.cleaned_data["match"],
        seats__registration=reg,
    )
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    if isinstance(form, PlayerGameReportForm):
        mine, theirs, drawn = form.cleaned_data["games"]
        first = seats[0].registration_id == reg.pk
        games = (mine, theirs, drawn) if first else (theirs, mine, drawn)
        return services.report_submit(
            match=match, registration=reg, result=services.Result.of(games=games)
        )
    other = next(s.registration for s in seats if s.registration_id != reg.pk)
    result = form.cleaned_data["result"]
    winner = {"me": reg, "opponent": other}.get(result)
    outcome = Outcome.WIN if winner else result
    return services.report_submit(
        match=match, registration=reg, result=services.Result.of(outcome, winner)
    )


STATE_MESSAGES = {
    "waiting": "Thanks! Your opponent now reports too; you can change yours until they do.",
    "held": "You both reported the same result. Staff will confirm it shortly.",
    "disputed": "Your opponent reported something else. A judge will come to your table.",
    "recorded": "Result recorded. Thank you!",
}


@require_POST
def player_report(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """Report (or change) the result of the player's current match. HTMX: answers the
    report panel; without JavaScript: redirects to the page with a message."""
    reg = _registration(slug, token)
    form = _report_form(reg, request.POST)
    error, notice = "", ""
    if not form.is_valid():
        error = (
            form_error(form)
            if isinstance(form, PlayerGameReportForm)
            else "Choose one of the result buttons."
        )
    else:
        try:
            notice = STATE_MESSAGES[_report(reg, form)]
        except MatchslipError as e:
            error = str(e)
    if not request.htmx:
        messages.add_message(
            request, messages.ERROR if error else messages.SUCCESS, error or notice
        )
        return _private(redirect("public:player", slug, token))
    return _render(request, reg, error=error, notice=notice, status=422 if error else 200)


def _pod_report(reg: Registration, post: Any) -> str:
    """A pod report: ``winner`` is a seated player's id or ``draw``; ``conceded`` ticks
    the player's own concession (MP-PTS-1). Raises MatchslipError."""
    match_id = post.get("match", "")
    if not match_id.isdigit():
        raise InvalidInput(gettext("Choose the pod's winner, or Draw."))
    match = get_object_or_404(
        Match.objects.prefetch_related("seats__registration"),
        pk=int(match_id),
        seats__registration=reg,
    )
    choice = post.get("winner", "")
    seated = {str(s.registration_id): s.registration for s in match.seats.all()}
    if choice != "draw" and choice not in seated:
        raise InvalidInput(gettext("Choose the pod's winner, or Draw."))
    conceded = [reg.pk] if post.get("conceded") else []
    result = services.Result.of(winner=seated.get(choice), conceded=conceded)
    return services.report_submit(match=match, registration=reg, result=result)


@require_POST
def player_pod_report(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """Report (or change) the result of the player's pod (MP-PTS-1): the winner, or a
    draw and whether they conceded. HTMX answers the report panel, else a redirect."""
    reg = _registration(slug, token)
    error, notice = "", ""
    try:
        notice = POD_MESSAGES.get(state := _pod_report(reg, request.POST), STATE_MESSAGES[state])
    except MatchslipError as e:
        error = str(e)
    if not request.htmx:
        messages.add_message(
            request, messages.ERROR if error else messages.SUCCESS, error or notice
        )
        return _private(redirect("public:player", slug, token))
    return _render(request, reg, error=error, notice=notice, status=422 if error else 200)


POD_MESSAGES = {
    "waiting": "Thanks! The other players of your pod report too; you can change yours "
    "until everyone agrees.",
    "held": "Your whole pod reported the same result. Staff will confirm it shortly.",
    "disputed": "Your pod reported different results. A judge will come to your table.",
}


@require_POST
def player_drop(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player drops themselves (P-SW-6), after ticking the confirmation."""
    reg = _registration(slug, token)
    if not PlayerDropForm(request.POST).is_valid():
        messages.error(request, gettext("Tick the box to confirm that you want to drop."))
        return _private(redirect("public:player", slug, token))
    try:
        reg = services.registration_drop(
            registration=reg, by=reg, reason="Dropped themselves on their private link."
        )
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("You dropped after round %(dropped_after_round)s. Thanks for playing!")
            % {"dropped_after_round": reg.dropped_after_round},
        )
    return _private(redirect("public:player", slug, token))
