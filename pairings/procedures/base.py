"""What every procedure module shares: the pairing group as it stands, the next step,
and the table a procedure is looked up in (``pairings.procedures``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import NamedTuple

from tournaments.actors import Actor
from tournaments.models import Division, Event, PairingGroup, Registration, Round, RoundStatus
from tournaments.procedures import Stage
from tournaments.services.rounds import Table
from tournaments.stored_text import gettext_storable

from ..engine.pods import Pod
from ..engine.types import Pairing


class StepKind(StrEnum):
    SWISS = "swiss"
    TOP_CUT = "top-cut"
    ELIMINATION = "elimination"
    DAY2 = "day2"
    WAIT = "wait"
    DONE = "done"


#: The step kinds a pairing run pairs; the others only say what staff do next.
PAIRABLE = (StepKind.SWISS, StepKind.TOP_CUT, StepKind.ELIMINATION, StepKind.DAY2)


@dataclass(frozen=True)
class Step:
    """The next thing a pairing group needs: kind, the round number to create, a sentence for staff,
    the divisions whose cut it takes, and the stage whose module pairs it."""

    kind: StepKind
    number: int
    message: str
    last: Round | None
    divisions: list[Division] = field(default_factory=list)
    stage: Stage | None = None

    @property
    def can_pair(self) -> bool:
        ready = self.last is None or self.last.status == RoundStatus.COMPLETE
        return ready and self.kind in PAIRABLE


class Group:
    """One pairing group of an event as it stands: the :class:`PairingGroup` row
    (``row``; ``key`` its name), its rounds (oldest first, read once), the last one, the
    number of the next, and — read on first use — the divisions it pairs (a flight pairs
    part of its division, P-FL)."""

    def __init__(self, event: Event, group: PairingGroup) -> None:
        self.event, self.row, self.key = event, group, group.key
        self.rounds: list[Round] = list(group.rounds.order_by("number"))
        self.last: Round | None = self.rounds[-1] if self.rounds else None
        self.number = (self.last.number if self.last else 0) + 1

    @cached_property
    def divisions(self) -> list[Division]:
        return sorted(self.row.divisions.all(), key=lambda d: d.code)

    @property
    def swiss_total(self) -> int:
        """The Swiss rounds the group plays (the most of its divisions', P-RT)."""
        return max((d.rounds for d in self.divisions), default=0)


class Procedure(NamedTuple):
    """A stage's pairing: ``next_step(group)`` says what it needs next, or None once it
    is over (the next stage is asked); ``pair(group, step, by, seed)`` pairs a step it
    gave and returns the new rounds (None for a stage that only waits). ``seed`` is the
    run's seed (given, or drawn by the dispatcher); a stage that draws nothing ignores it."""

    next_step: Callable[[Group], Step | None]
    pair: Callable[[Group, Step, Actor, int], list[Round]] | None


def wait_message(last: Round) -> str:
    """What staff do next while ``last`` is not complete (paired, published, running)."""
    if last.status == RoundStatus.PAIRED:
        return gettext_storable("Round %(number)s is paired: review and publish it.") % {
            "number": last.number
        }
    if last.status == RoundStatus.PUBLISHED:
        return gettext_storable(
            "Round %(number)s is published: start it when players are seated."
        ) % {"number": last.number}
    return gettext_storable("Round %(number)s is running: enter its results.") % {
        "number": last.number
    }


def to_tables(pairings: Sequence[Pairing | Pod], regs: Mapping[int, Registration]) -> list[Table]:
    """The engines' pairings (head to head or pods) as ``round_create`` tables:
    ``(table, registrations, why)``. The engines' ids are the registrations' pks as
    strings; ``regs`` is keyed by pk (``Registration.objects.in_bulk``)."""
    return [(p.table, [regs[int(i)] for i in p.players], p.why) for p in pairings]


def flags(pairings: Sequence[Pairing]) -> dict[int, tuple[bool, bool]]:
    """``{index: (pair_down, rematch)}`` of Swiss pairings, for ``round_create``."""
    return {i: (p.pair_down, p.rematch) for i, p in enumerate(pairings)}
