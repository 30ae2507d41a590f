"""The public standings page: no login, phone-first, refreshed while a round is live
(``tournaments.views.common.public_page``). URL name ``public:standings``."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_safe

from tournaments.selectors import standings_for_public
from tournaments.selectors.outlook import outlook_for_public, withdrawn_players
from tournaments.views.common import (
    HtmxRequest,
    public_event_context,
    public_event_or_404,
    public_page,
)
from tournaments.views.prebuilt import prebuilt, standings_page

from ..models import CutOutlook
from ..receipts import receipt_links
from ..services import standings_latest


@require_safe
@prebuilt(standings_page)
def standings(request: HtmxRequest, slug: str) -> HttpResponse:
    """The latest standings: place, record, match points, OWP and OOWP (P-TB-8), each name
    a link to the player's tiebreaker receipt: the prebuilt response
    when stored (no query, ``tournaments.views.prebuilt``), else rendered, 3 queries (one
    more for the receipt links when the tables are not in the template cache, one more
    for the cut-line outlook once there are standings, and one more for the players who
    dropped or were disqualified since, once there is an outlook: their cells say so)."""
    event = public_event_or_404(request, slug)
    context = public_event_context(event)
    snapshot = standings_latest(event)
    context["snapshot"] = snapshot
    context["divisions"] = standings_for_public(snapshot.data) if snapshot else []
    context["receipt_links"] = SimpleLazyObject(lambda: receipt_links(event))  # read if shown
    # the cut-line outlook of these standings, once computed (1 query)
    stored = CutOutlook.objects.filter(snapshot=snapshot).first() if snapshot else None
    # a drop shows at once, without a new simulation (registration_drop rebuilds the page)
    withdrawn = withdrawn_players(event.pk) if stored else {}
    context["outlook"] = outlook_for_public(stored.data, withdrawn) if stored else None
    context["outlook_id"] = stored.pk if stored else 0
    # the tables' template cache holds the cells as they are now: one copy per drop state
    context["withdrawn_key"] = " ".join(f"{pid}:{why}" for pid, why in sorted(withdrawn.items()))
    return public_page(request, "standings/public/standings.html", context)
