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
from typing import Any

from tournaments.errors import PairingImpossible
from tournaments.models import Event, Phase, Round, RoundStatus
from tournaments.pods import flight_pod
from tournaments.procedures import Stage, group_stages

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
    first that is not over says what comes next, with the stage that pairs it."""
    last = group.last
    if last is not None and last.status != RoundStatus.COMPLETE:
        return Step(StepKind.WAIT, last.number, wait_message(last), last)
    for stage in group_stages(group.event, group.pod):
        step = PROCEDURES[stage].next_step(group)
        if step is not None:
            return Step(step.kind, step.number, step.message, step.last, step.divisions, stage)
    return Step(StepKind.DONE, group.number, "Swiss is over; no more rounds to pair.", last)


def next_step(event: Event, pod: str) -> Step:
    """What pairing group ``pod`` of ``event`` needs next (:func:`group_next_step`)."""
    return group_next_step(Group(event, pod))


def pair_step(group: Group, step: Step, *, by: Any, seed: int | None = None) -> list[Round]:
    """Pair ``step`` (what :func:`group_next_step` said ``group`` needs) by the module of
    its stage and return the new round(s). Call inside the caller's transaction and event
    lock, once the previous round is complete (R-6). ``seed`` is drawn when None (I-1).
    Raises PairingImpossible when the step pairs nothing (its sentence), and what the
    procedure raises."""
    pair = PROCEDURES[step.stage].pair if step.stage is not None else None
    if step.kind not in PAIRABLE or pair is None:
        raise PairingImpossible(step.message)
    return pair(group, step, by, secrets.randbits(48) if seed is None else seed)


def event_pods(event: Event) -> list[str]:
    """Swiss pods in division order, then the bracket pods that have rounds. A pod none
    of whose divisions has a player is left out (an empty division has nothing to pair),
    unless the event has no player at all yet."""
    filled = set(event.registrations.values_list("division__pod", flat=True))
    divisions = [d for d in event.divisions.order_by("code") if d.pod in filled or not filled]
    swiss_pods = list(
        dict.fromkeys(
            flight_pod(d.pod, n) if d.flights else d.pod
            for d in divisions
            for n in range(1, max(d.flights, 1) + 1)
        )
    )  # a flighted division pairs each flight as its own group (P-FL-1)
    cuts = sorted(set(event.rounds.filter(phase=Phase.TOP_CUT).values_list("pod", flat=True)))
    return swiss_pods + cuts


def event_done(event: Event) -> bool:
    """True when every pairing group of ``event`` is done: nothing left to pair or enter
    (``tournaments.procedures.groups_done`` asks this)."""
    return all(next_step(event, pod).kind == StepKind.DONE for pod in event_pods(event))
