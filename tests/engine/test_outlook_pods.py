"""The cut-line outlook of a multiplayer pod Swiss (``pairings.engine.outlook.pods``)
against an exact enumeration: every order of every score bracket (each equally likely,
as the simulation draws them), the pods the real ``pair_pods`` makes of it, every
result of every pod (a draw at the draw rate, else each seat wins alike) and the lot
among players level at the cut line (points only, module notes)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest

from pairings.engine._pods_fill import fill_top_to_bottom, swap_repair
from pairings.engine._pods_model import Problem
from pairings.engine.outlook import (
    OutlookPlan,
    OutlookPlayer,
    PodRules,
    _pod_engine,
    _pod_fill,
    _pod_rounds,
    _pod_swaps,
    pod_outlook,
)
from pairings.engine.outlook import pods as pods_module
from pairings.engine.pods import PodPlayer, pair_pods
from standings.engine.cutline import Verdict

WIN, TIE = 7, 1


def _players(pods: Sequence[Sequence[int]], points: dict[int, int], dropped=()):
    out = []
    for pod in pods:
        for i in pod:
            mates = tuple(str(j) for j in pod if j != i)
            out.append(
                OutlookPlayer(
                    str(i), match_points=points[i], opponents=mates, active=i not in dropped
                )
            )
    return sorted(out, key=lambda p: int(p.id))


def _exact(players: Sequence[OutlookPlayer], places: int, draw: Fraction, small: dict[str, int]):
    """Each player's exact chance of the top ``places`` after one more round."""
    live = [p for p in players if p.active]
    brackets: dict[int, list[OutlookPlayer]] = {}
    for p in live:
        brackets.setdefault(p.match_points, []).append(p)
    groups = [brackets[k] for k in sorted(brackets, reverse=True)]
    orders = list(itertools.product(*(itertools.permutations(g) for g in groups)))
    made = {p.id: Fraction(0) for p in live}
    for order in orders:
        flat = [p for g in order for p in g]
        pod_round = pair_pods(
            [
                PodPlayer(p.id, p.match_points, k, frozenset(p.opponents), small.get(p.id, 0))
                for k, p in enumerate(flat)
            ],
            rng=random.Random(0),
        )
        pods = [pod.players for pod in pod_round.pods]
        outcomes = [[(None, draw)] + [(w, (1 - draw) / len(pod)) for w in pod] for pod in pods]
        for combo in itertools.product(*outcomes):
            weight = Fraction(1, len(orders))
            points = {p.id: p.match_points for p in live}
            for pod, (winner, chance) in zip(pods, combo, strict=True):
                weight *= chance
                if winner is None:
                    for pid in pod:
                        points[pid] += TIE
                else:
                    points[winner] += WIN
            if not weight:
                continue
            ranked = sorted(points.values(), reverse=True)
            line = ranked[places - 1] if len(ranked) >= places else -1
            above = sum(1 for v in points.values() if v > line)
            level = sum(1 for v in points.values() if v == line)
            for pid, v in points.items():
                if v > line:
                    made[pid] += weight
                elif v == line:
                    made[pid] += weight * Fraction(places - above, level)
    return made


