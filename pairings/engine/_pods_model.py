"""The pod pairing problem in numbers (private to :mod:`pairings.engine.pods`).

Players are numbered by their position in the standings order (0 = best, MP-PAIR-1).
A pod is a list of positions; ``sizes[k]`` is the number of seats of table ``k + 1``.

Quality of an arrangement, compared lexicographically (docs/rules.md decides the order):

1. repeats: pairs of players in one pod who already shared a pod (MP-PAIR-1: "never …
   while an alternative exists" — the stronger rule);
2. small-pod repeats: players seated in a smaller pod who already sat in one (MP-POD-2:
   "should … at most once", the weaker rule).

Both are packed into one integer, ``repeats * weight + small_pod_repeats`` with ``weight``
larger than any possible small-pod count, so costs add and compare as plain ints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """ids / opponents / fresh are indexed by standings position; fresh = never sat in a
    smaller pod. ``sizes`` lists seats per table in table order (MP-POD-1)."""

    ids: tuple[str, ...]
    opponents: tuple[frozenset[str], ...]
    fresh: tuple[bool, ...]
    sizes: tuple[int, ...]
    standard: int

    @property
    def weight(self) -> int:
        return len(self.ids) + 1

    def meets(self, a: int, b: int) -> bool:
        """True when ``a`` and ``b`` already shared a pod (either side's history counts)."""
        return self.ids[b] in self.opponents[a] or self.ids[a] in self.opponents[b]

    def fits(self, c: int, members: Iterable[int], size: int) -> bool:
        """``c`` may join ``members`` in a pod of ``size`` seats at no cost."""
        if size < self.standard and not self.fresh[c]:
            return False
        return not any(self.meets(c, m) for m in members)

    def seat_cost(self, c: int, members: Iterable[int], size: int) -> int:
        """What seating ``c`` next to ``members`` in a pod of ``size`` seats adds."""
        repeats = sum(1 for m in members if self.meets(c, m))
        small_again = size < self.standard and not self.fresh[c]
        return repeats * self.weight + int(small_again)

    def pod_cost(self, members: Sequence[int], size: int) -> int:
        """Cost of one complete pod."""
        return sum(self.seat_cost(c, members[:k], size) for k, c in enumerate(members))

    def split(self, cost: int) -> tuple[int, int]:
        """``(repeats, small_pod_repeats)`` of a packed cost."""
        return divmod(cost, self.weight)


def natural_tables(sizes: Sequence[int]) -> list[int]:
    """The 0-based table of every standings position under the plain top-to-bottom fill
    (MP-PAIR-1); the reference for "paired up" and "paired down"."""
    return [table for table, size in enumerate(sizes) for _ in range(size)]
