"""The audit trail: every state change writes one row (P-POST-3, P-POST-4)."""

from __future__ import annotations

from typing import Any

from .. import live
from ..actors import Actor, acting_user
from ..models import AuditEvent, Event, JudgeCall, Match, Registration, SelfReport

# Audited actions that change a clock (``tournaments.live``): the projector and the staff
# round page follow it. (A round started also rebuilds the public pages, which announce
# themselves: ``public_pages``.)
CLOCK_ACTIONS = frozenset(
    {
        "round.started",
        "round.clock_pause",
        "round.clock_resume",
        "round.clock_add",
        "match.time_extend",
    }
)


def actor_fields(by: Actor) -> dict[str, Any]:
    """Who acted, as AuditEvent fields: a signed-in user, a player on their private link
    (a Registration), or nobody (a command, the system)."""
    if isinstance(by, Registration):
        return {"actor": None, "actor_registration": by}
    return {"actor": acting_user(by)}


def audit_log(
    *,
    event: Event,
    by: Actor,
    action: str,
    obj: Any = None,
    object_type: str = "",
    round_number: int | None = None,
    old: Any = None,
    new: Any = None,
    reason: str = "",
) -> AuditEvent:
    """Write one audit row. ``by`` is a user, a Registration (the player acting on their
    private link) or None (a command or the system).

    ``old`` / ``new`` must be JSON-serialisable values (dicts of plain fields).

    Every audited change is also a change for the live pages: the staff pages
    always; a match's players' own pages when ``obj`` is a match or a self-report, a
    player's own page when it is a registration, the table's players' pages when it is a
    judge call (without ``results``: no result changed); the clock for the actions of
    ``CLOCK_ACTIONS``; ``results`` for a match's. The public pages announce their own
    rebuild (``public_pages``).
    """
    _live(event.pk, action, obj)
    return AuditEvent.objects.create(
        event=event,
        action=action,
        object_type=object_type or (type(obj).__name__.lower() if obj is not None else ""),
        object_id=str(getattr(obj, "pk", "") or ""),
        round_number=round_number,
        old=old,
        new=new,
        reason=reason,
        **actor_fields(by),
    )


def _live(event_id: int, action: str, obj: Any) -> None:
    topics = []
    if isinstance(obj, JudgeCall):  # the board, and the table's players' pages
        at = [obj.match_id] if obj.match_id else []
        live.changed(event_id, registrations=[obj.registration_id], matches=at)
        return
    if action in CLOCK_ACTIONS:
        topics.append(live.CLOCK)
    matches = [obj.pk] if isinstance(obj, Match) else []
    if isinstance(obj, SelfReport):
        matches.append(obj.match_id)
    if matches:
        topics.append(live.RESULTS)
    registrations = [obj.pk] if isinstance(obj, Registration) else []
    live.changed(event_id, *topics, registrations=registrations, matches=matches)
