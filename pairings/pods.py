"""Pairing groups ("pods") of an event and what each needs next.

A Swiss pod is the set of divisions paired together (R-5); each division with a top cut
gets its own bracket pod, named ``<division>-top-cut``, whose rounds continue the
numbering of its Swiss pod. Pod names and labels (``CUT_SUFFIX``, ``pod_label``) come
from ``tournaments.pods``; this module re-exports them for its callers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from django.db.models import QuerySet

from tournaments.models import Division, Event, Match, MatchSeat, Phase, Round, RoundStatus
from tournaments.multiplayer import uses_pods
from tournaments.pods import CUT_SUFFIX as CUT_SUFFIX  # re-exported
from tournaments.pods import cut_pod_name, flight_pod, split_flight
from tournaments.pods import pod_label as pod_label  # re-exported

from .engine.elimination import THIRD_PLACE_WHY, bracket_order


class StepKind(StrEnum):
    SWISS = "swiss"
    TOP_CUT = "top-cut"
    ELIMINATION = "elimination"
    DAY2 = "day2"
    WAIT = "wait"
    DONE = "done"


@dataclass(frozen=True)
class Step:
    """The next thing a pod needs: kind, the round number to create, a sentence for staff."""

    kind: StepKind
    number: int
    message: str
    last: Round | None
    divisions: list[Division] = field(default_factory=list)

    @property
    def can_pair(self) -> bool:
        ready = self.last is None or self.last.status == RoundStatus.COMPLETE
        kinds = (StepKind.SWISS, StepKind.TOP_CUT, StepKind.ELIMINATION, StepKind.DAY2)
        return ready and self.kind in kinds


def bracket_matches(rnd: Round) -> QuerySet[Match]:
    """The matches of an elimination round that advance someone (not the 3rd/4th playoff)."""
    return rnd.matches.filter(table__isnull=False).exclude(why__startswith=THIRD_PLACE_WHY)


def is_age_modified(pod: str) -> bool:
    """A Swiss pod of several age divisions (``junior+senior``) is age-modified (P-AGE-3,
    R-5); ``repair_services`` uses the same test."""
    return "+" in pod and not pod.endswith(CUT_SUFFIX)


def cut_pod(division: Division) -> str:
    return cut_pod_name(division.code)


def event_pods(event: Event) -> list[str]:
    """Swiss pods in division order, then the bracket pods that have rounds. A pod none
    of whose divisions has a player is left out (an empty division has nothing to pair),
    unless the event has no player at all yet."""
    filled = set(event.registrations.values_list("division__pod", flat=True))
    divisions = [d for d in event.divisions.order_by("code") if d.pod in filled or not filled]
    swiss = list(
        dict.fromkeys(
            flight_pod(d.pod, n) if d.flights else d.pod
            for d in divisions
            for n in range(1, max(d.flights, 1) + 1)
        )
    )  # a flighted division pairs each flight as its own group (P-FL-1)
    cuts = sorted(set(event.rounds.filter(phase=Phase.TOP_CUT).values_list("pod", flat=True)))
    return swiss + cuts


def cut_seeds(event: Event, pod: str) -> dict[int, int]:
    """``{registration id: seed}`` of a bracket pod, from its first round's bracket order."""
    first = event.rounds.filter(pod=pod).order_by("number").first()
    if first is None:
        return {}
    seats = list(
        MatchSeat.objects.filter(round=first)
        .order_by("match__table", "seat")
        .values_list("registration_id", flat=True)
    )
    order = bracket_order(len(seats))
    return {reg: seed for reg, seed in zip(seats, order, strict=True)}


def wait_message(last: Round) -> str:
    """What staff do next while ``last`` is not complete (paired, published, running)."""
    if last.status == RoundStatus.PAIRED:
        return f"Round {last.number} is paired: review and publish it."
    if last.status == RoundStatus.PUBLISHED:
        return f"Round {last.number} is published: start it when players are seated."
    return f"Round {last.number} is running: enter its results."


