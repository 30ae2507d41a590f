"""Exact repair of a pod arrangement (private): branch and bound over windows.

When the first pass (``_pods_fill``) leaves a cost — a repeat (MP-PAIR-1) or a player in
a smaller pod again (MP-POD-2) — the cost sits at the bottom tables, where the fill ran
out of players. :func:`improve` re-partitions a window of tables exactly: the bottom 2,
then 4, 8, … tables (plus every table with a cost), until the cost is zero or the window
is the whole event. A search over the whole event that runs to the end proves the
arrangement optimal; one stopped by the node budget leaves ``proven`` False.

The search (:class:`_Search`) first chooses the smaller pods (whether fresh players can
fill them decides MP-POD-2), then the standard pods, pruning any branch whose cost plus
a lower bound (smaller-pod seats that fresh players can no longer fill) reaches the best
found. Candidates come in standings order, so when nothing is tight the first
arrangement found is the one closest to the plain top-to-bottom fill.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from ._pods_model import Problem

Pods = list[list[int]]
NODE_BUDGET = 40_000  # seat placements per window; ~0.1 s of CPython at worst


def improve(problem: Problem, pods: Pods, *, budget: int = NODE_BUDGET) -> bool:
    """Lower the cost of ``pods`` (complete, table order) in place; True when the result
    is proven optimal (cost zero, or a complete search of the whole event)."""
    costs = [problem.pod_cost(pod, size) for pod, size in zip(pods, problem.sizes, strict=True)]
    width = 2
    while any(costs):
        bottom = range(max(0, len(pods) - width), len(pods))
        window = sorted(set(bottom) | {k for k, c in enumerate(costs) if c})
        players = sorted(i for k in window for i in pods[k])
        search = _Search(problem, players, [problem.sizes[k] for k in window], budget)
        found = search.run(bound=sum(costs[k] for k in window))
        if found is not None:
            _put_back(problem, pods, costs, window, found)
        if len(window) == len(pods):
            return search.complete or not any(costs)
        width *= 2
    return True


def _put_back(
    problem: Problem, pods: Pods, costs: list[int], window: list[int], found: Pods
) -> None:
    """Give the window's tables the new pods: standard pods first, each size in order of
    its best player (table order, MP-PAIR-1)."""
    found.sort(key=lambda pod: (len(pod) < problem.standard, -len(pod), pod[0]))
    by_size: dict[int, list[list[int]]] = {}
    for pod in found:
        by_size.setdefault(len(pod), []).append(pod)
    for k in window:
        pods[k] = by_size[problem.sizes[k]].pop(0)
        costs[k] = problem.pod_cost(pods[k], problem.sizes[k])


class _Search:
    """Branch and bound: partition ``players`` (sorted positions) into pods of ``sizes``.

    Window players are bits of an int (index ``w`` = ``players[w]``); ``compat[w]`` holds
    the players ``w`` never met. Smaller pods are chosen first, from the bottom up (each
    one's worst player below the previous one's, so every set of smaller pods comes up
    once): whether fresh players can fill them decides MP-POD-2. Then the standard pods,
    each around a pivot: the most constrained free player if someone has few possible
    pod-mates left, else the best free player (standings order, MP-PAIR-1)."""

    def __init__(self, problem: Problem, players: Sequence[int], sizes: Sequence[int], budget: int):
        self.p = problem
        self.players = list(players)
        m = len(self.players)
        full = (1 << m) - 1
        self.compat = [full ^ _met_mask(problem, self.players, w) ^ (1 << w) for w in range(m)]
        self.fresh = sum(1 << w for w, i in enumerate(self.players) if problem.fresh[i])
        self.free = full
        self.small = [s for s in sizes if s < problem.standard]
        self.counts = Counter(s for s in sizes if s >= problem.standard)
        self.small_left = sum(self.small)
        self.tight = 3 * (problem.standard - 1)
        self.budget, self.nodes, self.complete = budget, 0, True
        self.bound = 0
        self.best: Pods | None = None

    def run(self, *, bound: int) -> Pods | None:
        """The cheapest partition costing less than ``bound``, or None."""
        self.bound = bound
        self._small_pod([], 0, len(self.players))
        return self.best

    def _stop(self) -> bool:
        return not self.complete or self.bound == 0

    def _lower_bound(self) -> int:
        """Smaller-pod seats that the free fresh players can no longer fill (MP-POD-2)."""
        return max(0, self.small_left - (self.free & self.fresh).bit_count())

    def _small_pod(self, done: Pods, cost: int, below: int) -> None:
        """Open the next smaller pod, its worst player at a window index below ``below``."""
        if len(done) == len(self.small):
            self._standard_pod(done, cost)
            return
        size = self.small[len(done)]
        for anchor in _bits(self.free & ((1 << below) - 1), descending=True):
            self._grow(done + [[]], size, anchor, self.free & ((1 << anchor) - 1), cost)
            if self._stop():
                return

    def _standard_pod(self, done: Pods, cost: int) -> None:
        if not self.free:
            self.bound, self.best = cost, [sorted(self.players[w] for w in pod) for pod in done]
            return
        pivot, room = self._pivot()
        no_repeat = cost + self.p.weight >= self.bound
        for size in sorted((s for s, c in self.counts.items() if c), reverse=True):
            if no_repeat and room < size - 1:
                continue  # the pivot cannot get enough new opponents
            self.counts[size] -= 1
            self._grow(done + [[]], size, pivot, self.free & ~(1 << pivot), cost)
            self.counts[size] += 1
            if self._stop():
                return

    def _pivot(self) -> tuple[int, int]:
        """The free player to seat next and how many free players they never met."""
        best = (self.tight + 1, -1, 0)
        first = -1
        for w in _bits(self.free):
            room = (self.compat[w] & self.free).bit_count()
            first = w if first < 0 else first
            if (room, w) < best[:2]:
                best = (room, w, room)
        if best[1] < 0:
            return first, (self.compat[first] & self.free).bit_count()
        return best[1], best[2]

    def _grow(self, done: Pods, size: int, w: int, candidates: int, cost: int) -> None:
        """Seat window player ``w`` in the open pod ``done[-1]``, then fill its other seats
        from ``candidates`` (standard pods downwards, smaller pods upwards)."""
        self.nodes += 1
        if self.nodes > self.budget:
            self.complete = False
            return
        pod = done[-1]
        small = size < self.p.standard
        met = sum(1 for v in pod if not self.compat[w] >> v & 1)
        new = cost + met * self.p.weight + int(small and not self.fresh >> w & 1)
        self.free ^= 1 << w
        self.small_left -= small
        if new + self._lower_bound() < self.bound:
            pod.append(w)
            self._next_seat(done, size, candidates & ~(1 << w), new)
            pod.pop()
        self.free ^= 1 << w
        self.small_left += small

    def _next_seat(self, done: Pods, size: int, candidates: int, cost: int) -> None:
        pod = done[-1]
        small = size < self.p.standard
        if len(pod) == size:
            if small:
                self._small_pod(done, cost, pod[0])
            else:
                self._standard_pod(done, cost)
            return
        if cost + self.p.weight >= self.bound:  # no repeat affordable: only new opponents
            candidates &= self.compat[pod[-1]]
        if small and cost + 1 >= self.bound:  # no second smaller pod affordable
            candidates &= self.fresh
        need = size - len(pod)
        for v in _bits(candidates, descending=small):
            rest = candidates & ((1 << v) - 1 if small else ~((1 << (v + 1)) - 1))
            if rest.bit_count() < need - 1:
                return
            self._grow(done, size, v, rest, cost)
            if self._stop():
                return


def _met_mask(problem: Problem, players: list[int], w: int) -> int:
    """Window players that ``players[w]`` already shared a pod with."""
    i = players[w]
    return sum(1 << v for v, j in enumerate(players) if v != w and problem.meets(i, j))


def _bits(mask: int, *, descending: bool = False) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first (or highest first)."""
    while mask:
        v = mask.bit_length() - 1 if descending else (mask & -mask).bit_length() - 1
        yield v
        mask ^= 1 << v
