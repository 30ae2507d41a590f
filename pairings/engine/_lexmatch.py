"""Exact matching under a lexicographic cost of any length (private).

``_swiss_solve.exact`` encodes the five levels of ``Cost``; age-modified pairing (P-AGE-3,
I-4) and the minimal re-pair (P-SW-9) need one more level each, so this module encodes any
tuple of non-negative levels. Each level's weight exceeds the largest possible total of
every level below it, so summed weights order exactly like summed tuples; a seeded random
number below all levels picks among equally good pairings (P-SW-7, I-1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from ._matching import min_cost_perfect_matching

Pair = tuple[int, int]
Levels = tuple[int, ...]
#: Levels of one pairing, or None when the two nodes may not meet (bye filter).
LevelFn = Callable[[int, int], Levels | None]

NOISE = 16


def encoder(maxima: Sequence[int], pairs: int) -> Callable[[Levels], int]:
    """Map a pairing's levels to one integer; ``maxima[k]`` bounds level ``k`` of one pairing
    and ``pairs`` is the number of pairings summed (the random noise sits below level -1)."""
    weight = max(pairs, 1) * NOISE
    weights: list[int] = []
    for top in reversed(maxima):
        weights.append(weight)
        weight *= max(pairs, 1) * top + 1
    weights.reverse()
    return lambda levels: sum(w * x for w, x in zip(weights, levels, strict=True))


def lexicographic_matching(
    nodes: Sequence[int], levels: LevelFn, maxima: Sequence[int], rng: random.Random
) -> list[Pair]:
    """Perfect matching of ``nodes`` with the smallest summed levels, random among equals.

    Raises ValueError when no perfect matching exists (an empty or odd node list, or a
    filter that leaves someone without a partner). O(len(nodes)³).
    """
    encode = encoder(maxima, len(nodes) // 2)

    def cost(i: int, j: int) -> int | None:
        found = levels(nodes[i], nodes[j])
        if found is None:
            return None
        return encode(found) + rng.randrange(NOISE)

    return [(nodes[i], nodes[j]) for i, j in min_cost_perfect_matching(len(nodes), cost)]


def total(pairs: Iterable[Pair], levels: LevelFn, width: int) -> Levels:
    """Summed levels of ``pairs`` (each of ``width`` levels); a forbidden pair raises."""
    sums = [0] * width
    for a, b in pairs:
        found = levels(a, b)
        if found is None:
            raise ValueError(f"nodes {a} and {b} may not meet")
        for k, x in enumerate(found):
            sums[k] += x
    return tuple(sums)