def _se_step(event: Event, pod: str) -> Step:
    """What a standalone single-elimination pod needs next (P-SE-1 … P-SE-6)."""
    last = event.rounds.filter(pod=pod).order_by("number").last()
    if last is None:
        return Step(StepKind.ELIMINATION, 1, "Seed the players at random and pair round 1.", None)
    if last.status != RoundStatus.COMPLETE:
        return Step(StepKind.WAIT, last.number, wait_message(last), last)
    slots = last.matches.exclude(why__startswith=THIRD_PLACE_WHY).count()
    if slots == 1:
        return Step(StepKind.DONE, last.number + 1, "The final is played.", last)
    return Step(StepKind.ELIMINATION, last.number + 1, f"Pair round {last.number + 1}.", last)


def _flights_in_swiss(event: Event, base: str, divisions: list[Division], rounds: int) -> list[str]:
    """Flights of the division still playing Swiss: the merged cut waits for them."""
    flights = max((d.flights for d in divisions), default=0)
    done = RoundStatus.COMPLETE
    return [
        str(n)
        for n in range(1, flights + 1)
        if event.rounds.filter(pod=flight_pod(base, n), status=done).count() < rounds
    ]


def next_step(event: Event, pod: str) -> Step:
    """What ``pod`` needs next (pure read). Swiss pods: Swiss rounds up to the announced
    count, then the top cut of each division that has one; bracket pods: the next
    elimination round until one match is left."""
    if uses_pods(event):  # multiplayer pods have their own cut rounds (MP-SE-1)
        from .pod_services import pod_next_step

        return pod_next_step(event, pod)
    if event.structure == "single-elimination":  # standalone bracket (P-SE)
        return _se_step(event, pod)
    rounds = list(event.rounds.filter(pod=pod).order_by("number"))
    last = rounds[-1] if rounds else None
    if last is not None and last.status != RoundStatus.COMPLETE:
        return Step(StepKind.WAIT, last.number, wait_message(last), last)
    number = (last.number if last else 0) + 1
    if pod.endswith(CUT_SUFFIX):
        if last is not None and bracket_matches(last).count() > 1:
            return Step(StepKind.ELIMINATION, number, f"Pair top-cut round {number}.", last)
        return Step(StepKind.DONE, number, f"{pod_label(pod)} is finished.", last)
    base, flight = split_flight(pod)
    divisions = list(event.divisions.filter(pod=base).order_by("code"))
    swiss_total = max((d.rounds for d in divisions), default=0)
    if len(rounds) < swiss_total:
        return Step(StepKind.SWISS, number, f"Pair Swiss round {number} of {swiss_total}.", last)
    if len(rounds) < swiss_total + event.day2_rounds:  # two-day event: P-D2-1, R-3
        k = len(rounds) - swiss_total + 1
        cut = " Day 2 cut: 19+ match points or the top 32." if k == 1 else ""
        message = f"Pair Day 2 round {k} of {event.day2_rounds}.{cut}"
        return Step(StepKind.DAY2, number, message, last)
    if flight is not None and (busy := _flights_in_swiss(event, base, divisions, swiss_total)):
        message = f"Waiting for flight {', '.join(busy)} to finish the Swiss."
        return Step(StepKind.WAIT, number, message, last)
    cut_pods = set(event.rounds.filter(phase=Phase.TOP_CUT).values_list("pod", flat=True))
    waiting = [d for d in divisions if d.cut and cut_pod(d) not in cut_pods]
    if waiting:
        names = ", ".join(f"top {d.cut} {d.get_code_display()}" for d in waiting)
        return Step(StepKind.TOP_CUT, number, f"Swiss is over: cut to {names}.", last, waiting)
    return Step(StepKind.DONE, number, "Swiss is over; no more rounds to pair.", last)
