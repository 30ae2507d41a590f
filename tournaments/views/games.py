"""Best-of-3 match slips: the game score of a table (M-MATCH-1), for the rulesets whose
slips carry games (``Ruleset.game_record``: ``mtg``, ``bo3-wins-against``).

Posted from the round page's quick buttons (2-0, 2-1, 1-2, 0-2, 1-1-1, ID 0-0-3) or the
typed-in games, with HTMX exactly like the result buttons: the row and the "results
missing" counter are swapped, a stale form shows "This match was just recorded as …".
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from .. import services
from ..errors import RoundStateError
from ..forms import GameScoreForm
from ..models import Event, Match, RoundStatus
from ..permissions import event_operator_required
from .common import event_match_or_404
from .staff import slip_attempt, slip_response


def _enter(match: Match, games: tuple[int, int, int], version: int, by: Any) -> None:
    """``slip_enter`` with the games; a complete round changes only through a judge's
    correction with a reason (P-POST-4). Raises MatchslipError."""
    if match.round.status == RoundStatus.COMPLETE and list(games) != match.games:
        raise RoundStateError(
            gettext("Round %(number)s is complete: a judge corrects its results, with a reason.")
            % {"number": match.round.number}
        )
    services.slip_enter(match=match, result=services.Result.of(games=games), version=version, by=by)


def form_error(form: GameScoreForm) -> str:
    """The first problem of an invalid game-score form, in words."""
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        return f"{label}: {errors[0]}" if label else str(errors[0])
    return gettext("Choose a score.")


@require_POST
@event_operator_required
def match_games(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Enter the game score of a best-of-3 match slip (M-MATCH-1): the outcome follows
    from the games; an impossible score (3-0, a draw in single elimination, M-SE-2) is
    refused with the reason and changes nothing (422); a stale form conflicts (409)."""
    match = event_match_or_404(event, match_id)
    form = GameScoreForm(request.POST)
    if not form.is_valid():
        error, status = form_error(form), 422
    else:
        data = form.cleaned_data
        error, status = slip_attempt(
            lambda: _enter(match, data["games"], data["version"], request.user)
        )
    return slip_response(request, event, match, error, status)
