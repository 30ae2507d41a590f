"""Graph matching for the Swiss engine (private): a thin adapter over ``rustworkx``.

Matching is not our core, so the blossom algorithm comes from rustworkx (Edmonds /
Galil, exact on integer weights). Pairs come back sorted, so a result depends only on
the input. Run only on a few dozen to ~160 nodes (a repair window, a small event).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import rustworkx as rx

_WEIGHT_LIMIT = 1 << 120  # rustworkx adds and doubles i128 weights: stay well inside


def _max_cardinality_matching(
    n: int, edges: Sequence[tuple[int, int, int]]
) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, sorted: heaviest among the largest matchings."""
    graph: rx.PyGraph[None, int] = rx.PyGraph(multigraph=False)
    graph.add_nodes_from([None] * n)
    graph.extend_from_weighted_edge_list(list(edges))
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return sorted((min(i, j), max(i, j)) for i, j in found)


def min_cost_perfect_matching(
    n: int, cost: Callable[[int, int], int | None]
) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, covering vertices ``0 .. n-1`` at minimum total cost.

    ``cost(i, j)`` is a non-negative integer, or ``None`` when ``i`` and ``j`` may not
    meet; it is called once per pair ``i < j`` in lexicographic order. Raises ValueError
    when no perfect matching exists.
    """
    raw = [(i, j, cost(i, j)) for i in range(n) for j in range(i + 1, n)]
    allowed = [(i, j, c) for i, j, c in raw if c is not None]
    ceiling = 1 + max((c for _, _, c in allowed), default=0)
    if ceiling > _WEIGHT_LIMIT:
        raise ValueError(f"pair cost {ceiling - 1} is too large for the matcher")
    # All perfect matchings have n/2 edges, so the heaviest under ``ceiling - cost`` is
    # the cheapest; max cardinality makes it perfect whenever one exists.
    pairs = _max_cardinality_matching(n, [(i, j, ceiling - c) for i, j, c in allowed])
    if 2 * len(pairs) != n:
        raise ValueError("no perfect matching exists")
    return pairs


def max_matching_size(n: int, edges: Sequence[tuple[int, int]]) -> int:
    """Number of pairs in a maximum matching of the graph (all edges weigh the same)."""
    return len(_max_cardinality_matching(n, [(i, j, 1) for i, j in edges]))
