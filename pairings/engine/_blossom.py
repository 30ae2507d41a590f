"""Minimum-cost perfect matching on a small general graph (private to the engine).

Edmonds' blossom algorithm in its primal-dual O(n³) form, as presented by Z. Galil,
"Efficient algorithms for finding maximum matching in graphs" (ACM Computing Surveys,
1986). It maximises the weight among matchings of maximum cardinality; integer weights
keep every dual variable an integer, so the answer is exact.

The Swiss engine calls it only on a few dozen players (a repair window, or a whole small
event); it is never run on the full graph of a large event.

Vocabulary: an *endpoint* ``p`` names one end of edge ``p // 2``; ``end[p]`` is its vertex
and ``p ^ 1`` the other end. A *blossom* id is a vertex (< n) or a contracted odd cycle
(>= n). Labels: 0 free, 1 outer (S), 2 inner (T); 5 marks a blossom during a path scan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Edge = tuple[int, int, int]


class _Solver:
    """State of one run; see the module docstring for the vocabulary."""

    def __init__(self, n: int, edges: Sequence[Edge]) -> None:
        self.n = n
        self.edges = edges
        self.end = [v for i, j, _ in edges for v in (i, j)]
        self.nbr: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j, _) in enumerate(edges):
            self.nbr[i].append(2 * k + 1)
            self.nbr[j].append(2 * k)
        top = max((w for _, _, w in edges), default=0)
        size = 2 * n
        self.mate = [-1] * n  # vertex -> endpoint of its partner
        self.label = [0] * size
        self.label_end = [-1] * size  # endpoint (outside) through which a label came
        self.top_of = list(range(n))  # vertex -> its top-level blossom
        self.parent = [-1] * size
        self.children: list[list[int]] = [[] for _ in range(size)]
        self.links: list[list[int]] = [[] for _ in range(size)]
        self.base = list(range(n)) + [-1] * n
        self.best = [-1] * size  # least-slack edge towards an outer blossom
        self.best_list: list[list[int] | None] = [None] * size
        self.spare = list(range(n, size))
        self.dual = [top] * n + [0] * n
        self.tight = [False] * len(edges)
        self.queue: list[int] = []
        self.twice = [2 * w for _, _, w in edges]

    def slack(self, k: int) -> int:
        return self.dual[self.end[2 * k]] + self.dual[self.end[2 * k + 1]] - self.twice[k]

    def leaves(self, b: int) -> list[int]:
        out: list[int] = []
        stack = [b]
        while stack:
            t = stack.pop()
            if t < self.n:
                out.append(t)
            else:
                stack.extend(self.children[t])
        return out

    def assign_label(self, w: int, t: int, p: int) -> None:
        """Label vertex ``w``'s top blossom ``t`` via endpoint ``p``; an inner blossom
        makes its base's mate outer."""
        b = self.top_of[w]
        self.label[w] = self.label[b] = t
        self.label_end[w] = self.label_end[b] = p
        self.best[w] = self.best[b] = -1
        if t == 1:
            self.queue.extend(self.leaves(b))
        else:
            m = self.mate[self.base[b]]
            self.assign_label(self.end[m], 1, m ^ 1)

    def scan_blossom(self, v: int, w: int) -> int:
        """Walk back from two outer vertices; return the base of a new blossom or -1
        when the paths reach two different roots (an augmenting path)."""
        path: list[int] = []
        base = -1
        while v != -1:
            b = self.top_of[v]
            if self.label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = 5
            if self.label_end[b] == -1:
                v = -1
            else:
                v = self.end[self.label_end[self.top_of[self.end[self.label_end[b]]]]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        """Contract the odd cycle closed by edge ``k`` into a new outer blossom."""
        v, w, _ = self.edges[k]
        bb, bv, bw = self.top_of[base], self.top_of[v], self.top_of[w]
        b = self.spare.pop()
        self.base[b], self.parent[b], self.parent[bb] = base, -1, b
        path: list[int] = []
        links: list[int] = []
        while bv != bb:
            self.parent[bv] = b
            path.append(bv)
            links.append(self.label_end[bv])
            bv = self.top_of[self.end[self.label_end[bv]]]
        path.append(bb)
        path.reverse()
        links.reverse()
        links.append(2 * k)
        while bw != bb:
            self.parent[bw] = b
            path.append(bw)
            links.append(self.label_end[bw] ^ 1)
            bw = self.top_of[self.end[self.label_end[bw]]]
        self.children[b], self.links[b] = path, links
        self.label[b], self.label_end[b], self.dual[b] = 1, self.label_end[bb], 0
        for x in self.leaves(b):
            if self.label[self.top_of[x]] == 2:
                self.queue.append(x)  # an inner vertex turns outer inside the blossom
            self.top_of[x] = b
        self.merge_best_edges(b, path)

    def merge_best_edges(self, b: int, path: list[int]) -> None:
        best_to = [-1] * (2 * self.n)
        for c in path:
            known = self.best_list[c]
            lists = (
                [known]
                if known is not None
                else [[p >> 1 for p in self.nbr[x]] for x in self.leaves(c)]
            )
            for edge_ids in lists:
                for k in edge_ids:
                    i, j, _ = self.edges[k]
                    if self.top_of[j] == b:
                        j = i
                    bj = self.top_of[j]
                    if bj == b or self.label[bj] != 1:
                        continue
                    if best_to[bj] == -1 or self.slack(k) < self.slack(best_to[bj]):
                        best_to[bj] = k
            self.best_list[c], self.best[c] = None, -1
        chosen = [k for k in best_to if k != -1]
        self.best_list[b] = chosen
        self.best[b] = min(chosen, key=self.slack, default=-1)

    def expand_blossom(self, b: int, end_of_stage: bool) -> None:
        """Dissolve blossom ``b`` into its children (recursively at the end of a stage)."""
        for s in self.children[b]:
            self.parent[s] = -1
            if s < self.n:
                self.top_of[s] = s
            elif end_of_stage and self.dual[s] == 0:
                self.expand_blossom(s, end_of_stage)
            else:
                for x in self.leaves(s):
                    self.top_of[x] = s
        if not end_of_stage and self.label[b] == 2:
            self.relabel_expanded(b)
        self.label[b] = self.label_end[b] = -1
        self.children[b], self.links[b] = [], []
        self.base[b], self.best_list[b], self.best[b] = -1, None, -1
        self.spare.append(b)

    def _direction(self, b: int, j: int) -> tuple[int, int, int]:
        """Start index, step and endpoint trick to walk from child ``j`` to the base
        along the even-length side of blossom ``b``."""
        if j & 1:
            return j - len(self.children[b]), 1, 0
        return j, -1, 1

    def relabel_expanded(self, b: int) -> None:
        """Give the children of an expanded inner blossom their own labels."""
        entry = self.top_of[self.end[self.label_end[b] ^ 1]]
        j, step, trick = self._direction(b, self.children[b].index(entry))
        links, p = self.links[b], self.label_end[b]
        while j != 0:
            self.label[self.end[p ^ 1]] = 0
            self.label[self.end[links[j - trick] ^ trick ^ 1]] = 0
            self.assign_label(self.end[p ^ 1], 2, p)
            self.tight[links[j - trick] >> 1] = True
            j += step
            p = links[j - trick] ^ trick
            self.tight[p >> 1] = True
            j += step
        bv = self.children[b][j]
        self.label[self.end[p ^ 1]] = self.label[bv] = 2
        self.label_end[self.end[p ^ 1]] = self.label_end[bv] = p
        self.best[bv] = -1
        j += step
        while self.children[b][j] != entry:
            self.relabel_child(self.children[b][j])
            j += step

    def relabel_child(self, bv: int) -> None:
        if self.label[bv] == 1:
            return  # became outer through a neighbour meanwhile
        reached = [x for x in self.leaves(bv) if self.label[x] != 0]
        if reached:
            v = reached[0]
            self.label[v] = 0
            self.label[self.end[self.mate[self.base[bv]]]] = 0
            self.assign_label(v, 2, self.label_end[v])

    def augment_blossom(self, b: int, v: int) -> None:
        """Swap matched and unmatched edges inside ``b`` so that ``v`` becomes its base."""
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        i = self.children[b].index(t)
        j, step, trick = self._direction(b, i)
        children, links = self.children[b], self.links[b]
        while j != 0:
            j += step
            p = links[j - trick] ^ trick
            if children[j] >= self.n:
                self.augment_blossom(children[j], self.end[p])
            j += step
            if children[j] >= self.n:
                self.augment_blossom(children[j], self.end[p ^ 1])
            self.mate[self.end[p]] = p ^ 1
            self.mate[self.end[p ^ 1]] = p
        self.children[b] = children[i:] + children[:i]
        self.links[b] = links[i:] + links[:i]
        self.base[b] = self.base[self.children[b][0]]

    def augment_matching(self, k: int) -> None:
        """Flip the augmenting path through edge ``k`` back to both roots."""
        v, w, _ = self.edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = self.top_of[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if self.label_end[bs] == -1:
                    break
                bt = self.top_of[self.end[self.label_end[bs]]]
                s = self.end[self.label_end[bt]]
                j = self.end[self.label_end[bt] ^ 1]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = self.label_end[bt]
                p = self.label_end[bt] ^ 1

    def tight_edge(self, v: int, p: int) -> bool:
        """Use tight edge ``p // 2`` from outer vertex ``v``; True once augmented."""
        k, w = p >> 1, self.end[p]
        self.tight[k] = True
        bw = self.top_of[w]
        if self.label[bw] == 0:
            self.assign_label(w, 2, p ^ 1)
        elif self.label[bw] == 1:
            base = self.scan_blossom(v, w)
            if base < 0:
                self.augment_matching(k)
                return True
            self.add_blossom(base, k)
        elif self.label[w] == 0:
            self.label[w], self.label_end[w] = 2, p ^ 1
        return False

    def scan_queue(self) -> bool:
        """Scan the edges of every queued outer vertex; True once augmented.

        The hot loop of the algorithm: slack is computed inline, and a loose edge only
        updates the least-slack bookkeeping used by :meth:`find_delta`.
        """
        end, top_of, dual, twice = self.end, self.top_of, self.dual, self.twice
        tight, label, best = self.tight, self.label, self.best
        while self.queue:
            v = self.queue.pop()
            for p in self.nbr[v]:
                w = end[p]
                bv, bw = top_of[v], top_of[w]
                if bv == bw:
                    continue
                k = p >> 1
                ks = 0 if tight[k] else dual[v] + dual[w] - twice[k]
                if ks <= 0:
                    if self.tight_edge(v, p):
                        return True
                elif label[bw] == 1:
                    if best[bv] == -1 or ks < self.slack(best[bv]):
                        best[bv] = k
                elif label[w] == 0 and (best[w] == -1 or ks < self.slack(best[w])):
                    best[w] = k
        return False

    def find_delta(self) -> tuple[int, int, int]:
        """(kind, amount, edge or blossom) of the next dual change; kind 1 means done."""
        kind, delta, ref = 1, 0, -1
        for v in range(self.n):
            if self.label[self.top_of[v]] == 0 and self.best[v] != -1:
                d = self.slack(self.best[v])
                if kind == 1 or d < delta:
                    kind, delta, ref = 2, d, self.best[v]
        for b in range(2 * self.n):
            if self.parent[b] == -1 and self.label[b] == 1 and self.best[b] != -1:
                d = self.slack(self.best[b]) // 2  # even: integer weights (Galil)
                if kind == 1 or d < delta:
                    kind, delta, ref = 3, d, self.best[b]
        for b in range(self.n, 2 * self.n):
            top_inner = self.base[b] >= 0 and self.parent[b] == -1 and self.label[b] == 2
            if top_inner and (kind == 1 or self.dual[b] < delta):
                kind, delta, ref = 4, self.dual[b], b
        if kind == 1:
            delta = max(0, min(self.dual[: self.n]))
        return kind, delta, ref

    def apply_delta(self, delta: int) -> None:
        for v in range(self.n):
            lab = self.label[self.top_of[v]]
            self.dual[v] += -delta if lab == 1 else delta if lab == 2 else 0
        for b in range(self.n, 2 * self.n):
            if self.base[b] >= 0 and self.parent[b] == -1:
                lab = self.label[b]
                self.dual[b] += delta if lab == 1 else -delta if lab == 2 else 0

    def stage(self) -> bool:
        """Grow alternating trees from every single vertex; True if a path augmented."""
        size = 2 * self.n
        self.label, self.best = [0] * size, [-1] * size
        self.best_list[self.n :] = [None] * self.n
        self.tight, self.queue = [False] * len(self.edges), []
        for v in range(self.n):
            if self.mate[v] == -1 and self.label[self.top_of[v]] == 0:
                self.assign_label(v, 1, -1)
        while not self.scan_queue():
            kind, delta, ref = self.find_delta()
            self.apply_delta(delta)
            if kind == 1:
                return False
            if kind == 4:
                self.expand_blossom(ref, False)
                continue
            self.tight[ref] = True
            i, j, _ = self.edges[ref]
            self.queue.append(j if kind == 2 and self.label[self.top_of[i]] == 0 else i)
        for b in range(self.n, size):
            outer = self.parent[b] == -1 and self.base[b] >= 0 and self.label[b] == 1
            if outer and self.dual[b] == 0:
                self.expand_blossom(b, True)
        return True


def min_cost_perfect_matching(
    n: int, cost: Callable[[int, int], int | None]
) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, covering vertices ``0 .. n-1`` at minimum total cost.

    ``cost(i, j)`` is a non-negative integer, or ``None`` when ``i`` and ``j`` may not
    meet. Raises ValueError when no perfect matching exists. O(n³); meant for n up to a
    few dozen.
    """
    raw = [(i, j, cost(i, j)) for i in range(n) for j in range(i + 1, n)]
    allowed = [(i, j, c) for i, j, c in raw if c is not None]
    ceiling = 1 + max((c for _, _, c in allowed), default=0)
    solver = _Solver(n, [(i, j, ceiling - c) for i, j, c in allowed])
    while solver.stage():
        pass
    mate = [solver.end[m] if m >= 0 else -1 for m in solver.mate]
    if n % 2 or -1 in mate:
        raise ValueError("no perfect matching exists")
    return [(i, m) for i, m in enumerate(mate) if i < m]


def max_matching_size(n: int, edges: Sequence[tuple[int, int]]) -> int:
    """Number of pairs in a maximum matching of the graph (all edges weigh the same)."""
    solver = _Solver(n, [(i, j, 1) for i, j in edges])
    while solver.stage():
        pass
    return sum(m >= 0 for m in solver.mate) // 2
