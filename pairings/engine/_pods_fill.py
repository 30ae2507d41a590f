"""First pass of pod pairing (private): the top-to-bottom fill and the swap repair that
the Multiplayer Addendum describes (MP-PAIR-1, MP-POD-2).

1. :func:`fill_top_to_bottom` walks the tables from table 1 and seats, in standings
   order, the best unseated player who fits: no previous opponent in the pod and, in a
   smaller pod, nobody who already sat in one. Seats nobody fits stay open.
2. :func:`swap_repair` takes each player left over and puts them in an open seat if they
   fit; otherwise swaps them with a player of another pod (the nearest pods first) who
   fits the open seat while the left-over player fits that player's pod. A player who
   already sat in a smaller pod is thereby moved into a pod higher in the standings.
3. :func:`seat_cheapest` seats whoever is still left where it costs least, so the
   arrangement is always complete.
4. :func:`swap_improve` swaps any player who still costs something (a repeat, a second
   smaller pod) with a player of another pod, nearest pods first, whenever the swap
   lowers the cost; ``_pods_search`` then improves the bottom tables exactly if needed.

Runs in about linear time: each player's history holds a handful of ids, so the scan for
a fitting player rarely goes far past the first unseated one.
"""

from __future__ import annotations

from collections.abc import Iterator

from ._pods_model import Problem

Pods = list[list[int]]


def fill_top_to_bottom(problem: Problem) -> tuple[Pods, list[int]]:
    """Pods in table order (some seats may be open) and the positions left unseated."""
    n = len(problem.ids)
    seated = bytearray(n)
    head = 0
    pods: Pods = []
    for size in problem.sizes:
        members: list[int] = []
        i = head
        while len(members) < size and i < n:
            if not seated[i] and problem.fits(i, members, size):
                members.append(i)
                seated[i] = 1
            i += 1
        while head < n and seated[head]:
            head += 1
        pods.append(members)
    return pods, [i for i in range(head, n) if not seated[i]]


def swap_repair(problem: Problem, pods: Pods, left: list[int]) -> list[int]:
    """Seat left-over players in open seats, directly or by one swap (in place).

    Returns the players that neither way could seat without a cost."""
    still: list[int] = []
    for u in left:
        if not _seat_or_swap(problem, pods, u):
            still.append(u)
    return still


def _seat_or_swap(problem: Problem, pods: Pods, u: int) -> bool:
    sizes = problem.sizes
    open_tables = [k for k, pod in enumerate(pods) if len(pod) < sizes[k]]
    for k in open_tables:
        if problem.fits(u, pods[k], sizes[k]):
            pods[k].append(u)
            return True
    for k in open_tables:
        for q in _nearest(k, len(pods)):
            # Move the player of pod q nearest to pod k in the standings: its worst
            # player when q is above k, its best when q is below.
            slots = sorted(range(len(pods[q])), key=pods[q].__getitem__, reverse=q < k)
            for slot in slots:
                x = pods[q][slot]
                if not problem.fits(x, pods[k], sizes[k]):
                    continue
                rest = pods[q][:slot] + pods[q][slot + 1 :]
                if problem.fits(u, rest, sizes[q]):
                    pods[q][slot] = u
                    pods[k].append(x)
                    return True
    return False


def _nearest(k: int, count: int) -> Iterator[int]:
    """Tables other than ``k`` by distance from it, the table above first."""
    for d in range(1, count):
        if k - d >= 0:
            yield k - d
        if k + d < count:
            yield k + d


def seat_cheapest(problem: Problem, pods: Pods, left: list[int]) -> None:
    """Seat every left-over player in the open seat where they add the least cost."""
    sizes = problem.sizes
    for u in left:
        open_tables = [k for k, pod in enumerate(pods) if len(pod) < sizes[k]]
        best = min(open_tables, key=lambda k: (problem.seat_cost(u, pods[k], sizes[k]), k))
        pods[best].append(u)


def swap_improve(problem: Problem, pods: Pods) -> None:
    """Single swaps between two tables while one lowers the total cost (in place).

    Only players of tables with a cost are moved: a round without one is untouched."""
    while _one_swap(problem, pods):
        pass


def _one_swap(problem: Problem, pods: Pods) -> bool:
    sizes = problem.sizes
    for k in [k for k, pod in enumerate(pods) if problem.pod_cost(pod, sizes[k])]:
        for slot, u in enumerate(pods[k]):
            rest = pods[k][:slot] + pods[k][slot + 1 :]
            if problem.seat_cost(u, rest, sizes[k]) and _best_swap(problem, pods, k, slot):
                return True
    return False


def _best_swap(problem: Problem, pods: Pods, k: int, slot: int) -> bool:
    """Swap ``pods[k][slot]`` with the first player of another table that lowers the cost."""
    sizes = problem.sizes
    before_k = problem.pod_cost(pods[k], sizes[k])
    for q in _nearest(k, len(pods)):
        before = before_k + problem.pod_cost(pods[q], sizes[q])
        for other in range(len(pods[q])):
            new_k, new_q = list(pods[k]), list(pods[q])
            new_k[slot], new_q[other] = new_q[other], new_k[slot]
            if problem.pod_cost(new_k, sizes[k]) + problem.pod_cost(new_q, sizes[q]) < before:
                pods[k], pods[q] = new_k, new_q
                return True
    return False
