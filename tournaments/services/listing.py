"""Who finds an event, and removing one.

A new event made on the New-event page is a draft (``EventListing.DRAFT``): it is not on
the home page and its public pages answer 404 to everyone but its staff
(``views.common.public_event_or_404``). Publishing lists it; a listed event can be
unlisted (off the home page, its links keep working) and listed again. A draft, or an
event without a single played result, can be deleted after its name is typed.
"""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction
from django.utils.translation import gettext

from ..actors import Actor, actor_name
from ..errors import InvalidInput
from ..models import (
    PLAYED_KINDS,
    CutSeed,
    Event,
    EventListing,
    Match,
    Outcome,
    PenaltyNote,
    Player,
    Registration,
    Round,
)
from ..public_pages import public_pages_forget
from .audit import audit_log

logger = logging.getLogger(__name__)

# listing → (the listings it may come from, the refusal when it may not)
_MOVES: dict[str, frozenset[str]] = {
    EventListing.LISTED: frozenset({EventListing.DRAFT, EventListing.UNLISTED}),
    EventListing.UNLISTED: frozenset({EventListing.LISTED}),
}


@transaction.atomic
def event_listing_set(*, event: Event, listing: str, by: Actor) -> Event:
    """Publish a draft or list an unlisted event again (``listing="listed"``), or take a
    listed event off the home page (``"unlisted"``). Audited as ``event.listing``.

    An event never goes back to draft: once its pages were public, links to them may be
    out. Raises InvalidInput for another listing or a move from the wrong one (publishing
    an event already listed); nothing changes then.
    """
    if listing not in _MOVES:
        raise InvalidInput(
            gettext("%(listing)r is not a listing: use listed or unlisted.") % {"listing": listing}
        )
    ev = Event.objects.select_for_update().get(pk=event.pk)
    if ev.listing not in _MOVES[listing]:
        raise InvalidInput(
            gettext("The event is %(now)s: it cannot be made %(wanted)s.")
            % {
                "now": EventListing(ev.listing).label.lower(),
                "wanted": EventListing(listing).label.lower(),
            }
        )
    old = ev.listing
    ev.listing = listing
    ev.save(update_fields=["listing"])
    audit_log(
        event=ev,
        by=by,
        action="event.listing",
        obj=ev,
        old={"listing": old},
        new={"listing": listing},
    )
    return ev


def event_has_results(event: Event) -> bool:
    """Whether a result was recorded at ``event``: a Swiss, bracket or playoff match no
    longer pending (a bye or a late-entry loss is no result). 1 query."""
    return (
        Match.objects.filter(round__event=event, kind__in=PLAYED_KINDS)
        .exclude(outcome=Outcome.PENDING)
        .exists()
    )


def event_deletable(event: Event) -> bool:
    """A draft, or any event without a recorded result (:func:`event_has_results`), may
    be deleted. 0–1 query."""
    return event.listing == EventListing.DRAFT or not event_has_results(event)


def event_rows_delete(event: Event) -> None:
    """Delete ``event`` and every row recorded at it (rounds, registrations, staff,
    audit trail …) and its players who are in no other event, in the caller's
    transaction. No check and no log: :func:`event_delete` for staff, and bringing an
    event back from a venue (``interchange.services.venue``), which replaces its rows."""
    player_ids = list(Registration.objects.filter(event=event).values_list("player_id", flat=True))
    # Rows that protect a registration go first (seats, self-reports, seeds, notes), then
    # the registrations (which protect the divisions), then the event with the rest.
    Round.objects.filter(event=event).delete()
    CutSeed.objects.filter(registration__event=event).delete()
    PenaltyNote.objects.filter(event=event).delete()
    Registration.objects.filter(event=event).delete()
    event.delete()
    Player.objects.filter(pk__in=player_ids, registrations__isnull=True).delete()


@transaction.atomic
def event_delete(*, event: Event, confirm: str, by: Actor) -> str:
    """Delete ``event`` and everything recorded at it: divisions, registrations, rounds,
    staff roles, invites, notes, its audit trail, and the players who were in no other
    event. ``confirm`` must be the event's name as shown (spaces around it ignored).

    Returns the deleted event's name. The audit trail goes with the event, so the
    deletion is written to the log (``tournaments.services.listing``: who, which event).
    Raises InvalidInput when ``confirm`` is not the name, or the event is listed or
    unlisted and has a recorded result; nothing is deleted then.
    """
    ev = Event.objects.select_for_update().get(pk=event.pk)
    if confirm.strip() != ev.name:
        raise InvalidInput(
            gettext("Type the event's name, %(name)s, exactly to delete it.") % {"name": ev.name}
        )
    if not event_deletable(ev):
        raise InvalidInput(
            gettext(
                "%(name)s has results, so it cannot be deleted. A finished event can be "
                "unlisted instead: off the home page, its links keep working."
            )
            % {"name": ev.name}
        )
    name, slug, pk = ev.name, ev.slug, ev.pk
    event_rows_delete(ev)
    transaction.on_commit(partial(public_pages_forget, slug))
    logger.info(
        "event deleted: %s (%s, id %s) by %s",
        name,
        slug,
        pk,
        actor_name(by, "system"),
    )
    return name
