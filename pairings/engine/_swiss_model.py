"""The Swiss pairing problem as the solvers see it (private to the engine).

Players become integer *nodes* numbered in processing order: highest bracket first, a
seeded shuffle inside each bracket (P-SW-2, I-1). With an odd number of players one extra
node, the *bye token*, joins the bye bracket; pairing a player with it means a bye
(P-SW-5), so every round is a perfect matching of the nodes.

The quality of a pairing is the tuple :class:`Cost`, compared lexicographically:

1. rematches (P-SW-4);
2. bracket boundaries crossed: a pairing between brackets ``i`` and ``j`` crosses
   ``|i - j|`` boundaries. P-SW-3 only lets a player pair down into the *next lower*
   bracket, so a pairing that skips a bracket counts as that many pair-downs (P-SW-7);
3. the total distance of the pair-downs in match points (P-SW-7);
4. the sum of squared distances, so that two one-bracket pair-downs beat a single
   pair-down over two brackets with the same total distance (P-SW-3 "next lower");
5. the number of pairings whose players have different match points.

Lower bound: cut the brackets between two neighbours. When the number of nodes above the
cut is odd, at least one pairing crosses it, so every pairing crosses at least one
boundary per *odd cut*; that bound (with the matching distances, and no rematch) is
reached exactly when every odd cut is crossed by one pair-down into the next bracket and
nothing else crosses. The bye token sits in the bye bracket, so an odd event "absorbs"
one odd cut through the bye.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import groupby
from operator import attrgetter
from typing import NamedTuple

from .errors import PairingImpossible
from .types import SwissPlayer

Pair = tuple[int, int]


class Cost(NamedTuple):
    """Lexicographic quality of a pairing; smaller is better (see the module docstring)."""

    rematches: int = 0
    crossings: int = 0
    distance: int = 0
    spread: int = 0
    pair_downs: int = 0

    def plus(self, other: Cost) -> Cost:
        return Cost(*(a + b for a, b in zip(self, other, strict=True)))


ZERO = Cost()


class Problem:
    """Nodes of one Swiss round; built by :func:`build_problem`."""

    def __init__(self, order: list[SwissPlayer], bye_points: int | None) -> None:
        self.players = order
        self.ids = [p.id for p in order]
        self.points = [p.match_points for p in order]
        self.opponents = [p.opponents for p in order]
        self.bracket_points = sorted(set(self.points), reverse=True)
        index = {pts: b for b, pts in enumerate(self.bracket_points)}
        self.bracket = [index[pts] for pts in self.points]
        self.members: list[list[int]] = [[] for _ in self.bracket_points]
        for node, b in enumerate(self.bracket):
            self.members[b].append(node)
        # The ids of each bracket, for "rematch avoided" (``swiss.rematch_avoided``).
        self.bracket_ids = [frozenset(self.ids[n] for n in m) for m in self.members]
        self.bye = -1
        self.bye_ok: frozenset[int] = frozenset()
        if bye_points is not None:
            self._add_bye_token(bye_points)

    def _add_bye_token(self, bye_points: int) -> None:
        b = self.bracket_points.index(bye_points)
        ready = [n for n in self.members[b] if not self.players[n].had_bye]
        self.bye_ok = frozenset(ready or self.members[b])
        self.bye = len(self.ids)
        self.ids.append("")
        self.points.append(bye_points)
        self.opponents.append(frozenset())
        self.bracket.append(b)
        # First in its bracket, so the greedy pass hands it out before the bracket's
        # eligible players are all taken; who gets it is still decided by the shuffle.
        self.members[b].insert(0, self.bye)

    @property
    def size(self) -> int:
        return len(self.ids)

    def compatible(self, a: int, b: int) -> bool:
        """Allowed without cost beyond pair-downs: no rematch, bye only to the eligible."""
        if a == self.bye:
            return b in self.bye_ok
        if b == self.bye:
            return a in self.bye_ok
        return self.ids[b] not in self.opponents[a] and self.ids[a] not in self.opponents[b]

    def is_rematch(self, a: int, b: int) -> bool:
        if self.bye in (a, b):
            return False
        return self.ids[b] in self.opponents[a] or self.ids[a] in self.opponents[b]

    def pair_cost(self, a: int, b: int) -> Cost:
        if self.bye in (a, b):
            return ZERO
        d = abs(self.points[a] - self.points[b])
        crossings = abs(self.bracket[a] - self.bracket[b])
        return Cost(int(self.is_rematch(a, b)), crossings, d, d * d, int(d > 0))

    def cost(self, pairs: Sequence[Pair]) -> Cost:
        """The sum of :meth:`pair_cost` over ``pairs``, in one pass of plain integers (the
        greedy result of every ordinary round is checked with it)."""
        rematches = crossings = distance = spread = pair_downs = 0
        bye, ids, points, bracket, opponents = (
            self.bye,
            self.ids,
            self.points,
            self.bracket,
            self.opponents,
        )
        for a, b in pairs:
            if a == bye or b == bye:
                continue
            if ids[b] in opponents[a] or ids[a] in opponents[b]:
                rematches += 1
            d = points[a] - points[b]
            if d:
                d = abs(d)
                crossings += abs(bracket[a] - bracket[b])
                distance += d
                spread += d * d
                pair_downs += 1
        return Cost(rematches, crossings, distance, spread, pair_downs)

    def parity_needs(self) -> list[int]:
        """For the cut below each bracket but the last: 1 if an odd number of nodes sits
        above it (so at least one pairing must cross it), else 0."""
        needs, count = [], 0
        for group in self.members[:-1]:
            count += len(group)
            needs.append(count % 2)
        return needs

    def lower_bound(self) -> Cost:
        """The parity bound of the module docstring; reaching it proves optimality: each
        odd cut crossed once at its gap, no rematch, no pair-down skipping a bracket."""
        needs = self.parity_needs()
        points = self.bracket_points
        gaps = [points[c] - points[c + 1] for c, need in enumerate(needs) if need]
        return Cost(0, len(gaps), sum(gaps), sum(g * g for g in gaps), len(gaps))


def bye_bracket(players: Sequence[SwissPlayer]) -> tuple[int, bool]:
    """Match points of the bracket that receives the bye, and whether it moved up.

    P-SW-5 as a hard filter: the lowest bracket holding a player without a bye. If every
    player of the lowest bracket already had one, the bye moves up bracket by bracket; if
    every player had one, it stays in the lowest bracket (a second bye is unavoidable).
    """
    lowest = min(p.match_points for p in players)
    fresh = [p.match_points for p in players if not p.had_bye]
    if not fresh:
        return lowest, False
    return min(fresh), min(fresh) != lowest


def build_problem(players: Sequence[SwissPlayer], rng: random.Random) -> Problem:
    """Validate, order (bracket, then seeded shuffle) and add the bye token if needed.

    Raises PairingImpossible for fewer than two players or a repeated id.
    """
    if len(players) < 2:
        raise PairingImpossible(f"Swiss pairing needs at least two players, got {len(players)}.")
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
        raise PairingImpossible(f"Player listed twice: {', '.join(repeated)}.")
    # Sorting by id first makes the result depend on the players and the seed only,
    # not on the order the caller happened to load them in (I-1 replay).
    # Two stable sorts: by id, then by match points, highest first (``reverse`` keeps
    # the id order within equal points).
    ranked = sorted(players, key=attrgetter("id"))
    ranked.sort(key=attrgetter("match_points"), reverse=True)
    order: list[SwissPlayer] = []
    for _, group in groupby(ranked, key=attrgetter("match_points")):
        bracket = list(group)
        rng.shuffle(bracket)
        order.extend(bracket)
    bye_points = bye_bracket(players)[0] if len(players) % 2 else None
    return Problem(order, bye_points)
