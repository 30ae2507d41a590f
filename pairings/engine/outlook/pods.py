"""The cut-line outlook of a Swiss of multiplayer pods (MP-POD-1, MP-PAIR-1, MP-PTS-1,
MP-SE-1): the rest of the pod Swiss played forward with the pod pairing engine itself.

Each simulated ending plays every remaining round with :func:`pairings.engine.pods.pair_pods`
(pods of the standard size and the fewest smaller pods, no byes, previous pod-mates kept
apart while an alternative exists, a second smaller pod avoided, MP-POD-1, MP-POD-2,
MP-PAIR-1). The players are given to it in a fresh random order within each score
bracket (its ``rank``), which is the engine's own "at random among equals" made
explicit, so that the engine's answer for a given order can be remembered and reused
(the engine is deterministic for distinct ranks; only the seat order inside a pod,
which no result depends on, comes from its ``rng``). At most ``_ORDERS`` (256) distinct
orders are paired by the engine per simulated position (the points and the pods
simulated so far); an ending reaching that position with yet another order reuses one
of those 256 pairings at random. Exact while a position has fewer orders than that
(the tests' examples); a sample of the pairing draw beyond, which keeps a small event's
late rounds — where unavoidable repeats make ``pair_pods`` search, about 17 ms a call for
16 players — to seconds. And only the first ``_ENGINE_CALLS`` (256) positions of a
run are paired by the whole engine; later ones (the last simulated rounds of a small
event, where nearly every ending reaches a position of its own) by the engine's fill and
swaps without its final exact search (``_without_search``), which differs only where
repeat pod-mates or a second smaller pod cannot be avoided by the swaps. Deterministic
(counted, not timed): the same seed gives the same figures. Results are even: a pod is drawn
at the draw rate seen so far (every player of the pod scores ``points_tie``), else
each seat wins with the same chance and scores ``points_win`` (2n−1, MP-PTS-1; 7 in a
pod of 3 of a 4-player event too). Nobody drops later.

Ranking of an ending: **match points only**; players level at the cut line are drawn
at random. The MP tiebreakers (MWP, OAMP, OMWP, MP-TB-1…3) are not simulated, so a
final number of points shared across the line reads "depends on other results and
tiebreakers" (a proof, ``cutline``) and its share is the share a random draw among the
level players would give. Proofs are those of ``standings.engine.cutline`` with the pod
win and draw points: its capacity bound counts two-player matches, which hand out at
least as many points as pods of three or four do, so every proof stays sound.

The cut's ``places`` is the event's pod top cut (MP-SE-1: 4, 7, 10, 13, 16, 40 or 64).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .. import pods as _pods_engine
from .._pods_fill import fill_top_to_bottom, seat_cheapest, swap_improve, swap_repair
from ..pods import PodPlayer, pair_pods
from . import _arrays
from .model import SIMULATIONS, CutKind, GroupOutlook, OutlookPlan, OutlookPlayer
from .tally import CutTally, Tally, answer

#: Endings added to the tally at a time.
_BATCH = 1_000

#: Remembered pairings of one run (the engine's answer per bracket order and position).
_MEMO_LIMIT = 200_000

#: Distinct bracket orders paired by the engine per simulated position (points and the
#: pods simulated so far); further endings reaching the position with an order not seen
#: reuse one of those at random (module notes).
_ORDERS = 256

#: Calls of the full ``pair_pods`` per run; after them, positions not seen yet are paired
#: by :func:`_without_search` (module notes).
_ENGINE_CALLS = 256

Pods = tuple[tuple[int, ...], ...]


def _without_search(players: Sequence[PodPlayer], standard: int) -> list[tuple[str, ...]]:
    """``pair_pods``' own steps without its last one, the exact search (its fill from the
    top, the swaps of players left over, the cheapest seats and improving swaps: steps
    1–3 of ``pairings.engine.pods``); the search changes pods only where repeats or a
    second smaller pod cannot be avoided otherwise."""
    problem = _pods_engine._problem(players, random.Random(0), standard)
    tables, left = fill_top_to_bottom(problem)
    left = swap_repair(problem, tables, left)
    if left:
        seat_cheapest(problem, tables, left)
        swap_improve(problem, tables)
    return [tuple(problem.ids[i] for i in pod) for pod in tables]


@dataclass(frozen=True)
class PodRules:
    """What a pod Swiss adds to :class:`OutlookPlan`.

    standard: the event's pod size (4 or 3, MP-POD-1). small_pods: by player id, how
    many smaller pods they sat in so far (MP-POD-2; absent: none). The players'
    ``OutlookPlayer.opponents`` hold everyone they shared a pod with (MP-PAIR-1).
    """

    standard: int = 4
    small_pods: Mapping[str, int] = field(default_factory=dict)


def pod_outlook(
    players: Sequence[OutlookPlayer],
    plan: OutlookPlan,
    rules: PodRules,
    *,
    seed: int,
    simulations: int | None = None,
) -> GroupOutlook:
    """Simulate the rest of a pod Swiss ``simulations`` times (default
    :data:`~pairings.engine.outlook.model.SIMULATIONS`) and prove what match points prove.

    players: every player of the group, active or not (``match_points`` so far,
    ``opponents`` their pod-mates, ``division``). plan: ``rounds_left``, ``cuts`` (the
    pod top cut's places per division, MP-SE-1), ``points_win`` / ``points_tie`` (7 / 1
    for pods of 4, MP-PTS-1), ``draw_rate`` (drawn pods ÷ pods played, 0–1),
    ``rounds_total``; its ``measure`` and ``day2_rounds`` are not used. Returns a
    :class:`GroupOutlook` with one top-cut :class:`CutOutlook` per division with a cut:
    shares 0–1, IN / OUT only when proven. Raises ValueError for a player listed twice,
    fewer than 1 simulation or a pod size other than 3 or 4. Implements MP-POD-1,
    MP-POD-2, MP-PAIR-1 (through ``pair_pods``), MP-PTS-1, MP-SE-1.
    """
    simulations = SIMULATIONS if simulations is None else simulations
    if simulations < 1:
        raise ValueError("at least one simulation is needed")
    if rules.standard not in (3, 4):
        raise ValueError("the pod size must be 3 or 4")
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    n = len(players)
    divisions = sorted({p.division for p in players})
    top = max((p.match_points for p in players), default=0) + plan.points_win * plan.rounds_left
    cuts = [
        CutTally(CutKind.TOP_CUT, d, plan.cuts[d], None, Tally.empty(n, top))
        for d in divisions
        if plan.cuts.get(d, 0) > 0
    ]
    run = _Run(players, plan, rules, random.Random(seed))
    start = np.array([p.match_points for p in players], dtype=np.int32)
    division = np.array([divisions.index(p.division) for p in players])
    active = np.array([p.active for p in players], dtype=bool)
    done = 0
    while done < simulations:
        rows = min(_BATCH, simulations - done)
        points = np.empty((rows, n), dtype=np.int32)
        first = np.empty((rows, n), dtype=np.int32) if plan.rounds_left else None
        for row in range(rows):
            final, after_one = run.ending()
            points[row] = final
            if first is not None:
                first[row] = after_one
        lot = np.random.default_rng(run.rng.getrandbits(63)).random((rows, n))
        for c in cuts:
            eligible = np.broadcast_to(
                active & (division == divisions.index(c.division or "")), (rows, n)
            )
            made = _cut(points, eligible, c.places, lot)
            c.tally.add(
                made, eligible, points, first, np.broadcast_to(start, (rows, n)), plan.points_win
            )
        done += rows
    return GroupOutlook(
        cuts=tuple(answer(c, players, plan, simulations) for c in cuts),
        simulations=simulations,
        seed=seed,
        rounds_left=plan.rounds_left,
        draw_rate=plan.draw_rate,
    )


def _cut(
    points: _arrays.I32, eligible: _arrays.Bool, places: int, lot: _arrays.F64
) -> _arrays.Bool:
    """Who takes the ``places`` places in each row: match points, then the lot."""
    rows, n = points.shape
    if places >= n:
        return np.asarray(eligible.copy(), dtype=bool)
    key = np.where(eligible, points.astype(np.float64) + lot * 0.5, -1.0)
    order = np.argsort(-key, axis=1, kind="stable")[:, :places]
    made: _arrays.Bool = np.zeros((rows, n), dtype=bool)
    np.put_along_axis(made, order, True, axis=1)
    made &= eligible
    return made


class _Run:
    """The endings of one :func:`pod_outlook` call, with the engine's remembered answers."""

    def __init__(
        self,
        players: Sequence[OutlookPlayer],
        plan: OutlookPlan,
        rules: PodRules,
        rng: random.Random,
    ) -> None:
        self.plan, self.rules, self.rng = plan, rules, rng
        self.ids = [p.id for p in players]
        self.points = [p.match_points for p in players]
        self.live = [i for i, p in enumerate(players) if p.active]
        self.met = [frozenset(p.opponents) for p in players]
        self.small = [rules.small_pods.get(p.id, 0) for p in players]
        # position (points, simulated pods so far) → bracket order → the engine's pods
        self.memo: dict[tuple[object, ...], dict[tuple[int, ...], Pods]] = {}
        self.sampled: dict[tuple[object, ...], list[Pods]] = {}
        self.stored = 0
        self.calls = 0

    def ending(self) -> tuple[list[int], list[int]]:
        """One simulated ending: every player's final points, and after the next round."""
        points = list(self.points)
        met = list(self.met)
        small = list(self.small)
        history: tuple[tuple[int, ...], ...] = ()
        after_one = points
        for k in range(self.plan.rounds_left):
            pods = self._pair(points, met, small, history)
            for pod in pods:
                if self.rng.random() < self.plan.draw_rate:
                    for i in pod:
                        points[i] += self.plan.points_tie
                else:
                    points[pod[self.rng.randrange(len(pod))]] += self.plan.points_win
                names = frozenset(self.ids[i] for i in pod)
                for i in pod:
                    met[i] = met[i] | (names - {self.ids[i]})
                    if len(pod) < self.rules.standard:
                        small[i] += 1
            history += tuple(sorted(pods))
            if k == 0:
                after_one = list(points)
        return points, after_one

    def _pair(
        self,
        points: list[int],
        met: list[frozenset[str]],
        small: list[int],
        history: tuple[tuple[int, ...], ...],
    ) -> list[tuple[int, ...]]:
        """One round's pods (player indexes), the live players in a random order within
        each bracket (MP-PAIR-1), as ``pair_pods`` seats them."""
        order = list(self.live)
        self.rng.shuffle(order)
        order.sort(key=lambda i: -points[i])
        state = (tuple(points), history)
        pairings = self.memo.setdefault(state, {})
        found = pairings.get(tuple(order))
        if found is None and len(pairings) >= _ORDERS:  # a sample of this position's draws
            found = self.sampled[state][self.rng.randrange(_ORDERS)]
        if found is None:
            index = {pid: i for i, pid in enumerate(self.ids)}
            players = [
                PodPlayer(
                    self.ids[i],
                    match_points=points[i],
                    rank=place,
                    opponents=met[i],
                    small_pods=small[i],
                )
                for place, i in enumerate(order)
            ]
            self.calls += 1
            if self.calls <= _ENGINE_CALLS:
                paired = pair_pods(players, rng=random.Random(0), standard=self.rules.standard)
                tables = [pod.players for pod in paired.pods]
            else:
                tables = _without_search(players, self.rules.standard)
            found = tuple(tuple(sorted(index[pid] for pid in pod)) for pod in tables)
            if self.stored < _MEMO_LIMIT:
                pairings[tuple(order)] = found
                self.sampled.setdefault(state, []).append(found)
                self.stored += 1
        return list(found)
