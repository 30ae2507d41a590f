"""The cut-line outlook of a Swiss of multiplayer pods (MP-POD-1, MP-PAIR-1, MP-PTS-1,
MP-SE-1): the rest of the pod Swiss played forward with the pod pairing engine itself.

Each simulated ending plays every remaining round as :func:`pairings.engine.pods.pair_pods`
pairs it (pods of the standard size and the fewest smaller pods, no byes, previous
pod-mates kept apart while an alternative exists, a second smaller pod avoided,
MP-POD-1, MP-POD-2, MP-PAIR-1). The players stand in a fresh, uniformly random order
within each score bracket (the engine's own "at random among equals", made explicit as
its ``rank``; for distinct ranks the engine is deterministic, its ``rng`` only seating
players inside a pod, which no result depends on).

The endings are played side by side as NumPy arrays (``_pod_rounds``, ``_pod_fill``,
``_pod_swaps``):
the engine's fill and swaps (its steps 2–3) run on every ending at once and give, for
each ending, exactly the pods ``pair_pods`` gives for that order whenever they leave no
cost — nearly every ending of an event of 40 players or more (checked against
``pair_pods`` in ``tests/engine/test_outlook_pods.py``). An ending past the arrays'
bounds is paired by the engine's own fill and swaps (``_pod_engine``); one where they
leave a cost (a repeat pod-mate or a second smaller pod no swap avoids, typical of a
small event's last rounds) gets the engine's repair, with two caps counted, not timed
(``_pod_engine``): at most 256 bracket orders repaired per simulated position (the
points and the pods simulated so far), further endings there reusing one of those at
random; and the first 256 repairs of a run by the whole ``pair_pods`` (its exact
search), later ones by its seat-cheapest and swaps alone, which differ from the search
only where repeats or a second smaller pod cannot be avoided by swaps. The same seed
gives the same figures. Results are even: a pod is drawn at the draw rate seen so far
(every player of the pod scores ``points_tie``), else each seat wins with the same
chance and scores ``points_win`` (2n−1, MP-PTS-1; 7 in a pod of 3 of a 4-player event
too). Nobody drops later.

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..pods import pod_sizes
from . import _arrays, _pod_engine, _pod_fill, _pod_rounds, _pod_swaps
from .model import SIMULATIONS, CutKind, GroupOutlook, OutlookPlan, OutlookPlayer
from .tally import CutTally, Tally, answer

#: Endings played side by side (one chunk of arrays) and added to the tally at a time.
_BATCH = 10_000


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
    shares 0–1, IN / OUT only when proven. The same ``seed`` gives the same figures.
    Raises ValueError for a player listed twice, fewer than 1 simulation or a pod size
    other than 3 or 4; PairingImpossible when rounds are left and too few players are
    active to seat (``pod_sizes``). Implements MP-POD-1, MP-POD-2, MP-PAIR-1 (as
    ``pair_pods`` pairs them, module notes), MP-PTS-1, MP-SE-1.
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
    run = _Run(players, plan, rules, np.random.default_rng(seed))
    start = np.array([p.match_points for p in players], dtype=np.int32)
    division = np.array([divisions.index(p.division) for p in players])
    active = np.array([p.active for p in players], dtype=bool)
    done = 0
    while done < simulations:
        rows = min(_BATCH, simulations - done)
        points, first = run.endings(rows, start)
        lot = run.rng.random((rows, n))
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
    """The endings of one :func:`pod_outlook` call, with the engine's remembered repairs."""

    def __init__(
        self,
        players: Sequence[OutlookPlayer],
        plan: OutlookPlan,
        rules: PodRules,
        rng: np.random.Generator,
    ) -> None:
        self.plan, self.rules, self.rng = plan, rules, rng
        self.live = np.array([i for i, p in enumerate(players) if p.active], dtype=np.intp)
        self.ids = [players[i].id for i in self.live]
        number = {pid: k for k, pid in enumerate(self.ids)}
        m = len(self.ids)
        met = np.zeros((m, m), dtype=bool)
        for k, i in enumerate(self.live):
            met[k, [number[o] for o in players[i].opponents if o in number]] = True
        met |= met.T  # either side's history counts (``Problem.meets``)
        sizes = pod_sizes(m, standard=rules.standard) if plan.rounds_left else ()
        self.field = _pod_rounds.Field(
            met=met,
            lane=_pod_rounds.lane_bits(len(sizes)),
            points=np.array([players[i].match_points for i in self.live], dtype=np.int32),
            fresh=np.array([rules.small_pods.get(pid, 0) == 0 for pid in self.ids], dtype=bool),
            sizes=sizes,
            standard=rules.standard,
        )
        mates = [frozenset(self.ids[j] for j in np.flatnonzero(row)) for row in met]
        self.engine = _pod_engine.Engine(self.ids, mates, self.field, int(rng.integers(1 << 62)))

    def endings(self, rows: int, start: _arrays.I32) -> tuple[_arrays.I32, _arrays.I32 | None]:
        """``rows`` simulated endings: every player's final points, and their points after
        the next round (None without a round left); rows × players."""
        f, plan = self.field, self.plan
        s = _pod_rounds.start(f, rows, plan.rounds_left)
        first = None
        for k in range(plan.rounds_left):
            _pod_rounds.reorder(s, self.rng)
            o = _pod_rounds.ordered(f, s, k)
            st = _pod_fill.fill(f, o)
            _pod_swaps.swap_repair(f, o, st)
            for row in np.flatnonzero(~st.ok | st.repair):
                self.engine.pair(s, int(row), k, st)
            _pod_rounds.play(
                f,
                s,
                st,
                k,
                self.rng,
                draw_rate=plan.draw_rate,
                win=plan.points_win,
                tie=plan.points_tie,
            )
            if k == 0:
                first = self._everyone(start, s.by_player(s.points))
        final = self._everyone(start, s.by_player(s.points))
        return final, first

    def _everyone(self, start: _arrays.I32, live: _arrays.I32) -> _arrays.I32:
        out = np.tile(start, (live.shape[0], 1))
        out[:, self.live] = live
        return out
