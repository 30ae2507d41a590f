"""The minimal re-pair page of a round that a correction marked (P-SW-9): a preview of
the tables that change, then "Apply" (organisers and scorekeepers). URL name
``staff:round_repair``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from tournaments.errors import MatchslipError
from tournaments.models import Event, Round
from tournaments.permissions import event_operator_required
from tournaments.procedures import pairs_round_again_whole
from tournaments.views.common import int_param

from ..repair_services import pod_round_repair, round_repair, round_repair_preview


@require_http_methods(["GET", "POST"])
@event_operator_required
def repair(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """GET: preview the minimal re-pair with a fresh seed. POST: apply the previewed
    one (same seed; refused when anything changed since, or once the round started)."""
    rnd = get_object_or_404(Round, pk=round_id, event=event)
    if pairs_round_again_whole(event, rnd.group):  # pods (MP-PAIR-1, pod_round_repair)
        return _pod_repair(request, event, rnd)
    if request.method == "POST":
        seed = int(request.POST.get("seed", "0") or 0)
        try:
            round_repair(
                round=rnd,
                by=request.user,
                seed=seed,
                fingerprint=request.POST.get("fingerprint", ""),
            )
        except MatchslipError as e:
            messages.error(request, str(e))
            return redirect("staff:round_repair", event.slug, rnd.pk)
        messages.success(
            request,
            gettext("Round %(number)s re-paired: only the changed tables moved.")
            % {"number": rnd.number},
        )
        return redirect("staff:round", event.slug, rnd.pk)
    try:
        preview = round_repair_preview(round=rnd, seed=int_param(request, "seed"))
    except MatchslipError as e:
        messages.error(request, str(e))
        return redirect("staff:round", event.slug, rnd.pk)
    changes = [  # numbered as the applied re-pair numbers them (fixed seats kept)
        (c.table, [preview.names[p] for p in c.old], [preview.names[p] for p in c.new])
        for c in preview.tables
    ]
    context = {"event": event, "round": rnd, "preview": preview, "changes": changes}
    return render(request, "pairings/staff/repair.html", context)


def _pod_repair(request: HttpRequest, event: Event, rnd: Round) -> HttpResponse:
    """GET: say what re-pairing a pod round does. POST: pair it again (new seed)."""
    if request.method == "GET":
        context = {"event": event, "round": rnd, "pods": True}
        return render(request, "pairings/staff/repair.html", context)
    try:
        new = pod_round_repair(round=rnd, by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
        return redirect("staff:round", event.slug, rnd.pk)
    messages.success(
        request,
        gettext("Round %(number)s paired again from the corrected standings.")
        % {"number": new.number},
    )
    return redirect("staff:round", event.slug, new.pk)
