"""Closing check-in: fix the age mode, the pods and the announced rounds and cuts.

Decision (docs/rules.md does not say when): the age mode is decided by the players actually
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

Check-in for real: the plan counts the players checked in
(``Registration.checked_in_at``, ``tournaments.services.checkin``), everyone while nobody
is. Closing removes the absentees (the players not checked in, and those who dropped
before round 1) once the organiser confirmed that very list: their registrations are
deleted, so they have no place in the standings or the exports, and one audit row
(``event.checkin_absent_removed``) keeps their names. Closing with nobody checked in
counts every registered player present and checks them all in (the behaviour before
check-in existed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from rulesets import get_ruleset
from rulesets.tables import Recommendation
from tournaments.actors import Actor, acting_user
from tournaments.errors import InvalidInput
from tournaments.groups import set_swiss_groups
from tournaments.models import Division, Event, PenaltyNote, Registration, Structure
from tournaments.services import audit_log
from tournaments.services.checkin import checkin_absentees
from tournaments.stored_text import stored

from .engine.ages import AgeMode, age_structure

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
    """Players present per division code: the active (not dropped, not disqualified)
    players checked in, or every active player while nobody is checked in (
    item 4: the age plan and the pairing use the players checked in). 1 query."""
    regs = Registration.objects.filter(
        event=event, disqualified=False, dropped_after_round__isnull=True
    ).values_list("division__code", "checked_in_at")
    rows = list(regs)
    if any(at is not None for _, at in rows):
        rows = [(code, at) for code, at in rows if at is not None]
    return dict(Counter(code for code, _ in rows))


def proposed_rounds(event: Event) -> int | None:
    """The Swiss rounds closing check-in proposes (S-2, S-3): those the organiser
    announced (``Event.swiss_rounds``: chosen on the New-event page, then what the last
    close set) for an event of one division; None when none were announced (0) or the
    event has several divisions, whose pairing groups each read the round table with
    the players present (P-AGE-4): then the table's (:func:`age_plan`). 1 query."""
    if not event.swiss_rounds or event.divisions.count() != 1:
        return None
    return event.swiss_rounds


def _recommend(event: Event, players: int) -> Recommendation:
    """The event's round table read for ``players`` (at its first row for fewer): P-RT-2
    for a two-day event of a ruleset with Day 2, the 2009 Swiss table for a Swiss-only
    event (P-RT-4), MTG's draft playoff (P-RT-5) — the ruleset chooses."""
    structure = event.structure if event.structure == Structure.SWISS else ""
    ruleset = get_ruleset(event.ruleset)
    return ruleset.recommend(players, structure, event.options, two_day=_two_day_table(event))


def _two_day_table(event: Event) -> bool:
    return event.day2_rounds > 0 and get_ruleset(event.ruleset).features.day2


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
    try:  # the shared source of truth of check-in, planner and pages
        found = age_structure(
            counts,
            lambda players: _recommend(event, players),
            rounds=swiss_rounds,
            top_cut=top_cut,
            cuts=event.structure != Structure.SWISS,
            # a row without Swiss rounds (P-RT-5 5–8 Magic players) keeps the announced
            fallback_rounds=event.swiss_rounds,
        )
    except ValueError as e:
        raise InvalidInput(str(e)) from None
    plans = [
        GroupPlan(g.key, g.counts, g.basis, g.rounds, g.cuts, g.recommendation)
        for g in found.groups
    ]
    return AgePlan(found.mode, tuple(plans))


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
    *,
    event: Event,
    by: Actor,
    swiss_rounds: int | None = None,
    top_cut: int | None = None,
    absent: Collection[int] | None = None,
) -> AgePlan:
    """Close check-in: remove the absentees, apply :func:`age_plan` to the event's
    divisions (pairing groups, Swiss rounds, cuts) and record the age mode and its reason
    on the event.

    ``absent``: the registration ids of the absentees the organiser confirmed
    (``tournaments.services.checkin.checkin_absentees``, shown before closing); they must
    be exactly the absentees now, else InvalidInput asks to review the list again (a
    player checked in meanwhile is never removed). Their registrations are deleted (no
    place in the standings), audited with their names. With nobody
    checked in, every active player is checked in (everyone present).

    Refused (InvalidInput) once a round exists, when an absentee has a penalty note (it
    must stay), and when the plan would pair a flighted division with another (flights
    are for age-separated divisions only, P-FL-1); nothing changes then. Implements
    P-AGE-2 … P-AGE-6, R-5, P-RT-1 … P-RT-4, S-3."""
    ev = Event.objects.select_for_update().get(pk=event.pk)
    if ev.rounds.exists():
        raise InvalidInput(
            gettext("Round 1 is already paired: the pods and the age mode are fixed.")
        )
    removed = _remove_absentees(ev, by, absent)
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
    everyone = _check_everyone_in(ev, by)
    audit_log(
        event=ev,
        by=by,
        action="event.checkin_close",
        obj=ev,
        new={
            "mode": ev.age_style,
            "groups": {p.group: [p.rounds, p.cuts] for p in plan.groups},
            "removed": removed,
            "everyone_present": everyone,
        },
    )
    return plan


def _remove_absentees(event: Event, by: Actor, confirmed: Collection[int] | None) -> int:
    """Delete the absentees' registrations once ``confirmed`` names exactly them; audited
    with their names. Returns how many were removed. Raises InvalidInput (nothing
    deleted) when the list changed since it was shown or an absentee has a penalty note."""
    absentees = checkin_absentees(event)
    if not absentees:
        return 0
    if confirmed is None or set(confirmed) != {r.pk for r in absentees}:
        raise InvalidInput(
            gettext(
                "The list of players not checked in has changed (%(count)s now): review it"
                " and confirm again."
            )
            % {"count": len(absentees)}
        )
    noted = set(
        PenaltyNote.objects.filter(registration__in=absentees).values_list(
            "registration_id", flat=True
        )
    )
    if noted:
        name = next(r.player.name for r in absentees if r.pk in noted)
        raise InvalidInput(
            gettext(
                "%(name)s has a penalty note, so their entry must stay: check them in, or"
                " disqualify them, before closing check-in."
            )
            % {"name": name}
        )
    audit_log(
        event=event,
        by=by,
        action="event.checkin_absent_removed",
        obj=event,
        old={
            "players": [
                {
                    "name": r.player.name,
                    "player_id": r.player.player_id,
                    "division": r.division.code,
                    "external_id": r.external_id,
                    "dropped_after_round": r.dropped_after_round,
                }
                for r in absentees
            ]
        },
        reason="Not checked in when check-in closed.",
    )
    Registration.objects.filter(pk__in=[r.pk for r in absentees]).delete()
    return len(absentees)


def _check_everyone_in(event: Event, by: Actor) -> bool:
    """Nobody checked in: closing counts every active player present, so check them all
    in (one UPDATE). Returns True when it did."""
    active = Registration.objects.filter(
        event=event, disqualified=False, dropped_after_round__isnull=True
    )
    if active.filter(checked_in_at__isnull=False).exists():
        return False
    active.update(checked_in_at=timezone.now(), checked_in_by=acting_user(by))
    return True
