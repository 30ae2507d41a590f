"""A sharper lower bound for the Swiss repair path (private).

Cut ``c`` lies between bracket ``c`` and bracket ``c + 1``. The parity bound of
``_swiss_model`` says a cut with an odd number of nodes above it is crossed at least
once. Rematches can force more. Call the *deficiency* of a set of nodes the number left
over by the best rematch-free pairing of the set among itself (bye token included, paired
only with the eligible). In any rematch-free round:

* the cut below a set of top brackets, or above a set of bottom brackets, is crossed at
  least ``deficiency(set)`` times;
* for a run of one or two brackets in the middle, the cut above it plus the cut below it
  are crossed at least ``deficiency(run)`` times (each left-over player leaves the run
  up or down).

Besides, a bracket of ``s`` players whose cut above is crossed ``a`` times and cut below
``b`` times is skipped by at least ``ceil((a + b - s) / 2)`` pairings (each player of the
bracket takes at most one of the crossings). A skip costs ``2 * g1 * g2`` more squared
distance (gaps ``g1``, ``g2``) and makes one pair-down out of two.

The cheapest assignment of crossing counts to cuts that respects parity and all these
constraints (a small dynamic programme over the cuts, lexicographic like ``Cost``)
costs no more than any rematch-free round, so reaching it proves a round optimal.
Deficiencies are computed exactly with the blossom matcher, but only for sets of at most
``SMALL_SIDE`` nodes; a bigger set adds no constraint. Used only when the greedy pass
missed the parity bound.
"""

from __future__ import annotations

from ._matching import max_matching_size
from ._swiss_model import Cost, Problem

SMALL_SIDE = 64

Span = tuple[int, int]  # (cut above a run of brackets, cut below it)
_Plan = tuple[tuple[int, int, int, int], list[int]]  # Cost without rematches, needs


def sharper_bound(problem: Problem) -> tuple[Cost, list[int]]:
    """The cheapest assignment meeting every constraint above: its Cost (a lower bound
    for any round) and the crossings it gives each cut."""
    low, runs = _one_sided(problem), _runs(problem)
    top = max([*low, *runs.values(), 1]) + 1
    parity = problem.parity_needs()
    states: dict[tuple[int, int], _Plan] = {(0, 0): ((0, 0, 0, 0), [])}
    for c in range(len(low)):
        options = [v for v in range(low[c], top + 1) if v % 2 == parity[c]]
        grown: dict[tuple[int, int], _Plan] = {}
        for (before, last), (cost, plan) in states.items():
            for v in options:
                if v + last < runs.get((c - 1, c), 0) or v + before < runs.get((c - 2, c), 0):
                    continue
                new = _step(problem, c, last, v, cost)
                if (last, v) not in grown or new < grown[(last, v)][0]:
                    grown[(last, v)] = (new, [*plan, v])
        states = grown
    (crossings, distance, spread, pair_downs), needs = min(states.values())
    return Cost(0, crossings, distance, spread, pair_downs), needs


def _step(
    problem: Problem, c: int, last: int, v: int, cost: tuple[int, int, int, int]
) -> tuple[int, int, int, int]:
    """Add ``v`` crossings of cut ``c`` after ``last`` crossings of cut ``c - 1``."""
    points = problem.bracket_points
    gap = points[c] - points[c + 1]
    skips = above = 0
    if c > 0:  # bracket c lies between cut c - 1 and cut c; the bye token can't cross
        players = len(problem.members[c]) - (problem.bye in problem.members[c])
        skips = max(0, last + v - players + 1) // 2
        above = points[c - 1] - points[c]
    return (
        cost[0] + v,
        cost[1] + v * gap,
        cost[2] + v * gap * gap + skips * 2 * above * gap,
        cost[3] + v - skips,
    )


def _one_sided(problem: Problem) -> list[int]:
    """Lower bound per cut from parity and from small sets of top or bottom brackets."""
    needs = problem.parity_needs()
    above: list[int] = []
    for c in range(len(needs)):
        above.extend(problem.members[c])
        if len(above) <= SMALL_SIDE:
            needs[c] = max(needs[c], deficiency(problem, above))
        if problem.size - len(above) <= SMALL_SIDE:
            below = [x for group in problem.members[c + 1 :] for x in group]
            needs[c] = max(needs[c], deficiency(problem, below))
    return needs


def _runs(problem: Problem) -> dict[Span, int]:
    """Deficiency of each small run of one or two middle brackets, by bounding cuts."""
    runs: dict[Span, int] = {}
    last = len(problem.members) - 1
    for first in range(1, last):
        for final in (first, first + 1):
            nodes = [x for b in range(first, final + 1) for x in problem.members[b]]
            if final < last and len(nodes) <= SMALL_SIDE:
                runs[(first - 1, final)] = deficiency(problem, nodes)
    return runs


def deficiency(problem: Problem, nodes: list[int]) -> int:
    """Nodes that any rematch-free pairing of ``nodes`` among themselves leaves over."""
    edges = [
        (i, j)
        for i in range(len(nodes))
        for j in range(i + 1, len(nodes))
        if problem.compatible(nodes[i], nodes[j])
    ]
    return len(nodes) - 2 * max_matching_size(len(nodes), edges)
