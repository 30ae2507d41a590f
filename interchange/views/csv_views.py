"""Standings and pairings as CSV downloads (organisers and scorekeepers), the same files
``export_csv`` writes. URL names ``staff:standings_csv`` and ``staff:pairings_csv``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from tournaments.models import Event, Round
from tournaments.permissions import event_operator_required
from tournaments.views.common import int_param

from ..services.csv_exports import ENCODING, csv_text, pairings_rows, standings_rows


def _download(rows: list[list[str]], filename: str) -> HttpResponse:
    response = HttpResponse(csv_text(rows).encode(ENCODING), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
@event_operator_required
def standings_csv(request: HttpRequest, event: Event) -> HttpResponse:
    """The current standings as CSV (UTF-8 with BOM): one row per player with place, id,
    name, record, points and every tiebreaker column of the ruleset."""
    return _download(standings_rows(event), f"{event.slug}-standings.csv")


@require_safe
@event_operator_required
def pairings_csv(request: HttpRequest, event: Event) -> HttpResponse:
    """Pairings and results as CSV (UTF-8 with BOM): the round ``?round=<id>`` of the
    event, else the latest round of every pairing group. 404 for another event's round."""
    round_id = int_param(request, "round")
    rnd = get_object_or_404(Round, pk=round_id, event=event) if round_id else None
    name = f"{event.slug}-round-{rnd.number}.csv" if rnd else f"{event.slug}-pairings.csv"
    return _download(pairings_rows(event, rnd), name)
