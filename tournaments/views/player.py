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
from django.views.decorators.http import require_GET, require_POST

from .. import services
from ..errors import MatchslipError
from ..forms import PlayerDropForm, PlayerReportForm
from ..models import Match, Outcome, Registration, RoundStatus, SelfReportMode
from ..rulesets import get_ruleset
from ..selectors import ELIMINATION_PHASES
from ..selectors.reports import page_for_player

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
        and match.is_slip
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
        "drop_form": PlayerDropForm(),
        **extra,
    }
    template = f"{TEMPLATE}#report" if request.htmx else TEMPLATE
    return _private(render(request, template, context, status=extra.get("status", 200)))


@require_GET
def player_home(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player's page: their table and opponent, their report, earlier results."""
    return _render(request, _registration(slug, token))


def _report(reg: Registration, form: PlayerReportForm) -> str:
    """Turn the pressed button into ``report_submit``; raises MatchslipError."""
    match = get_object_or_404(
        Match.objects.prefetch_related("seats__registration"),
        pk=form.cleaned_data["match"],
        seats__registration=reg,
    )
    other = next(s.registration for s in match.seats.all() if s.registration_id != reg.pk)
    result = form.cleaned_data["result"]
    winner = {"me": reg, "opponent": other}.get(result)
    outcome = Outcome.WIN if winner else result
    return services.report_submit(match=match, registration=reg, outcome=outcome, winner=winner)


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
    form = PlayerReportForm(request.POST)
    error, notice = "", ""
    if not form.is_valid():
        error = "Choose one of the result buttons."
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


@require_POST
def player_drop(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player drops themselves (P-SW-6), after ticking the confirmation."""
    reg = _registration(slug, token)
    if not PlayerDropForm(request.POST).is_valid():
        messages.error(request, "Tick the box to confirm that you want to drop.")
        return _private(redirect("public:player", slug, token))
    try:
        reg = services.registration_drop(
            registration=reg, by=reg, reason="Dropped themselves on their private link."
        )
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request, f"You dropped after round {reg.dropped_after_round}. Thanks for playing!"
        )
    return _private(redirect("public:player", slug, token))
