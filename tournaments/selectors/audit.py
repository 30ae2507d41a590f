"""The audit trail as the staff audit page and its CSV export show it (P-POST-3,
P-POST-4): filterable by round, player (the player concerned) and person (who acted)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from ..models import AuditEvent, Event, Match, MatchSeat, Registration
from .names import registration_name, shown_names, with_shown_names


@dataclass(frozen=True)
class AuditLine:
    """One audit row in words: values show player names instead of ids."""

    at: datetime
    who: str
    action: str
    subject: str
    round_number: int | None
    old: str
    new: str
    reason: str


@dataclass(frozen=True)
class AuditFilter:
    """Parsed filters: a round number, a registration id (the player concerned), and a
    person who acted: ``u<user id>`` (staff) or ``p<registration id>`` (a player)."""

    round_number: int | None = None
    player: int | None = None
    person: str = ""


def _filtered(event: Event, f: AuditFilter) -> QuerySet[AuditEvent]:
    qs = AuditEvent.objects.filter(event=event)
    if f.round_number is not None:
        qs = qs.filter(round_number=f.round_number)
    if f.player is not None:
        matches = MatchSeat.objects.filter(registration_id=f.player).values_list("match_id")
        qs = qs.filter(
            Q(object_type="registration", object_id=str(f.player))
            | Q(object_type="match", object_id__in=[str(m) for (m,) in matches])
            | Q(actor_registration_id=f.player)
        )
    kind, _, ident = f.person.partition(":")
    if kind == "u" and ident.isdigit():
        qs = qs.filter(actor_id=int(ident))
    elif kind == "p" and ident.isdigit():
        qs = qs.filter(actor_registration_id=int(ident))
    elif kind == "system":
        qs = qs.filter(actor__isnull=True, actor_registration__isnull=True)
    return qs


PLAYER_KEYS = ("winner", "player")


def _words(value: Any, names: dict[str, str]) -> str:
    """A stored old/new value as ``key: value`` pairs, player ids replaced by names."""
    if value is None or value == {}:
        return ""
    if not isinstance(value, dict):
        return str(value)
    parts = []
    for key, v in value.items():
        if isinstance(v, dict):  # a player's own report, keyed by their id
            parts.append(f"{names.get(key, key)}: {_words(v, names)}")
            continue
        shown = names.get(str(v), v) if key in PLAYER_KEYS else v
        parts.append(f"{key}: {'—' if shown is None else shown}")
    return "; ".join(parts)


def _subjects(event: Event, rows: list[AuditEvent]) -> dict[str, str]:
    """``{match id: "table N"}`` for the match rows shown. 1 query."""
    ids = [int(r.object_id) for r in rows if r.object_type == "match" and r.object_id.isdigit()]
    return {
        str(pk): f"table {t}" if t else "bye"
        for pk, t in Match.objects.filter(pk__in=ids).values_list("pk", "table")
    }


def audit_for_staff(
    event: Event, f: AuditFilter, limit: int | None = None, offset: int = 0
) -> list[AuditLine]:
    """Audit rows of the event matching ``f``, newest first, in words: ``limit`` rows
    (None: all) after skipping the ``offset`` newest. 4 queries."""
    qs = _filtered(event, f).select_related("actor", "actor_registration__player")
    rows = list(qs[offset : offset + limit] if limit else qs[offset:])
    regs = list(with_shown_names(Registration.objects.filter(event=event), event.pk))
    names = {r.external_id: registration_name(r) for r in regs}  # same names told apart
    players = {str(r.pk): registration_name(r) for r in regs}
    tables = _subjects(event, rows)
    lines = []
    for r in rows:
        if r.actor is not None:
            who = r.actor.get_username()
        elif r.actor_registration is not None:
            reg = r.actor_registration
            who = f"{players.get(str(reg.pk), reg.player.name)} (player link)"
        else:
            who = "system"
        subject = {"match": tables, "registration": players}.get(r.object_type, {}).get(
            r.object_id, r.object_type
        )
        lines.append(
            AuditLine(
                r.at,
                who,
                r.action,
                subject,
                r.round_number,
                _words(r.old, names),
                _words(r.new, names),
                r.reason,
            )
        )
    return lines


AUDIT_PAGE_ROWS = 100  # rows on one page of the audit page


@dataclass(frozen=True)
class AuditPage:
    """One page of the audit trail: its ``lines`` (newest first), its ``number`` (from
    1) of ``pages`` (at least 1), the ``total`` rows matching the filters, and which of
    them the page shows (``first_row``–``last_row``, counted from the newest, 1-based;
    0–0 when none match)."""

    lines: list[AuditLine]
    number: int
    pages: int
    total: int
    first_row: int
    last_row: int


def audit_page_for_staff(
    event: Event, f: AuditFilter, number: int, per_page: int = AUDIT_PAGE_ROWS
) -> AuditPage:
    """Page ``number`` of the audit rows matching ``f``, ``per_page`` rows a page, newest
    first (a page short enough for a phone). A ``number`` below 1 or
    past the last page is brought to the nearest page (the view says so). 5 queries."""
    total = _filtered(event, f).count()
    pages = max(1, math.ceil(total / per_page))
    number = min(max(1, number), pages)
    offset = (number - 1) * per_page
    lines = audit_for_staff(event, f, limit=per_page, offset=offset) if total else []
    first = offset + 1 if lines else 0
    return AuditPage(lines, number, pages, total, first, offset + len(lines))


def audit_people(event: Event) -> list[tuple[str, str]]:
    """``(filter value, label)`` of everyone who acted at the event. 2 queries."""
    people: list[tuple[str, str]] = [("system", "system")]
    user_ids = AuditEvent.objects.filter(event=event, actor__isnull=False).values("actor_id")
    for pk, name in get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"):
        people.append((f"u:{pk}", name))
    reg_ids = AuditEvent.objects.filter(event=event, actor_registration__isnull=False).values_list(
        "actor_registration_id", flat=True
    )
    for pk, name in shown_names(event.pk, reg_ids).items():
        people.append((f"p:{pk}", f"{name} (player link)"))
    return people
