"""The event option that places dropped players below the active players with the same
points, as Limitless does. (Wizards Event Reporter does not: the shared
real WER file ranks its dropped players by their tiebreakers, so ``import_wer`` leaves the
option off.)

By default (the option off) a dropped player keeps the place their match points and
tiebreakers give (P-TB-7, R-2). With the option, each run of players with the same match
points lists its active players first, then its dropped players, each part in the order
the ruleset gave: the option comes right after match points, before every tiebreaker
(tardiness, OWP, head to head …). Players with other points never move across each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby
from typing import TypeVar

T = TypeVar("T")


def drops_below_active(
    order: Sequence[T], *, points: Callable[[T], int], dropped: Callable[[T], bool]
) -> list[T]:
    """``order`` with every dropped player moved below the active players of their run of
    equal match points (a stable partition of each run; runs as in ``order``).

    order: standings lines best first (any type: ``rulesets.Line``, ``StandingRow``).
    points: a line's match points. dropped: whether its player had dropped by the
    rounds the standings cover. Returns a new list of the same lines; ``order`` is not
    checked for being sorted by points (a run is consecutive lines with equal points).
    """
    out: list[T] = []
    for _, run in groupby(order, key=points):
        lines = list(run)
        out += [line for line in lines if not dropped(line)]
        out += [line for line in lines if dropped(line)]
    return out
