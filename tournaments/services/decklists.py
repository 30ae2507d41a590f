"""Deck lists / team lists for Championship Point events (P-POST-5).

Staff record a player's list as received (the pasted text is optional), see who is
still missing one, and during Swiss draw a random deck check: ``count`` active players
chosen from a stored seed (I-1), the seed and the names kept in the audit row so the
draw can be replayed and judges see the list. At the top cut the cut players' status is
shown and a missing list becomes a note of the cut round (``pairings.services``).
"""

from __future__ import annotations

import random
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from ..actors import Actor
from ..errors import InvalidInput
from ..models import AuditEvent, Event, Registration
from ..selectors.names import with_shown_names
from .audit import audit_log

DECK_CHECK_ACTION = "decklist.check"


def _require_cp(event: Event) -> None:
    """P-POST-5: only an event that collects deck lists (a Championship
    Point event by default; ``Event.collects_decklists``) records them and checks them."""
    if not event.collects_decklists:
        raise InvalidInput(
            gettext(
                "This event does not collect deck lists: the organiser turns them on in Deck lists."
            )
        )


@transaction.atomic
def decklist_record(*, registration: Registration, by: Actor, text: str = "") -> Registration:
    """Record ``registration``'s deck list / team list as received now (P-POST-5), with
    the pasted ``text`` when given (a list received again replaces the text), kept as
    received even when the deck rules would refuse it (a paper list is a judge's matter;
    the judges' page shows the problems). Audited. Raises InvalidInput when the event
    collects no deck lists (``Event.collects_decklists``)."""
    reg = Registration.objects.select_for_update().select_related("event").get(pk=registration.pk)
    _require_cp(reg.event)
    old = {"received": reg.decklist_received_at is not None, "chars": len(reg.decklist)}
    reg.decklist, reg.decklist_received_at = text.strip(), timezone.now()
    reg.save(update_fields=["decklist", "decklist_received_at"])
    audit_log(
        event=reg.event,
        by=by,
        action="decklist.record",
        obj=reg,
        old=old,
        new={"received": True, "chars": len(reg.decklist)},
    )
    return reg


def decklists_missing(event: Event) -> list[Registration]:
    """Active players of ``event`` with no deck list received, by name (P-POST-5)."""
    missing = event.registrations.filter(
        decklist_received_at__isnull=True, disqualified=False, dropped_after_round__isnull=True
    )
    return list(with_shown_names(missing, event.pk).order_by("player__name"))


def deck_check_pick(candidates: list[str], count: int, seed: int) -> list[str]:
    """The players of a random deck check: ``count`` of ``candidates`` (registration ids
    as strings, sorted so the draw does not depend on query order) chosen uniformly
    from ``random.Random(seed)`` (I-1). Deterministic: replaying the seed gives the same
    players in the same order."""
    pool = sorted(candidates, key=int)
    return random.Random(seed).sample(pool, min(count, len(pool)))


@transaction.atomic
def deck_check_draw(
    *, event: Event, count: int, by: Actor, seed: int | None = None
) -> list[Registration]:
    """Draw a random deck check among the active players (P-POST-5, I-1): returns the
    chosen registrations; the seed, the round and the players are in the audit row.
    Raises InvalidInput at an event that collects no lists, for a count below 1, or when
    no Swiss round has been paired yet."""
    _require_cp(event)
    if count < 1:
        raise InvalidInput(gettext("Check at least one player."))
    last = event.rounds.order_by("-number").first()
    if last is None:
        raise InvalidInput(
            gettext("Random deck checks are drawn during Swiss, once round 1 is paired.")
        )
    active = event.registrations.filter(disqualified=False, dropped_after_round__isnull=True)
    seed = secrets.randbits(48) if seed is None else seed
    chosen = deck_check_pick([str(pk) for pk in active.values_list("pk", flat=True)], count, seed)
    regs = Registration.objects.select_related("player").in_bulk([int(c) for c in chosen])
    picked = [regs[int(c)] for c in chosen]
    audit_log(
        event=event,
        by=by,
        action=DECK_CHECK_ACTION,
        round_number=last.number,
        new={"seed": seed, "count": count, "players": [r.pk for r in picked]},
    )
    return picked


def deck_checks_for_staff(event: Event) -> list[tuple[AuditEvent, list[Registration]]]:
    """Every deck check drawn at ``event``, newest first, with its players. 2 queries."""
    checks = list(event.audit.filter(action=DECK_CHECK_ACTION).order_by("-at", "-pk"))
    drawn = [(c, (c.new or {}).get("players", [])) for c in checks]
    regs = with_shown_names(Registration.objects.all(), event.pk).in_bulk(
        {pk for _, ids in drawn for pk in ids}
    )
    return [(c, [regs[pk] for pk in ids if pk in regs]) for c, ids in drawn]
