"""One module per pairing procedure, and the table that finds it (Tabbycat's draw
managers picked per draw type).

``tournaments.procedures.group_stages`` says which stages a pairing group plays, in order;
:data:`PROCEDURES` maps each stage to its module here, which says what the stage needs
next and pairs it: ``swiss`` (age-modified through ``age_modified``), ``day2``,
``flights``, ``top_cut`` (the cut, the bracket and its 3rd/4th playoff; MTG playoff
seating in ``mtg_playoff``), ``single_elimination`` and ``pods`` (multiplayer). The
orderings these stages are paired from live in ``standings``.
"""

from __future__ import annotations

import secrets

from tournaments.actors import Actor
from tournaments.errors import PairingRefused
from tournaments.groups import swiss_group
from tournaments.models import Event, GroupPhase, PairingGroup, Round, RoundStatus
from tournaments.procedures import Stage, group_stages
from tournaments.services.checkin import checkin_pending
from tournaments.stored_text import gettext_storable

from . import day2, flights, pods, single_elimination, swiss, top_cut
from .base import PAIRABLE, Group, Procedure, Step, StepKind, wait_message

PROCEDURES: dict[Stage, Procedure] = {
    Stage.SWISS: swiss.PROCEDURE,
    Stage.DAY2: day2.PROCEDURE,
    Stage.FLIGHTS: flights.PROCEDURE,
    Stage.TOP_CUT: top_cut.CUT,
    Stage.BRACKET: top_cut.BRACKET,
    Stage.SINGLE_ELIMINATION: single_elimination.PROCEDURE,
    Stage.POD_SWISS: pods.SWISS,
    Stage.POD_CUT: pods.CUT,
    Stage.POD_BRACKET: pods.BRACKET,
}


def group_next_step(group: Group) -> Step:
    """What ``group`` needs next (pure read): wait for its last round to be complete,
    else ask each of its stages in turn (``tournaments.procedures.group_stages``); the
    first that is not over says what comes next, with the stage that pairs it. Before
    round 1 of an event whose check-in is not closed (``services.checkin.checkin_pending``)
    it waits for Close check-in: nothing is paired."""
    last = group.last
    if last is not None and last.status != RoundStatus.COMPLETE:
        return Step(StepKind.WAIT, last.number, wait_message(last), last)
    if last is None and checkin_pending(group.event):
        wait = gettext_storable(
            "Close check-in first: it removes the absent players and sets the rounds."
        )
        return Step(StepKind.WAIT, group.number, wait, None)
    for stage in group_stages(group.event, group.row):
        step = PROCEDURES[stage].next_step(group)
        if step is not None:
            return Step(step.kind, step.number, step.message, step.last, step.divisions, stage)
    done = gettext_storable("Swiss is over; no more rounds to pair.")
    return Step(StepKind.DONE, group.number, done, last)


def load_group(event: Event, group: PairingGroup | str) -> Group:
    """Pairing group ``group`` of ``event`` (the row, or its key: a form, a command) as
    it stands. Raises PairingGroup.DoesNotExist for an unknown key."""
    if isinstance(group, str):
        group = event.groups.prefetch_related("divisions").get(key=group)
    return Group(event, group)


def next_step(event: Event, group: PairingGroup | str) -> Step:
    """What pairing group ``group`` of ``event`` (the row, or its key) needs next
    (:func:`group_next_step`). Raises PairingGroup.DoesNotExist for an unknown key."""
    return group_next_step(load_group(event, group))


def pair_step(group: Group, step: Step, *, by: Actor, seed: int | None = None) -> list[Round]:
    """Pair ``step`` (what :func:`group_next_step` said ``group`` needs) by the module of
    its stage and return the new round(s). Call inside the caller's transaction and event
    lock, once the previous round is complete (R-6). ``seed`` is drawn when None (I-1).
    Raises PairingRefused when the step pairs nothing (its sentence), and what the
    procedure raises."""
    pair = PROCEDURES[step.stage].pair if step.stage is not None else None
    if step.kind not in PAIRABLE or pair is None:
        raise PairingRefused(step.message)
    return pair(group, step, by, secrets.randbits(48) if seed is None else seed)


def event_groups(event: Event) -> list[PairingGroup]:
    """The groups to pair, divisions prefetched: Swiss groups in division order (a
    flighted division's flights instead of its group, P-FL-1), then the cut groups that
    have rounds, by key. A group none of whose divisions has a player is left out (an
    empty division has nothing to pair), unless the event has no player at all yet."""
    filled = set(event.registrations.values_list("division_id", flat=True))
    divisions = [
        d
        for d in event.divisions.prefetch_related(
            "groups__divisions", "groups__children__divisions"
        ).order_by("code")
        if d.pk in filled or not filled
    ]
    swiss: dict[int, PairingGroup] = {}
    for d in divisions:
        root = swiss_group(d)
        flights = [g for g in root.children.all() if g.flight is not None] if d.flights else []
        for g in sorted(flights, key=lambda g: g.flight or 0) or [root]:
            swiss.setdefault(g.pk, g)
    cuts = (
        event.groups.filter(phase=GroupPhase.TOP_CUT, rounds__isnull=False)
        .distinct()
        .prefetch_related("divisions")
        .order_by("key")
    )
    return [*swiss.values(), *cuts]


def event_group_keys(event: Event) -> list[str]:
    """The keys of :func:`event_groups`, in its order."""
    return [g.key for g in event_groups(event)]


def event_done(event: Event) -> bool:
    """True when every pairing group of ``event`` is done: nothing left to pair or enter
    (``interchange.services.imports`` asks this of an imported event)."""
    return all(next_step(event, g).kind == StepKind.DONE for g in event_groups(event))
