"""Download a Pokémon event as a TOM ``.tdf`` file (organisers and scorekeepers). URL
name ``staff:tdf_download``. Here, not in ``tournaments``, because the file carries the
standings."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from interchange.services.tdf_exports import event_tdf
from standings.services import standings_data
from tournaments.models import Event
from tournaments.permissions import event_operator_required


@require_safe
@event_operator_required
def tdf_download(request: HttpRequest, event: Event) -> HttpResponse:
    """The event as a TOM file, as ``export_tdf`` writes it."""
    text = event_tdf(event=event, standings=standings_data(event))
    response = HttpResponse(text.encode("utf-8"), content_type="application/xml")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.tdf"'
    return response
