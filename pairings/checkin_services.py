"""Closing check-in: fix the age mode, the pods and the announced rounds and cuts.

Decision (RULES.md does not say when): the age mode is decided by the players actually
present, so it is fixed by an explicit **Close check-in** step on the staff dashboard,
before round 1 is paired. Until then the dashboard shows the plan it would apply
(:func:`age_plan`); the organiser may close check-in again as long as no round exists.
Closing applies (P-AGE-2 … P-AGE-6, P-RT-1 … P-RT-4):

* age-separated: each division is its own pod;
* age-modified: Junior and Senior share one pod (R-5); Masters joins it when Masters has
  1-5 players, or when the shared pod would otherwise hold one small division alone
  (TOM categories 8, 9, 10);
* each pod's Swiss rounds come from the ruleset's round table read with its largest
  division (P-AGE-4), the cut of each division from ``division_cuts`` (P-AGE-5).

The organiser may choose other rounds or another largest cut (S-3).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from rulesets import get_ruleset
from rulesets.tables import Recommendation
from tournaments.errors import InvalidInput
from tournaments.groups import set_swiss_groups
from tournaments.messages import stored
from tournaments.models import Division, Event, Registration, Structure
from tournaments.services import audit_log

from .engine.ages import DIVISIONS, AgeMode, AgeStyle, age_mode, division_cuts, round_basis

CUTS = (0, 2, 4, 8, 16, 32, 64)
#: The age modes as the dashboard names them (``{% translate event.age_style %}``).
AGE_STYLE_WORDS = (
    gettext_noop("age-separated"),
    gettext_noop("age-modified"),
    gettext_noop("open"),
)


@dataclass(frozen=True)
class GroupPlan:
    """One Swiss pairing group: its key, its divisions' player counts, the players the
    table is read with (P-AGE-4), the Swiss rounds, the cut of each division and the
    table's recommendation."""

    group: str
    counts: dict[str, int]
    basis: int
    rounds: int
    cuts: dict[str, int]
    recommendation: Recommendation


@dataclass(frozen=True)
class AgePlan:
    """What closing check-in applies: the mode with its reason and one GroupPlan per
    Swiss pairing group."""

    mode: AgeMode
    groups: tuple[GroupPlan, ...] = field(default_factory=tuple)

    @property
    def group_of(self) -> dict[str, str]:
        """``{division code: key of its group}``."""
        return {code: p.group for p in self.groups for code in p.counts}


def active_counts(event: Event) -> dict[str, int]:
    """Active (not dropped, not disqualified) players per division code."""
    regs = Registration.objects.filter(
        event=event, disqualified=False, dropped_after_round__isnull=True
    ).values_list("division__code", flat=True)
    return dict(Counter(regs))


def _groups(mode: AgeMode, counts: dict[str, int]) -> list[list[str]]:
    present = [d for d in (*DIVISIONS, "open") if counts.get(d)]
    if mode.style is not AgeStyle.MODIFIED:
        return [[d] for d in present]
    shared = [d for d in ("junior", "senior") if d in present]
    alone_small = len(shared) == 1 and shared[0] in mode.small_divisions
    if "masters" in present and ("masters" in mode.small_divisions or alone_small or not shared):
        return [[*shared, "masters"]]
    return [shared] + ([["masters"]] if "masters" in present else [])


def _recommend(event: Event, players: int) -> Recommendation:
    """The event's round table read for ``players`` (at its first row for fewer): P-RT-2
    for a two-day event of a ruleset with Day 2, the 2009 Swiss table for a Swiss-only
    event (P-RT-4), MTG's draft playoff (P-RT-5) — the ruleset chooses."""
    structure = event.structure if event.structure == Structure.SWISS else ""
    ruleset = get_ruleset(event.ruleset)
    return ruleset.recommend(players, structure, event.options, two_day=_two_day_table(event))


def _two_day_table(event: Event) -> bool:
    return event.day2_rounds > 0 and get_ruleset(event.ruleset).features.day2


def _largest_cut(event: Event, basis: int, cut: int | None) -> int:
    if event.structure == Structure.SWISS:
        return 0
    return _recommend(event, basis).cut if cut is None else cut


def _group_plan(
    event: Event, codes: list[str], counts: dict[str, int], rounds: int | None, cut: int | None
) -> GroupPlan:
    pod_counts = {c: counts[c] for c in codes}
    basis = round_basis(pod_counts)
    rec = _recommend(event, basis)
    cuts = division_cuts(pod_counts, _largest_cut(event, basis, cut))
    # A row without Swiss rounds (P-RT-5 5–8 Magic players: single elimination) keeps
    # the rounds the organiser announced for a Swiss event.
    planned = rounds or rec.rounds or event.swiss_rounds
    return GroupPlan("+".join(codes), pod_counts, basis, planned, cuts, rec)


