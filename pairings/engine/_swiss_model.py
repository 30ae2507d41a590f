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
from collections.abc import Iterable, Sequence
from itertools import chain
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
    """Nodes of one Swiss round; built by :func:`build_problem` from the brackets, highest
    first, each already in its shuffled order (so every bracket is a run of nodes)."""

    def __init__(self, brackets: list[list[SwissPlayer]], bye_points: int | None) -> None:
        self.players = order = list(chain.from_iterable(brackets))
        self.ids = [p.id for p in order]
        self.points = [p.match_points for p in order]
        self.opponents = [p.opponents for p in order]
        if len(set(self.ids)) != len(self.ids):
            repeated = sorted(i for i, n in Counter(self.ids).items() if n > 1)
            raise PairingImpossible(f"Player listed twice: {', '.join(repeated)}.")
        self.bracket_points = [group[0].match_points for group in brackets]
        self.bracket: list[int] = []
        self.members: list[list[int]] = []
        # The ids of each bracket, for "rematch avoided" (``swiss.rematch_avoided``).
        self.bracket_ids: list[frozenset[str]] = []
        start = 0
        for b, group in enumerate(brackets):
            stop = start + len(group)
            self.bracket += [b] * len(group)
            self.members.append(list(range(start, stop)))
            self.bracket_ids.append(frozenset(self.ids[start:stop]))
            start = stop
        self.bye = -1
        self.bye_ok: frozenset[int] = frozenset()
        self.bye_fresh = True
        if bye_points is not None:
            self._add_bye_token(bye_points)

    def _add_bye_token(self, bye_points: int) -> None:
        b = self.bracket_points.index(bye_points)
        ready = [n for n in self.members[b] if not self.players[n].had_bye]
        self.bye_ok = frozenset(ready or self.members[b])
        self.bye_fresh = bool(ready)  # False: every player already had a bye
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

    def cost(self, pairs: Iterable[Pair], *, rematches: bool = True) -> Cost:
        """The sum of :meth:`pair_cost` over ``pairs``, in one pass of plain integers (the
        greedy result of every ordinary round is checked with it). ``rematches=False``
        skips looking for rematches, for pairs known to hold none (counted as 0)."""
        found = crossings = distance = spread = pair_downs = 0
        bye, ids, points, bracket, opponents = (
            self.bye,
            self.ids,
            self.points,
            self.bracket,
            self.opponents,
        )
        for a, b in pairs:
            if rematches and (ids[b] in opponents[a] or ids[a] in opponents[b]):
                found += a != bye and b != bye
            d = points[a] - points[b]
            if d:
                if a == bye or b == bye:
                    continue
                d = abs(d)
                crossings += abs(bracket[a] - bracket[b])
                distance += d
                spread += d * d
                pair_downs += 1
        return Cost(found, crossings, distance, spread, pair_downs)

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


def shuffle(items: list[SwissPlayer], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same permutation from the same seed (I-1), faster.

    CPython's ``random.shuffle`` (Fisher-Yates, ``_randbelow`` by rejection sampling with
    ``getrandbits``) written out without a call per element; used for a plain
    ``random.Random`` only, any other generator shuffles itself."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def build_problem(players: Sequence[SwissPlayer], rng: random.Random) -> Problem:
    """Validate, order (bracket, then seeded shuffle) and add the bye token if needed.

    Raises PairingImpossible for fewer than two players or a repeated id.
    """
    if len(players) < 2:
        raise PairingImpossible(f"Swiss pairing needs at least two players, got {len(players)}.")
    # Brackets by match points, each sorted by id: the result depends on the players and
    # the seed only, not on the order the caller happened to load them in (I-1 replay).
    by_points: dict[int, list[SwissPlayer]] = {}
    for p in players:
        bracket = by_points.get(p.match_points)
        if bracket is None:
            by_points[p.match_points] = [p]
        else:
            bracket.append(p)
    brackets = [by_points[points] for points in sorted(by_points, reverse=True)]
    by_id = attrgetter("id")
    for bracket in brackets:
        bracket.sort(key=by_id)
        shuffle(bracket, rng)
    bye_points = None
    if len(players) % 2:
        # P-SW-5 as a hard filter: the lowest bracket holding a player without a bye; if
        # every player had one, the lowest bracket (a second bye is unavoidable).
        fresh = (g for g in reversed(brackets) if not all(p.had_bye for p in g))
        bye_points = next(fresh, brackets[-1])[0].match_points
    return Problem(brackets, bye_points)
