"""Event-level selectors: the recommended structure (P-RT-1), division summaries, the
home page's event lists and the staff players list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q

from ..models import Division, Event, EventStaff, Registration, StaffRole
from ..multiplayer import pod_recommendation, uses_pods
from ..round_tables import recommend, table_for_event

# P-RT-1: (most players in the division, Swiss rounds, top cut); 410+ → 10 rounds, top 8.
P_RT_1 = (
    (8, 3, 0),
    (12, 4, 4),
    (20, 5, 4),
    (32, 5, 8),
    (64, 6, 8),
    (128, 7, 8),
    (226, 8, 8),
    (409, 9, 8),
)


def recommended_structure(players: int) -> tuple[int, int]:
    """Recommended ``(Swiss rounds, top cut size)`` for a division of ``players`` (P-RT-1).

    8 → 3, no cut · 9–12 → 4, top 4 · 13–20 → 5, top 4 · 21–32 → 5, top 8 · 33–64 → 6,
    top 8 · 65–128 → 7 · 129–226 → 8 · 227–409 → 9 · 410+ → 10, all top 8. The table
    starts at 8 players; for fewer we recommend 3 rounds and no cut as for 8 (our
    decision: a smaller event still plays a short Swiss, and a cut of half the field or
    more is not a cut). Age-modified events use the largest division (P-AGE-4).
    """
    for most, rounds, cut in P_RT_1:
        if players <= most:
            return rounds, cut
    return 10, 8


@dataclass(frozen=True)
class DivisionSummary:
    code: str
    label: str
    pod: str
    players: int
    active: int
    rounds: int
    cut: int
    recommended: tuple[int, int]
    rule: str = "P-RT-1"  # the round table read (P-RT-1 … P-RT-7)


def _recommended(event: Event, active: int) -> tuple[tuple[int, int], str]:
    """((Swiss rounds, cut), rule) for a division of ``active`` players from the event's
    round table: P-RT-1 for ``pokemon``, P-RT-6 for pods, else the ruleset's own table
    (P-RT-4 ``pokemon-2009``, P-RT-5 ``mtg``, P-RT-7 ``bo3-wins-against``), read at its
    first row for fewer players. Single-elimination rows recommend 0 Swiss rounds."""
    if uses_pods(event):
        return pod_recommendation(active), "P-RT-6"
    if event.ruleset == "pokemon":
        return recommended_structure(active), "P-RT-1"
    table = table_for_event(
        event.ruleset, event.structure, event.options, two_day=event.day2_rounds > 0
    )
    first = table.rows[0].low if table.rows else 2
    rec = recommend(table, max(active, first))
    return (rec.rounds, rec.cut), table.rule


def divisions_for_event(event: Event) -> list[DivisionSummary]:
    """Each division with its player counts and announced and recommended structure
    (the event's round table by the active players of the division). 1 query."""
    rows = (
        Division.objects.filter(event=event)
        .annotate(
            n=Count("registrations", filter=Q(registrations__disqualified=False)),
            active=Count(
                "registrations",
                filter=Q(
                    registrations__disqualified=False,
                    registrations__dropped_after_round__isnull=True,
                ),
            ),
        )
        .select_related("event")
    )
    out = []
    for d in rows:
        recommended, rule = _recommended(event, d.active)
        out.append(
            DivisionSummary(
                d.code,
                d.get_code_display(),
                d.pod,
                d.n,
                d.active,
                d.rounds,
                d.cut,
                recommended,
                rule,
            )
        )
    return out


def events_for_home(user: Any, limit: int = 30) -> tuple[list[Event], list[Event]]:
    """``(recent events, events the user is staff of)`` for the home page; each of the
    user's events has ``operates`` (organiser or scorekeeper there). 2 queries."""
    recent = list(Event.objects.order_by(F("date").desc(nulls_last=True), "-created_at")[:limit])
    mine: list[Event] = []
    if getattr(user, "is_authenticated", False):
        ids = EventStaff.objects.filter(user=user).values("event_id")
        operates = EventStaff.objects.filter(
            user=user, event=OuterRef("pk"), role__in=[StaffRole.ORGANISER, StaffRole.SCOREKEEPER]
        )
        mine = list(
            Event.objects.filter(pk__in=ids)
            .annotate(operates=Exists(operates))
            .order_by("-created_at")[:limit]
        )
    return recent, mine


def registrations_for_staff(event: Event) -> list[Registration]:
    """Every registration with player and division, alphabetical. 1 query."""
    return list(
        Registration.objects.filter(event=event)
        .select_related("player", "division")
        .order_by("player__name", "pk")
    )
