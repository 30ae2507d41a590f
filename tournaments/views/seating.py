"""Fixed seats and featured tables.

Staff (organisers and scorekeepers) give a player a fixed table from the player's staff
page, and feature a match from the round page; a player opts out of being featured on
their private page. Each view parses the form, calls one service and answers with a
message and a redirect (post/redirect/get); a refusal changes nothing and says why.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ..errors import MatchslipError
from ..models import Event, Match, Registration, Round
from ..permissions import event_operator_required
from ..seating_forms import FeatureChoiceForm, FeatureForm, FixedSeatForm
from ..selectors.names import registration_name
from ..services.featured import match_feature, match_unfeature, registration_feature_opt_out
from ..services.seating import registration_fixed_seat_set, seat_waiting
from .player import _private, _registration


@require_POST
@event_operator_required
def fixed_seat(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Give a player a fixed table with a private reason, change it, or remove it
    (``remove``), from their staff page (``services.seating``). Says when a round
    already paired seats them elsewhere (move that table, or pair it again)."""
    reg = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, event=event
    )
    form = FixedSeatForm(request.POST)
    back = redirect("staff:player", event.slug, reg.pk)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return back
    table = None if form.cleaned_data["remove"] else form.cleaned_data["table"]
    try:
        reg = registration_fixed_seat_set(
            registration=reg, table=table, reason=form.cleaned_data["reason"], by=request.user
        )
    except MatchslipError as e:
        messages.error(request, str(e))
        return back
    name = registration_name(reg)
    if table is None:
        messages.success(request, gettext("%(name)s has no fixed seat.") % {"name": name})
        return back
    messages.success(
        request,
        gettext("Table %(table)s is the fixed seat of %(name)s from the next round paired.")
        % {"table": table, "name": name},
    )
    waiting = seat_waiting(reg)
    if waiting is not None:
        messages.warning(
            request,
            gettext(
                "Round %(number)s is already paired and seats %(name)s at table %(at)s: move "
                "that table to table %(table)s on the round page, or discard and pair it again."
            )
            % {"number": waiting.round.number, "name": name, "at": waiting.table, "table": table},
        )
    return back


@require_POST
@event_operator_required
def feature(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """Feature a match of the round at a feature table (``services.featured``); refused,
    with the reason, when one of its players opted out. A post without the table or the
    name (no ``required`` in an old browser, or no browser) is told which is missing and
    changes nothing."""
    rnd = get_object_or_404(Round, pk=round_id, event=event)
    form = FeatureForm(request.POST)
    back = redirect("staff:round", event.slug, rnd.pk)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return back
    match = get_object_or_404(Match, pk=form.cleaned_data["match"], round=rnd)
    try:
        m = match_feature(
            match=match, feature_table=form.cleaned_data["feature_table"], by=request.user
        )
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("Table %(table)s is featured as “%(name)s”.")
            % {"table": m.table, "name": m.feature_table},
        )
    return back


@require_POST
@event_operator_required
def unfeature(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Take a match off its feature table."""
    match = get_object_or_404(Match, pk=match_id, round__event=event)
    match_unfeature(match=match, by=request.user)
    messages.success(
        request, gettext("Table %(table)s is no longer featured.") % {"table": match.table}
    )
    return redirect("staff:round", event.slug, match.round_id)


@require_POST
def player_feature_choice(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """A player's choice on their private page: never feature my matches (``opt_out``
    "1"; takes the feature off their matches of rounds not complete), or featuring is
    fine ("0"). Audited under the player's name."""
    reg = _registration(slug, token)
    form = FeatureChoiceForm(request.POST)
    if form.is_valid():
        opt_out = form.cleaned_data["opt_out"] == "1"
        registration_feature_opt_out(registration=reg, opt_out=opt_out, by=reg)
        messages.success(
            request,
            gettext("Your matches will not be featured.")
            if opt_out
            else gettext("Your matches may be featured."),
        )
    return _private(redirect("public:player", slug, token))
