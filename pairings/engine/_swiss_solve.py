"""Solvers for the Swiss problem (private): a greedy pass, then exact repair.

1. Greedy, top bracket to bottom (P-SW-2, P-SW-3): players that floated down from the
   bracket above are paired first, then the shuffled bracket; a player is paired with
   the first compatible player still waiting (no rematch, bye only to the eligible).
   Players left over beyond the bracket's parity are unstuck by swapping partners with
   a pairing already made in the bracket; what remains floats down.
2. If the result reaches the lower bound of ``_swiss_model`` it is optimal: done. This is
   the path of every ordinary round, and it never builds a graph.
3. Otherwise a small event (up to ``EXACT_LIMIT`` nodes) is solved exactly as a whole by
   the blossom matcher. A larger one is repaired window by window: the defective
   pairings (rematch, pair-down over two brackets, extra crossing of a cut) plus nearby
   pairings of the same and neighbouring brackets are re-paired exactly; the window
   doubles while the defect stays, up to ``WINDOW_LIMIT`` nodes. Defects are measured
   against the sharper bound of ``_swiss_bound``; reaching it proves the result optimal.
   Otherwise the result is the best the windows found, reported as not proven. (On 30
   simulated late rounds, 7 to 11, of 200-320 players with 5 % ties, 13 needed repair;
   all 13 were proven optimal and equal to the whole-event blossom optimum.)

The exact whole-event solve takes about 0.03 s at 160 nodes (rustworkx's blossom matcher
through ``_matching``; building the cost table is most of it); for 4,096 players the
greedy pass takes about 0.3 ms and the whole ordinary round about 4.5 ms, 1.8 times the
minimal reference of ``bench/engine_ratio.py``. The greedy pairs are kept flat
(``[a0, b0, a1, b1, …]``, :func:`solve_flat`) so that an ordinary round makes no tuple
per pair: fewer objects means fewer garbage-collector passes.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ._matching import min_cost_perfect_matching
from ._swiss_bound import sharper_bound
from ._swiss_model import Cost, Pair, Problem

EXACT_LIMIT = 160
WINDOW_LIMIT = 96
_NOISE = 16  # random lowest-order weight: a seeded choice among equally good pairings


def solve(problem: Problem, rng: random.Random) -> tuple[list[Pair], bool]:
    """A perfect matching of the nodes, and whether it is proven optimal."""
    flat, proven = solve_flat(problem, rng)
    return list(zip(flat[::2], flat[1::2], strict=True)), proven


def solve_flat(problem: Problem, rng: random.Random) -> tuple[list[int], bool]:
    """:func:`solve` with the pairs flat, ``[a0, b0, a1, b1, …]``: the greedy pass makes
    them so, and an ordinary round then builds no tuple per pair."""
    flat, stuck = greedy(problem)
    pairs = zip(flat[::2], flat[1::2], strict=True)  # reuses one tuple: none per pair
    # Greedy pairs only compatible nodes: no rematch to count.
    if not stuck and problem.cost(pairs, rematches=False) == problem.lower_bound():
        return flat, True
    if problem.size <= EXACT_LIMIT:
        return _flat(exact(problem, list(range(problem.size)), rng)), True
    bound, needs = sharper_bound(problem)
    tuples = list(zip(flat[::2], flat[1::2], strict=True))
    tuples, whole = repair(problem, tuples, stuck, needs, bound, rng)
    return _flat(tuples), whole or problem.cost(tuples) == bound


def _flat(pairs: list[Pair]) -> list[int]:
    return [node for pair in pairs for node in pair]


def greedy(problem: Problem) -> tuple[list[int], list[int]]:
    """Greedy pairs in the order they were made, flat (``[a0, b0, a1, b1, …]``), and the
    nodes left without a partner.

    Only compatible nodes are paired (:meth:`Problem.compatible`, written out inline: this
    loop is most of the time of an ordinary round)."""
    flat: list[int] = []
    floaters: list[int] = []
    ids, opponents, bye, bye_ok = problem.ids, problem.opponents, problem.bye, problem.bye_ok
    for members in problem.members:
        start = len(flat)
        pool: list[int] = []
        for x in floaters + members:
            if not pool:
                pool.append(x)
                continue
            xid, met = ids[x], opponents[x]
            for at, y in enumerate(pool):
                if x == bye or y == bye:
                    if (y if x == bye else x) not in bye_ok:
                        continue
                elif ids[y] in met or xid in opponents[y]:
                    continue
                flat.append(y)
                flat.append(x)
                del pool[at]
                break
            else:
                pool.append(x)
        if len(pool) >= 2 + len(pool) % 2:
            _swap_in(problem, pool, flat, start)
        floaters = pool
    return flat, floaters


def _swap_in(problem: Problem, pool: list[int], flat: list[int], start: int) -> None:
    """Pair two waiting nodes y, z by splitting a pairing (u, v) of this bracket (made
    from ``flat[start]`` on) into (u, y) and (v, z): waiting nodes are pairwise
    incompatible, the swap often is not."""
    while len(pool) >= 2 + len(pool) % 2:
        swap = _find_swap(problem, pool, flat, start)
        if swap is None:
            return
        at, u, v, y, z = swap
        flat[at : at + 2] = (u, y)
        flat += (v, z)
        pool.remove(y)
        pool.remove(z)


def _find_swap(
    problem: Problem, pool: list[int], flat: list[int], start: int
) -> tuple[int, int, int, int, int] | None:
    ok = problem.compatible
    for i, y in enumerate(pool):
        for z in pool[i + 1 :]:
            for at in range(start, len(flat), 2):
                u, v = flat[at], flat[at + 1]
                if ok(u, y) and ok(v, z):
                    return at, u, v, y, z
                if ok(v, y) and ok(u, z):
                    return at, v, u, y, z
    return None


def _encoder(problem: Problem, pairs: int) -> Callable[[Cost], int]:
    """Map a pair's Cost to one integer whose sums over ``pairs`` pairings order like the
    tuples (every level outweighs the largest possible total of the levels below)."""
    span = problem.bracket_points[0] - problem.bracket_points[-1]
    w5 = pairs * _NOISE
    w4 = w5 * (pairs + 1)
    w3 = w4 * (pairs * span * span + 1)
    w2 = w3 * (pairs * span + 1)
    w1 = w2 * (pairs * (len(problem.bracket_points) - 1) + 1)
    weights = (w1, w2, w3, w4, w5)
    return lambda c: sum(w * x for w, x in zip(weights, c, strict=True))


def exact(problem: Problem, nodes: list[int], rng: random.Random) -> list[Pair]:
    """Optimal pairing of ``nodes`` among themselves (blossom matcher, O(len(nodes)³))."""
    encode = _encoder(problem, len(nodes) // 2)

    def cost(i: int, j: int) -> int | None:
        a, b = nodes[i], nodes[j]
        if problem.bye in (a, b) and not problem.compatible(a, b):
            return None
        return encode(problem.pair_cost(a, b)) + rng.randrange(_NOISE)

    return [(nodes[i], nodes[j]) for i, j in min_cost_perfect_matching(len(nodes), cost)]


def defects(problem: Problem, pairs: list[Pair], needs: list[int]) -> list[int]:
    """Indexes of pairings above the lower bound: rematches, pair-downs over more than
    one bracket, and every pairing across a cut crossed more often than it needs."""
    load = [0] * len(needs)
    spans = []
    for a, b in pairs:
        lo, hi = sorted((problem.bracket[a], problem.bracket[b]))
        spans.append((lo, hi))
        for c in range(lo, hi):
            load[c] += 1
    return [
        at
        for at, (lo, hi) in enumerate(spans)
        if hi - lo > 1
        or problem.is_rematch(*pairs[at])
        or any(load[c] > needs[c] for c in range(lo, hi))
    ]


def window(
    problem: Problem,
    pairs: list[Pair],
    spots: list[int],
    stuck: list[int],
    radius: int,
    margin: int,
) -> list[int]:
    """Pairing indexes to re-pair: the spots, and up to ``radius`` pairings touching each
    bracket within ``margin`` brackets of them (plus pairings of bye-eligible players
    when the bye token is stuck, so that it can find a partner)."""
    touched = [problem.bracket[x] for at in spots for x in pairs[at]]
    touched += [problem.bracket[x] for x in stuck]
    region = range(max(min(touched) - margin, 0), max(touched) + margin + 1)
    room = dict.fromkeys(region, radius)
    room[-1] = radius if problem.bye in stuck else 0  # budget for bye-eligible pairings
    chosen = set(spots)
    for at, (a, b) in enumerate(pairs):
        keys = [problem.bracket[a], problem.bracket[b]]
        if a in problem.bye_ok or b in problem.bye_ok:
            keys.append(-1)
        keys = [k for k in keys if room.get(k, 0) > 0]
        if keys and at not in chosen:
            chosen.add(at)
            for k in keys:
                room[k] -= 1
    return sorted(chosen)


def _fix(
    problem: Problem,
    pairs: list[Pair],
    spots: list[int],
    stuck: list[int],
    needs: list[int],
    rng: random.Random,
) -> tuple[list[Pair], set[int], bool]:
    """Re-pair growing windows around ``spots`` and ``stuck`` nodes.

    Returns the new pairs, the nodes of defects it could not remove, and whether the last
    window was the whole event (then the result is the exact optimum).
    """
    radius, margin = 2, 1
    while True:
        chosen = window(problem, pairs, spots, stuck, radius, margin)
        nodes = stuck + [x for at in chosen for x in pairs[at]]
        drop = set(chosen)
        fresh = exact(problem, nodes, rng)
        merged = [p for at, p in enumerate(pairs) if at not in drop] + fresh
        first_new = len(merged) - len(fresh)
        bad = [at for at in defects(problem, merged, needs) if at >= first_new]
        whole = len(nodes) == problem.size
        if not bad or whole or len(nodes) >= WINDOW_LIMIT:
            return merged, {x for at in bad for x in merged[at]}, whole
        pairs, spots, stuck = merged, bad, []
        radius, margin = radius * 2, margin + 1


def repair(
    problem: Problem,
    pairs: list[Pair],
    stuck: list[int],
    needs: list[int],
    bound: Cost,
    rng: random.Random,
) -> tuple[list[Pair], bool]:
    """Window repair for events above ``EXACT_LIMIT``: re-pair around each defect in turn
    (defects measured against ``needs``) until the cost reaches ``bound`` or no defect is
    left to try; True if a window covered the whole event."""
    given_up: set[int] = set()
    if stuck:
        pairs, given_up, whole = _fix(problem, pairs, [], stuck, needs, rng)
        if whole:
            return pairs, True
    for _ in range(len(pairs)):
        if problem.cost(pairs) == bound:
            break  # optimal, even if it crosses other cuts than ``needs`` names
        found = defects(problem, pairs, needs)
        pending = [at for at in found if not set(pairs[at]) & given_up]
        if not pending:
            break
        pairs, unresolved, whole = _fix(problem, pairs, pending[:1], [], needs, rng)
        if whole:
            return pairs, True
        given_up |= unresolved
    return pairs, False
