"""Event-level selectors: the recommended structure (P-RT-1), division summaries, the
home page's event lists and the staff players list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q

from rulesets import get_ruleset
from rulesets.tables import Recommendation

from ..groups import group_label, swiss_group
from ..models import Division, Event, EventStaff, Registration, StaffRole


@dataclass(frozen=True)
class DivisionSummary:
    code: str
    label: str
    group: str  # the label of the Swiss pairing group it is paired in
    players: int
    active: int
    rounds: int
    cut: int
    recommended: tuple[int, int]
    rule: str = "P-RT-1"  # the round table read (P-RT-1 … P-RT-7)
    recommendation: Recommendation | None = None  # the whole row read, for its words


def _recommended(event: Event, active: int) -> tuple[Recommendation | None, str]:
    """(recommendation, rule) for a division of ``active`` players from the event's
    round table (the ruleset's, by structure, options and two days: P-RT-1 … P-RT-7),
    read at its first row for fewer players; single-elimination rows recommend 0 Swiss
    rounds. ``(None, rule)`` below two players."""
    ruleset = get_ruleset(event.ruleset)
    table = ruleset.table(event.structure, event.options, event.day2_rounds > 0)
    if active < 2:
        return None, table.rule
    rec = ruleset.recommend(active, event.structure, event.options, event.day2_rounds > 0)
    return rec, rec.rule


def divisions_for_event(event: Event) -> list[DivisionSummary]:
    """Each division with its player counts and announced and recommended structure
    (the event's round table by the active players of the division). 3 queries."""
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
        .prefetch_related("groups__divisions")
    )
    out = []
    for d in rows:
        rec, rule = _recommended(event, d.active)
        out.append(
            DivisionSummary(
                d.code,
                d.get_code_display(),
                group_label(swiss_group(d)),
                d.n,
                d.active,
                d.rounds,
                d.cut,
                (rec.rounds, rec.cut) if rec else (0, 0),
                rule,
                rec,
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
