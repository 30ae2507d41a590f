"""The audit trail: every state change writes one row (P-POST-3, P-POST-4)."""

from __future__ import annotations

from typing import Any

from ..models import AuditEvent, Event, Registration


def actor_fields(by: Any) -> dict[str, Any]:
    """Who acted, as AuditEvent fields: a signed-in user, a player on their private link
    (a Registration), or nobody (a command, the system)."""
    if isinstance(by, Registration):
        return {"actor": None, "actor_registration": by}
    return {"actor": by if getattr(by, "is_authenticated", False) else None}


def audit_log(
    *,
    event: Event,
    by: Any,
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
    """
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
