"""The public standings page: no login, phone-first, refreshed while a round is live
(``tournaments.views.common.public_page``). URL name ``public:standings``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from tournaments.selectors import standings_for_public
from tournaments.views.common import public_event_context, public_event_or_404, public_page
from tournaments.views.prebuilt import prebuilt, standings_page

from ..services import standings_latest


@require_safe
@prebuilt(standings_page)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The latest standings: place, record, match points, OWP and OOWP (P-TB-8): the
    prebuilt response when stored (no query, ``tournaments.views.prebuilt``), else
    rendered, 3 queries."""
    event = public_event_or_404(request, slug)
    context = public_event_context(event)
    snapshot = standings_latest(event)
    context["snapshot"] = snapshot
    context["divisions"] = standings_for_public(snapshot.data) if snapshot else []
    return public_page(request, "standings/public/standings.html", context)