def age_plan(
    event: Event, *, swiss_rounds: int | None = None, top_cut: int | None = None
) -> AgePlan:
    """The plan closing check-in would apply now (pure read). swiss_rounds / top_cut: the
    organiser's choice instead of the recommendation (top_cut: the largest division's).
    Age-modified events share one cut percentage over every division (P-AGE-5,
    ``division_cuts``); age-separated divisions each read the table (P-AGE-2).
    Raises InvalidInput when no player is checked in or a choice is out of range."""
    counts = active_counts(event)
    if not counts:
        raise InvalidInput(gettext("No players are checked in yet."))
    if swiss_rounds is not None and not 1 <= swiss_rounds <= 20:
        raise InvalidInput(gettext("Swiss rounds must be from 1 to 20."))
    if top_cut is not None and top_cut not in CUTS:
        raise InvalidInput(gettext("The top cut must be 0 (none) or a power of two from 2 to 64."))
    try:
        mode = age_mode(counts)
    except ValueError as e:
        raise InvalidInput(str(e)) from None
    plans = [_group_plan(event, g, counts, swiss_rounds, top_cut) for g in _groups(mode, counts)]
    if mode.age_modified:  # P-AGE-5: about the same percentage of each division
        shared = division_cuts(counts, _largest_cut(event, max(counts.values()), top_cut))
        plans = [replace(p, cuts={d: shared[d] for d in p.counts}) for p in plans]
    return AgePlan(mode, tuple(plans))


def _apply(division: Division, plan: AgePlan) -> None:
    """Give ``division`` its Swiss rounds and cut from ``plan`` (its group is set by
    ``set_swiss_groups``)."""
    key = plan.group_of.get(division.code, division.code)
    group = next((p for p in plan.groups if p.group == key), None)
    division.swiss_rounds = group.rounds if group else 0
    if group and division.flights:  # P-FL-2: one round fewer per doubling of flights
        division.swiss_rounds = max(1, group.rounds - division.flights.bit_length() + 1)
    division.top_cut_size = group.cuts.get(division.code, 0) if group else 0
    division.save(update_fields=["swiss_rounds", "top_cut_size"])


@transaction.atomic
def checkin_close(
    *, event: Event, by: Any, swiss_rounds: int | None = None, top_cut: int | None = None
) -> AgePlan:
    """Close check-in: apply :func:`age_plan` to the event's divisions (pairing groups,
    Swiss rounds, cuts) and record the age mode and its reason on the event. Refused
    (InvalidInput) once a round exists, and when the plan would pair a flighted division
    with another (flights are for age-separated divisions only, P-FL-1). Implements
    P-AGE-2 … P-AGE-6, R-5, P-RT-1 … P-RT-4, S-3."""
    ev = Event.objects.select_for_update().get(pk=event.pk)
    if ev.rounds.exists():
        raise InvalidInput(
            gettext("Round 1 is already paired: the pods and the age mode are fixed.")
        )
    plan = age_plan(ev, swiss_rounds=swiss_rounds, top_cut=top_cut)
    divisions = list(ev.divisions.all())
    shared = {code for p in plan.groups if len(p.counts) > 1 for code in p.counts}
    if flighted := [d for d in divisions if d.flights and d.code in shared]:
        raise InvalidInput(
            gettext(
                "%(division)s is in flights, and this check-in pairs it with other divisions:"
                " flights are for age-separated divisions only (P-FL-1)."
            )
            % {"division": flighted[0].get_code_display()}
        )
    for division in divisions:
        _apply(division, plan)
    set_swiss_groups(ev, {d.code: plan.group_of.get(d.code, d.code) for d in divisions})
    reason = stored(plan.mode.reason)  # shown in the reader's language (messages.shown)
    ev.age_style, ev.age_reason = plan.mode.style.value, reason
    ev.swiss_rounds = max(p.rounds for p in plan.groups)
    ev.top_cut_size = max(c for p in plan.groups for c in p.cuts.values())
    ev.checkin_closed_at = timezone.now()
    ev.save(
        update_fields=["age_style", "age_reason", "swiss_rounds", "top_cut_size"]
        + ["checkin_closed_at"]
    )
    audit_log(
        event=ev,
        by=by,
        action="event.checkin_close",
        obj=ev,
        new={"mode": ev.age_style, "groups": {p.group: [p.rounds, p.cuts] for p in plan.groups}},
    )
    return plan