EXAMPLES = {
    # 8 players after round 1: pod 0-3 won by player 0, pod 4-7 drawn; top 4
    "eight": (
        ((0, 1, 2, 3), (4, 5, 6, 7)),
        {0: 7, 1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 1, 7: 1},
        (),
        4,
    ),
    # 7 players (a pod of 4 and a pod of 3, MP-POD-1) after round 1, one more dropped
    # from 8: the smaller pod goes to players who had none (MP-POD-2); top 4
    "seven": (
        ((0, 1, 2, 3), (4, 5, 6, 7)),
        {0: 0, 1: 7, 2: 0, 3: 0, 4: 0, 5: 0, 6: 7, 7: 0},
        (7,),
        4,
    ),
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_MP_PAIR_1_MP_PTS_1_simulation_agrees_with_exact_enumeration(name):
    """Within 1 percentage point of the exact chance for every player (50,000 endings:
    standard error 0.22 points), and "in" / "out" only where the exact chance is 1 / 0."""
    pods, points, dropped, places = EXAMPLES[name]
    players = _players(pods, points, dropped)
    draw = Fraction(1, 4)
    plan = OutlookPlan(
        rounds_left=1,
        cuts={"open": places},
        points_win=WIN,
        points_tie=TIE,
        draw_rate=float(draw),
        measure=None,
        rounds_total=2,
    )
    exact = _exact(players, places, draw, {})
    result = pod_outlook(players, plan, PodRules(4), seed=7, simulations=50_000)
    (cut,) = result.cuts
    assert set(cut.players) == set(exact)
    for pid, chance in cut.players.items():
        assert abs(chance.share - float(exact[pid])) < 0.01, (pid, chance.share, exact[pid])
        if chance.verdict == Verdict.IN:
            assert exact[pid] == 1
        if chance.verdict == Verdict.OUT:
            assert exact[pid] == 0
    assert sum(c.share for c in cut.players.values()) == pytest.approx(places)


def test_MP_SE_1_a_certain_player_is_in_and_a_hopeless_one_out():
    """16 players, one round left, top 4 (MP-SE-1): a 3-0 player (21) can be caught by
    at most three (the other 21 and two on 14); a player on 0 points cannot pass the four
    players already above the 7 points they could reach; a 14-point player may be caught
    by the player on 7."""
    pods = [(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15)]
    points = {i: 0 for i in range(16)}
    points.update({0: 21, 4: 21, 8: 14, 12: 14, 13: 7})
    players = _players(pods, points)
    plan = OutlookPlan(
        rounds_left=1,
        cuts={"open": 4},
        points_win=WIN,
        points_tie=TIE,
        measure=None,
        rounds_total=4,
    )
    (cut,) = pod_outlook(players, plan, PodRules(4), seed=1, simulations=2_000).cuts
    assert cut.players["0"].verdict == Verdict.IN and cut.players["0"].share == 1.0
    assert cut.players["2"].verdict == Verdict.OUT and cut.players["2"].share == 0.0
    assert cut.players["8"].verdict == Verdict.OPEN
    assert {r.points: r.verdict for r in cut.records}[28] == Verdict.IN


def test_the_pod_outlook_is_reproducible_and_refuses_bad_input():
    pods, points, dropped, places = EXAMPLES["eight"]
    players = _players(pods, points)
    plan = OutlookPlan(
        rounds_left=2, cuts={"open": 4}, points_win=WIN, points_tie=TIE, measure=None
    )
    a = pod_outlook(players, plan, PodRules(4), seed=3, simulations=300)
    b = pod_outlook(players, plan, PodRules(4), seed=3, simulations=300)
    assert a == b
    with pytest.raises(ValueError, match="pod size"):
        pod_outlook(players, plan, PodRules(5), seed=3, simulations=10)
    with pytest.raises(ValueError, match="listed twice"):
        pod_outlook([*players, players[0]], plan, PodRules(4), seed=3, simulations=10)
    with pytest.raises(ValueError, match="at least one"):
        pod_outlook(players, plan, PodRules(4), seed=3, simulations=0)


# The arrays' fill and swaps (``_pod_fill``, ``_pod_swaps``) against the engine itself:
# every row they claim holds the pods ``pair_pods`` makes for that row's order and
# history, round after round; a row they mark for repair is one where the engine's own
# fill and swaps leave someone over.


def _played_pods(n: int, rounds: int, seed: int, drops: int):
    """A pod Swiss of ``n`` players over ``rounds`` rounds paired by ``pair_pods``, then
    ``drops`` players dropped: the outlook's players and their smaller pods."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(n)]
    points = dict.fromkeys(ids, 0)
    met: dict[str, set[str]] = {i: set() for i in ids}
    small = dict.fromkeys(ids, 0)
    for _ in range(rounds):
        order = sorted(ids, key=lambda i: (-points[i], rng.random()))
        field = [
            PodPlayer(i, points[i], k, frozenset(met[i]), small[i]) for k, i in enumerate(order)
        ]
        for pod in pair_pods(field, rng=random.Random(rng.random())).pods:
            for p in pod.players:
                met[p].update(q for q in pod.players if q != p)
                small[p] += pod.size < 4
            if rng.random() < 0.1:
                for p in pod.players:
                    points[p] += TIE
            else:
                points[rng.choice(pod.players)] += WIN
    dropped = set(rng.sample(ids, drops))
    players = [
        OutlookPlayer(
            i, match_points=points[i], opponents=tuple(sorted(met[i])), active=i not in dropped
        )
        for i in ids
    ]
    return players, {i: k for i, k in small.items() if k}


FAST_PATH_CASES = {
    # players, rounds played, rounds left, drops, lane bits (None: the field's own)
    "30 players, smaller pods": (30, 2, 3, 2, None),
    "57 players": (57, 3, 2, 1, None),
    "16 players, repairs": (16, 1, 3, 0, None),
    "30 players, 16-bit lanes": (30, 2, 3, 2, 16),
}


@pytest.mark.parametrize("name", sorted(FAST_PATH_CASES))
def test_MP_PAIR_1_MP_POD_2_the_arrays_pair_each_row_as_pair_pods(name, monkeypatch):
    """120 endings of a played event, round after round: each ending's order is by
    points; every ending the arrays pair holds ``pair_pods``' pods for that order and the
    history kept here (not the arrays' lanes, which are checked against it after each
    round); every ending marked for repair is one the engine's fill and swaps leave
    someone over; each ending seats every live player once, at tables of the pod sizes."""
    monkeypatch.setattr(_pod_engine, "ENGINE_CALLS", 8)  # the repairs' exact search: slow
    n, played, left, drops, lane = FAST_PATH_CASES[name]
    players, small = _played_pods(n, played, seed=n, drops=drops)
    plan = OutlookPlan(
        rounds_left=left,
        cuts={"open": 4},
        points_win=WIN,
        points_tie=TIE,
        draw_rate=0.1,
        measure=None,
    )
    run = pods_module._Run(players, plan, PodRules(4, small), np.random.default_rng(5))
    if lane is not None:
        run.field = dataclasses.replace(run.field, lane=lane)
        run.engine.field = run.field
    f, rows = run.field, 120
    s = _pod_rounds.start(f, rows, left)
    ids = run.ids
    live = set(ids)  # pod-mates no longer in play do not count
    base = [set(players[int(i)].opponents) & live for i in run.live]
    mates = [[set(x) for x in base] for _ in range(rows)]
    fresh = [[small.get(pid, 0) == 0 for pid in ids] for _ in range(rows)]
    claimed = repaired = swapped = 0
    for k in range(left):
        _pod_rounds.reorder(s, run.rng)
        o = _pod_rounds.ordered(f, s, k)
        st = _pod_fill.fill(f, o)
        _pod_swaps.swap_repair(f, o, st)
        for row in range(rows):
            order = s.player[:, row].tolist()
            points = s.points[:, row].tolist()
            assert points == sorted(points, reverse=True)  # standings order, MP-PAIR-1
            field = [
                PodPlayer(ids[i], points[r], r, frozenset(mates[row][i]), 0 if fresh[row][i] else 1)
                for r, i in enumerate(order)
            ]
            if not st.ok[row]:
                continue  # handed back: the engine's own functions pair it
            problem = Problem(
                ids=tuple(p.id for p in field),
                opponents=tuple(p.opponents for p in field),
                fresh=tuple(p.small_pods == 0 for p in field),
                sizes=f.sizes,
                standard=4,
            )
            tables, over = fill_top_to_bottom(problem)
            if st.repair[row]:
                repaired += 1
                assert swap_repair(problem, tables, over)  # the engine's swaps leave a cost
            else:
                claimed += 1
                swapped += bool(over)
                engine = {
                    frozenset(p.players) for p in pair_pods(field, rng=random.Random(row)).pods
                }
                assert _tables(st, s, row, ids) == engine
        for row in np.flatnonzero(~st.ok | st.repair):
            run.engine.pair(s, int(row), k, st)
        for row in range(rows):
            seated = _tables(st, s, row, ids)
            assert sorted(pid for pod in seated for pid in pod) == sorted(ids)
            assert [len(pod) for pod in _tables_list(st, s, row, ids)] == list(f.sizes)
            number = {pid: i for i, pid in enumerate(ids)}
            for pod in seated:
                for pid in pod:
                    mates[row][number[pid]] |= pod - {pid}
                    if len(pod) < 4:
                        fresh[row][number[pid]] = False
        _pod_rounds.play(f, s, st, k, run.rng, draw_rate=0.1, win=WIN, tie=TIE)
        for row in range(rows):  # the lanes hold the same history
            lanes = run.engine._mates(s, row, k + 1)
            assert [set(x) for x in lanes] == mates[row]
    assert claimed >= rows * left // 2 and swapped  # the swaps, not only the fill, agree
    if name == "16 players, repairs":
        assert repaired


def _tables_list(st, s, row, ids):
    out = []
    for t in range(st.pos.shape[0]):
        seats = [int(p) for p in st.pos[t, :, row] if p >= 0]
        out.append([ids[int(s.player[p, row])] for p in seats])
    return out


def _tables(st, s, row, ids):
    return {frozenset(pod) for pod in _tables_list(st, s, row, ids)}


def test_MP_PAIR_1_every_order_within_a_bracket_is_equally_likely():
    """Three players on 7 points, three on 0: the bracket of 7 comes first, and each of
    its 6 orders (and each of the other bracket's) comes up alike (60,000 rows, 4σ)."""
    rows = 60_000
    f = _pod_rounds.Field(
        met=np.zeros((6, 6), dtype=bool),
        lane=8,
        points=np.array([0, 7, 0, 7, 0, 7], dtype=np.int32),
        fresh=np.ones(6, dtype=bool),
        sizes=(3, 3),
        standard=3,
    )
    s = _pod_rounds.start(f, rows, 1)
    _pod_rounds.reorder(s, np.random.default_rng(11))
    assert (s.points[:3] == 7).all() and (s.points[3:] == 0).all()
    for top in (s.player[:3], s.player[3:]):
        counts = Counter(map(tuple, top.T.tolist()))
        assert len(counts) == 6
        expected, sigma = rows / 6, (rows * (1 / 6) * (5 / 6)) ** 0.5
        assert all(abs(c - expected) < 4 * sigma for c in counts.values())
