"""A sharper lower bound for the Swiss repair path (private).

The parity bound of ``_swiss_model`` says a cut with an odd number of nodes above it is
crossed at least once. Rematches can force more: if the players above a cut cannot be
paired among themselves without a rematch, every player left over by the best such
pairing has to cross. So a cut is crossed at least ``deficiency`` times, where the
deficiency of a set is its size minus twice its maximum rematch-free matching (bye token
included, paired only with the eligible). The same holds for the players below the cut.

It is computed exactly with the blossom matcher, but only where one side of the cut is
small (the top or bottom brackets of a late round, where rematches pile up); elsewhere
the parity bound stands. Used only when the greedy pass missed the parity bound.
"""

from __future__ import annotations

from ._blossom import max_matching_size
from ._swiss_model import Problem

SMALL_SIDE = 64


def cut_needs(problem: Problem) -> list[int]:
    """Fewest rematch-free crossings of each cut (cut ``c`` lies below bracket ``c``)."""
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


def deficiency(problem: Problem, nodes: list[int]) -> int:
    """Nodes that any rematch-free pairing of ``nodes`` among themselves leaves over."""
    edges = [
        (i, j)
        for i in range(len(nodes))
        for j in range(i + 1, len(nodes))
        if problem.compatible(nodes[i], nodes[j])
    ]
    return len(nodes) - 2 * max_matching_size(len(nodes), edges)
