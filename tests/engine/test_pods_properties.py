"""Properties of Swiss pod pairing checked with hypothesis (MP-POD-1, MP-POD-2, MP-PAIR-1,
MP-SEAT-1, I-1).

Small events are compared with :func:`best_costs`, an exhaustive search over every
partition of the players into pods, written here apart from the engine.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairings.engine.pods import PodPlayer, PodRound, pair_pods, pod_sizes

seeds = st.integers(min_value=0, max_value=2**32 - 1)
MOVED_WHY = "players moved: avoids previous opponents or a second smaller pod"


@st.composite
def events(draw: st.DrawFn, min_players: int = 3, max_players: int = 10) -> list[PodPlayer]:
    """Any state: random points and ranks, a random symmetric history, random players
    who already sat in a smaller pod."""
    n = draw(st.integers(min_players, max_players))
    ids = [f"p{i:03d}" for i in range(n)]
    density = draw(st.sampled_from([0, 2, 4, 6]))  # tenths of all pairs already met
    met: dict[str, set[str]] = {pid: set() for pid in ids}
    for a, b in itertools.combinations(ids, 2):
        if draw(st.integers(0, 9)) < density:
            met[a].add(b)
            met[b].add(a)
    small_rate = draw(st.sampled_from([0, 3, 6]))
    return [
        PodPlayer(
            pid,
            match_points=draw(st.sampled_from([0, 1, 7, 8, 14])),
            rank=draw(st.integers(1, n)),
            opponents=frozenset(met[pid]),
            small_pods=int(draw(st.integers(0, 9)) < small_rate),
        )
        for pid in ids
    ]


def simulate(size: int, rounds: int, seed: int) -> list[PodPlayer]:
    """A realistic state after ``rounds`` rounds paired by the engine, random results."""
    rng = random.Random(seed)
    points = dict.fromkeys((f"q{i:04d}" for i in range(size)), 0)
    met: dict[str, set[str]] = {pid: set() for pid in points}
    small = dict.fromkeys(points, 0)

    def state() -> list[PodPlayer]:
        return [PodPlayer(p, points[p], 0, frozenset(met[p]), small[p]) for p in points]

    for number in range(rounds):
        for pod in pair_pods(state(), rng=random.Random(seed + number)).pods:
            for pid in pod.players:
                met[pid].update(o for o in pod.players if o != pid)
                small[pid] += pod.size < 4
            points[rng.choice(pod.players)] += 7
    return state()


def costs(players: Sequence[PodPlayer], pods: Sequence[Sequence[str]]) -> tuple[int, int]:
    """(repeat pairs, players in a smaller pod again) of an arrangement."""
    by_id = {p.id: p for p in players}
    repeats = sum(
        1
        for pod in pods
        for a, b in itertools.combinations(pod, 2)
        if b in by_id[a].opponents or a in by_id[b].opponents
    )
    again = sum(1 for pod in pods if len(pod) < 4 for pid in pod if by_id[pid].small_pods)
    return repeats, again


def best_costs(players: Sequence[PodPlayer]) -> tuple[int, int]:
    """The lexicographically smallest (repeats, smaller-pod repeats) over every partition
    of ``players`` into pods of the sizes MP-POD-1 prescribes (exponential: ≤ 12)."""
    assert len(players) <= 12
    ids = tuple(sorted(p.id for p in players))
    by_id = {p.id: p for p in players}

    def cost(pod: tuple[str, ...]) -> tuple[int, int]:
        return costs([by_id[x] for x in pod], [pod])

    @cache
    def best(rest: tuple[str, ...], sizes: tuple[int, ...]) -> tuple[int, int]:
        if not rest:
            return (0, 0)
        first, others = rest[0], rest[1:]
        options = []
        for size in set(sizes):
            left = list(sizes)
            left.remove(size)
            for mates in itertools.combinations(others, size - 1):
                pod = (first, *mates)
                tail = best(tuple(x for x in others if x not in mates), tuple(sorted(left)))
                head = cost(pod)
                options.append((head[0] + tail[0], head[1] + tail[1]))
        return min(options)

    return best(ids, tuple(sorted(pod_sizes(len(ids)))))


def seated(played: PodRound) -> Counter[str]:
    return Counter(pid for pod in played.pods for pid in pod.players)


@settings(max_examples=100, deadline=None)
@given(events(3, 24), seeds)
def test_MP_PAIR_1_every_player_is_seated_exactly_once(players, seed):
    played = pair_pods(players, rng=random.Random(seed))
    assert seated(played) == Counter(p.id for p in players)
    assert [pod.table for pod in played.pods] == list(range(1, len(played.pods) + 1))


@pytest.mark.parametrize("n", range(6, 201))
def test_MP_POD_1_pod_sizes_for_every_event_from_6_to_200(n):
    sizes = pod_sizes(n)
    # The fewest pods of 3 among all ways to write n = 4a + 3b, and no byes.
    fewest = min(b for b in range(n // 3 + 1) if (n - 3 * b) % 4 == 0 and n >= 3 * b)
    assert sum(sizes) == n
    assert set(sizes) <= {3, 4}
    assert sizes.count(3) == fewest
    assert list(sizes) == sorted(sizes, reverse=True)  # smaller pods at the bottom
    played = pair_pods([PodPlayer(f"x{k}") for k in range(n)], rng=random.Random(n))
    assert tuple(pod.size for pod in played.pods) == sizes


@settings(max_examples=60, deadline=None)
@given(st.integers(6, 200), st.integers(0, 4), seeds)
def test_MP_POD_1_pod_sizes_hold_after_rounds_with_history(n, rounds, seed):
    players = simulate(n, rounds, seed)
    played = pair_pods(players, rng=random.Random(seed))
    assert tuple(pod.size for pod in played.pods) == pod_sizes(n)
    assert seated(played) == Counter(p.id for p in players)


@settings(max_examples=250, deadline=None)
@given(events(3, 10), seeds)
def test_MP_PAIR_1_no_previous_opponent_in_a_pod_while_an_alternative_exists(players, seed):
    played = pair_pods(players, rng=random.Random(seed))
    pods = [pod.players for pod in played.pods]
    assert costs(players, pods)[0] == best_costs(players)[0]
    assert played.repeats == costs(players, pods)[0]
    assert played.proven_optimal


@settings(max_examples=250, deadline=None)
@given(events(3, 10), seeds)
def test_MP_POD_2_no_second_smaller_pod_while_another_arrangement_avoids_it(players, seed):
    played = pair_pods(players, rng=random.Random(seed))
    pods = [pod.players for pod in played.pods]
    assert costs(players, pods) == best_costs(players)
    assert played.small_pod_repeats == costs(players, pods)[1]


@settings(max_examples=40, deadline=None)
@given(st.integers(9, 12), st.integers(1, 3), seeds)
def test_MP_PAIR_1_realistic_histories_match_the_exhaustive_reference(n, rounds, seed):
    players = simulate(n, rounds, seed)
    played = pair_pods(players, rng=random.Random(seed))
    assert costs(players, [pod.players for pod in played.pods]) == best_costs(players)


@settings(max_examples=60, deadline=None)
@given(events(3, 30), seeds)
def test_I_1_pairing_depends_only_on_the_players_and_the_seed(players, seed):
    shuffled = list(players)
    random.Random(seed).shuffle(shuffled)
    assert pair_pods(players, rng=random.Random(seed)) == pair_pods(
        shuffled, rng=random.Random(seed)
    )


@settings(max_examples=60, deadline=None)
@given(events(3, 30), seeds)
def test_MP_PAIR_1_swapped_players_are_marked_and_tables_keep_standings_order(players, seed):
    played = pair_pods(players, rng=random.Random(seed))
    sizes = [pod.size for pod in played.pods]
    assert sizes == sorted(sizes, reverse=True) or sizes == [5]
    for pod in played.pods:
        assert pod.paired_up <= set(pod.players)
        assert pod.paired_down <= set(pod.players)
        assert not pod.paired_up & pod.paired_down
        moved = pod.paired_up | pod.paired_down
        if pod.repeats:
            assert pod.why == "repeat opponents: no alternative"
        elif pod.why != "smaller pod again: no alternative":
            assert (pod.why == MOVED_WHY) == bool(moved)


def test_MP_PAIR_1_realistic_mid_size_events_pair_without_repeats():
    # 40 players, the P-RT-6 five rounds: the fifth round pairs without any repeat.
    for seed in range(5):
        players = simulate(40, 4, seed)
        played = pair_pods(players, rng=random.Random(seed))
        assert (played.repeats, played.small_pod_repeats, played.proven_optimal) == (0, 0, True)
