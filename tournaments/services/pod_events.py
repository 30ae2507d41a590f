"""Announcing a multiplayer pod event's structure: Swiss rounds and the pod top cut
(P-RT-6, MP-SE-1)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from ..actors import Actor
from ..errors import InvalidInput
from ..models import Event, Phase
from ..multiplayer import POD_CUT_SIZES
from .audit import audit_log


@transaction.atomic
def pod_cut_set(*, event: Event, cut: int, by: Actor, swiss_rounds: int | None = None) -> Event:
    """Announce a pod top cut of ``cut`` players (0, or 4, 7, 10, 13, 16, 40, 64:
    MP-SE-1, P-RT-6) on the event, and optionally the Swiss rounds; division overrides
    are cleared so every division reads the event's cut. Raises InvalidInput for another
    size, or once the top cut has started. Audited."""
    if cut and cut not in POD_CUT_SIZES:
        sizes = ", ".join(map(str, POD_CUT_SIZES))
        raise InvalidInput(
            gettext("A multiplayer top cut has 0 or %(sizes)s players.") % {"sizes": sizes}
        )
    if swiss_rounds is not None and not 1 <= swiss_rounds <= 20:
        raise InvalidInput(gettext("Swiss rounds must be from 1 to 20."))
    if event.rounds.filter(phase=Phase.TOP_CUT).exists():
        raise InvalidInput(gettext("The top cut has started: its size is fixed."))
    old = {"cut": {d.code: d.cut for d in event.divisions.all()}, "rounds": event.swiss_rounds}
    event.top_cut_size = cut
    event.divisions.update(top_cut_size=None)
    if swiss_rounds is not None:
        event.swiss_rounds = swiss_rounds
        event.divisions.update(swiss_rounds=None)
    event.save(update_fields=["top_cut_size", "swiss_rounds"])
    new = {"cut": cut, "rounds": event.swiss_rounds}
    audit_log(event=event, by=by, action="event.structure", obj=event, old=old, new=new)
    return event
