"""Why each table of a round was paired, for every staff role (judges included): the
engine's explanation per pairing (same record, pair-down, division over record, other
division, rematch: no alternative, the bye and why that player got it). URL name
``staff:round_why``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from tournaments.models import Event, Round
from tournaments.permissions import event_staff_required
from tournaments.selectors import round_for_staff


@require_safe
@event_staff_required("resolve")
def round_why(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """Every table with its players' records before the round and the pairing's reason
    (P-SW-3, P-SW-4, P-SW-5, P-AGE-3). Read-only; any staff role."""
    rnd = get_object_or_404(Round, pk=round_id, event=event)
    context = {"event": event, "round": round_for_staff(rnd)}
    return render(request, "pairings/staff/why.html", context)
