"""The rows of the pod outlook paired by the pod engine's own functions (private to
``pods``): a row the arrays hand back (``_pod_rounds``: past their bounds), and a row
where the engine's fill and swaps leave a cost, which the engine then repairs.

A row handed back is paired by ``_pods_fill``'s fill and swaps themselves (steps 2–3 of
``pairings.engine.pods``). Where a cost is left, the engine's answer is remembered per
simulated position (the points and the pods simulated so far) and bracket order: at
most ``ORDERS`` orders are repaired per position, and a further ending needing a repair
there reuses one of those at random. The first ``ENGINE_CALLS`` repairs of a run are
the whole ``pair_pods`` (its exact search, step 4, included); later ones its
seat-cheapest and improving swaps alone, which differ from the search only where
repeats or a second smaller pod cannot be avoided by swaps. Both caps are counted, not
timed: the same seed gives the same figures.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from .._pods_fill import fill_top_to_bottom, seat_cheapest, swap_improve, swap_repair
from .._pods_model import Problem
from ..pods import PodPlayer, pair_pods
from . import _arrays
from ._pod_rounds import Field, Rows, Seating

#: Remembered repairs of one run.
MEMO_LIMIT = 200_000

#: Distinct bracket orders repaired per simulated position.
ORDERS = 256

#: Repairs per run by the whole ``pair_pods`` (with its exact search).
ENGINE_CALLS = 256

Pods = tuple[tuple[int, ...], ...]

#: A simulated position: every live player's points, and the simulated rounds' pods.
State = tuple[bytes, tuple[Pods, ...]]


class Engine:
    """One run's rows paired by the engine, with its remembered repairs.

    ids: the live players' ids by number; mates: who each already shared a pod with
    (ids, either side's history); field: the arrays' view of the same players."""

    def __init__(
        self, ids: Sequence[str], mates: Sequence[frozenset[str]], field: Field, seed: int
    ) -> None:
        self.ids, self.mates, self.field = list(ids), list(mates), field
        self.rng = np.random.default_rng(seed)
        self.memo: dict[State, dict[bytes, Pods]] = {}
        self.sampled: dict[State, list[Pods]] = {}
        self.stored = 0
        self.calls = 0

    def pair(self, s: Rows, row: int, played: int, st: Seating) -> None:
        """Pair ``row``'s round (``played`` simulated rounds before it) as the engine
        does, and write its tables into ``st``. A row the arrays marked for repair is
        looked up before anything is built."""
        order = s.player[:, row].copy()
        state = None
        if st.ok[row] and st.repair[row]:
            state = self._state(s, order, row, played)
            found = self._known(state, order)
            if found is not None:
                _write(st, row, order, found)
                return
        mates = self._mates(s, row, played)
        problem = Problem(
            ids=tuple(self.ids[i] for i in order),
            opponents=tuple(mates[i] for i in order),
            fresh=tuple(s.fresh[:, row].tolist()),
            sizes=self.field.sizes,
            standard=self.field.standard,
        )
        tables, left = fill_top_to_bottom(problem)
        left = swap_repair(problem, tables, left)
        if left:
            state = state or self._state(s, order, row, played)
            pods = self._known(state, order) or self._repair(state, order, problem, tables, left)
        else:
            pods = tuple(tuple(int(order[i]) for i in pod) for pod in tables)
        _write(st, row, order, pods)

    def _state(self, s: Rows, order: _arrays.IP, row: int, played: int) -> State:
        points = np.empty_like(s.points[:, row])
        points[order] = s.points[:, row]
        return points.tobytes(), self._history(s, row, played)

    def _known(self, state: State, order: _arrays.IP) -> Pods | None:
        """The repair remembered for this position and order, or one of the position's
        ``ORDERS`` at random once it has that many."""
        known = self.memo.get(state, {})
        found = known.get(order.tobytes())
        if found is None and len(known) >= ORDERS:
            found = self.sampled[state][int(self.rng.integers(ORDERS))]
        return found

    def _repair(
        self,
        state: State,
        order: _arrays.IP,
        problem: Problem,
        tables: list[list[int]],
        left: list[int],
    ) -> Pods:
        """The engine's repair of the fill and swaps ``tables`` (module notes)."""
        self.calls += 1
        if self.calls <= ENGINE_CALLS:
            points = np.frombuffer(state[0], dtype=np.int32)
            number = {pid: i for i, pid in enumerate(self.ids)}
            paired = pair_pods(
                [
                    PodPlayer(
                        problem.ids[k],
                        match_points=int(points[i]),
                        rank=k,
                        opponents=problem.opponents[k],
                        small_pods=0 if problem.fresh[k] else 1,
                    )
                    for k, i in enumerate(order)
                ],
                rng=random.Random(0),
                standard=self.field.standard,
            )
            found = tuple(tuple(number[pid] for pid in pod.players) for pod in paired.pods)
        else:
            seat_cheapest(problem, tables, left)
            swap_improve(problem, tables)
            found = tuple(tuple(int(order[i]) for i in pod) for pod in tables)
        if self.stored < MEMO_LIMIT:
            self.memo.setdefault(state, {})[order.tobytes()] = found
            self.sampled.setdefault(state, []).append(found)
            self.stored += 1
        return found

    def _mates(self, s: Rows, row: int, played: int) -> list[frozenset[str]]:
        """Everyone each live player shared a pod with, the simulated rounds included."""
        mates = list(self.mates)
        for pods in self._history(s, row, played):
            for pod in pods:
                names = frozenset(self.ids[i] for i in pod)
                for i in pod:
                    mates[i] = mates[i] | (names - {self.ids[i]})
        return mates

    def _history(self, s: Rows, row: int, played: int) -> tuple[Pods, ...]:
        """A row's simulated pods so far (player numbers), round by round, each round's
        pods sorted: the same pods give the same value."""
        rounds: list[Pods] = []
        order = s.player[:, row].tolist()
        mask = np.uint64((1 << self.field.lane) - 1)
        for r in range(played):
            word, shift = s.lane(self.field, r)
            tables = (s.words[word, :, row] >> np.uint64(shift)) & mask
            pods: dict[int, list[int]] = {}
            for i, t in zip(order, tables.tolist(), strict=True):
                pods.setdefault(t, []).append(i)
            rounds.append(tuple(sorted(tuple(sorted(pod)) for pod in pods.values())))
        return tuple(rounds)


def _write(st: Seating, row: int, order: _arrays.IP, pods: Pods) -> None:
    """Seat ``pods`` (player numbers, table order) in ``row`` of ``st``."""
    position = np.empty_like(order)
    position[order] = np.arange(order.size)
    st.pos[:, :, row] = -1
    for t, pod in enumerate(pods):
        st.pos[t, : len(pod), row] = position[list(pod)]
        st.seated[t, row] = len(pod)
