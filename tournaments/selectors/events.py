"""Event-level selectors: the recommended structure (P-RT-1), division summaries, the
home page's event lists and the staff players list."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q

from pairings.engine.ages import age_structure
from rulesets import get_ruleset
from rulesets.tables import Recommendation

from ..groups import group_label, swiss_group
from ..models import (
    Division,
    Event,
    EventListing,
    EventStaff,
    Registration,
    StaffRole,
    Structure,
)
from ..procedures import plans_ages_at_checkin


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

    @property
    def differs(self) -> bool:
        """The announced rounds or cut are not the recommendation's (
        the pages then say which applies). A single-elimination row (no Swiss rounds,
        P-RT-5 5–8) is not compared: closing check-in keeps the announced rounds."""
        rec = self.recommendation
        if rec is None or not rec.rounds:
            return False
        return (self.rounds, self.cut) != (rec.rounds, rec.cut)


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


def _shared_recommendations(
    event: Event, present: dict[str, int]
) -> dict[str, Recommendation] | None:
    """``{division code: what closing check-in sets}`` for an event whose check-in plans
    the divisions (``procedures.plans_ages_at_checkin``): the same function
    (``pairings.engine.ages.age_structure``, P-AGE-2 … P-AGE-5) with the same players,
    each division's row with its group's rounds and its own cut. None otherwise, or when
    no structure can be read (no division of two players)."""
    if not plans_ages_at_checkin(event) or not present:
        return None
    ruleset = get_ruleset(event.ruleset)
    two_day = event.day2_rounds > 0

    def read(players: int) -> Recommendation:
        return ruleset.recommend(players, event.structure, event.options, two_day)

    try:
        found = age_structure(
            present,
            read,
            cuts=event.structure != Structure.SWISS,
        )
    except ValueError:
        return None
    return {
        code: replace(
            g.recommendation,
            rounds=g.rounds,
            cut=g.cuts[code],
            elimination_rounds=g.cuts[code].bit_length() - 1 if g.cuts[code] else 0,
        )
        for g in found.groups
        for code in g.counts
    }


def divisions_for_event(event: Event) -> list[DivisionSummary]:
    """Each division with its player counts and announced and recommended structure.
    The recommendation is what closing check-in sets (the same
    function, ``pairings.engine.ages.age_structure``, read with the players checked in,
    everyone active while nobody is; an age-modified division gets its share of the cut,
    P-AGE-5), else the event's round table by the division's active players. 3 queries."""
    active_q = Q(registrations__disqualified=False, registrations__dropped_after_round__isnull=True)
    rows = list(
        Division.objects.filter(event=event)
        .annotate(
            n=Count("registrations", filter=Q(registrations__disqualified=False)),
            active=Count("registrations", filter=active_q),
            checked=Count(
                "registrations",
                filter=active_q & Q(registrations__checked_in_at__isnull=False),
            ),
        )
        .select_related("event")
        .prefetch_related("groups__divisions")
    )
    # the players check-in counts (``pairings.checkin_services.active_counts``)
    checked = any(d.checked for d in rows)
    present = {d.code: d.checked if checked else d.active for d in rows}
    shared = _shared_recommendations(event, {c: n for c, n in present.items() if n})
    out = []
    for d in rows:
        rec, rule = _recommended(event, d.active)
        if shared is not None:
            rec = shared.get(d.code)
            rule = rec.rule if rec else rule
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
    """``(recent listed events, events the user is staff of)`` for the home page; each of
    the user's events has ``operates`` (organiser or scorekeeper there). Drafts and
    unlisted events are only in the user's own list. 2 queries."""
    listed = Event.objects.filter(listing=EventListing.LISTED)
    recent = list(listed.order_by(F("date").desc(nulls_last=True), "-created_at")[:limit])
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
