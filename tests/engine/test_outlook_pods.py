"""The cut-line outlook of a multiplayer pod Swiss (``pairings.engine.outlook.pods``)
against an exact enumeration: every order of every score bracket (each equally likely,
as the simulation draws them), the pods the real ``pair_pods`` makes of it, every
result of every pod (a draw at the draw rate, else each seat wins alike) and the lot
among players level at the cut line (points only, module notes)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest

from pairings.engine.outlook import OutlookPlan, OutlookPlayer, PodRules, pod_outlook
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
