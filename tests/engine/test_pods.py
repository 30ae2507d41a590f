"""Swiss pairing of multiplayer pods: hand-checked cases (MP-POD-1, MP-POD-2, MP-PAIR-1,
MP-SEAT-1, I-1)."""

from __future__ import annotations

import json
import random
import re

import pytest

from pairings.engine.errors import PairingImpossible
from pairings.engine.pods import Pod, PodPlayer, PodRound, pair_pods, pod_sizes
from tests.paths import DATA

WORKED_EXAMPLES = DATA / "worked_examples.json"


def ranked(n: int, **history: tuple[str, ...]) -> list[PodPlayer]:
    """Players ``p1``..``pn`` in standings order (rank k = ``pk``); ``history`` maps an id
    to the ids it already met (made symmetric here)."""
    met: dict[str, set[str]] = {f"p{k}": set() for k in range(1, n + 1)}
    for pid, others in history.items():
        for other in others:
            met[pid].add(other)
            met[other].add(pid)
    return [PodPlayer(f"p{k}", 0, k, frozenset(met[f"p{k}"])) for k in range(1, n + 1)]


def members(played: PodRound) -> list[set[str]]:
    return [set(pod.players) for pod in played.pods]


def pod_of(played: PodRound, pid: str) -> Pod:
    return next(pod for pod in played.pods if pid in pod.players)


# --- MP-POD-1: pod sizes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (23, (4, 4, 4, 4, 4, 3)),
        (22, (4, 4, 4, 4, 3, 3)),
        (21, (4, 4, 4, 3, 3, 3)),
        (20, (4, 4, 4, 4, 4)),
        (9, (3, 3, 3)),
        (8, (4, 4)),
        (7, (4, 3)),
        (6, (3, 3)),
        (4, (4,)),
        (3, (3,)),
    ],
)
def test_MP_POD_1_fewest_smaller_pods_and_no_byes(n, sizes):
    assert pod_sizes(n) == sizes


def test_MP_POD_1_22_players_make_4_pods_of_4_and_2_of_3():
    assert pod_sizes(22) == (4, 4, 4, 4, 3, 3)


def test_MP_POD_1_five_players_play_one_pod_of_five():
    assert pod_sizes(5) == (5,)


@pytest.mark.parametrize(
    ("n", "sizes"),
    [(2, (2,)), (3, (3,)), (4, (2, 2)), (7, (3, 2, 2)), (10, (3, 3, 2, 2)), (12, (3, 3, 3, 3))],
)
def test_MP_POD_1_standard_pods_of_three_use_pods_of_two(n, sizes):
    assert pod_sizes(n, standard=3) == sizes


@pytest.mark.parametrize(("n", "standard"), [(0, 4), (1, 4), (2, 4), (1, 3), (0, 3)])
def test_MP_POD_1_too_few_players_is_impossible(n, standard):
    with pytest.raises(PairingImpossible):
        pod_sizes(n, standard=standard)


@pytest.mark.parametrize("standard", [2, 5])
def test_MP_POD_1_standard_size_is_three_or_four(standard):
    with pytest.raises(ValueError, match="3 or 4"):
        pod_sizes(12, standard=standard)


def _pod_size_examples() -> list[tuple[int, str]]:
    data = json.loads(WORKED_EXAMPLES.read_text(encoding="utf-8"))
    return [
        (int(ex["input"].split()[0]), ex["expected"])
        for ex in data
        if ex["src"] == "MTG MP addendum 10.4A pod sizes"
    ]


def test_MP_POD_1_worked_examples_are_all_found():
    assert [n for n, _ in _pod_size_examples()] == [23, 22, 21]


@pytest.mark.parametrize(("n", "expected"), _pod_size_examples())
def test_MP_POD_1_worked_examples_of_the_addendum(n, expected):
    sizes = pod_sizes(n)
    counts = re.fullmatch(r"(\d+)x4 \+ (\d+)x3", expected)
    assert counts is not None
    assert (sizes.count(4), sizes.count(3)) == (int(counts[1]), int(counts[2]))
    played = pair_pods(ranked(n), rng=random.Random(0))
    assert tuple(pod.size for pod in played.pods) == sizes


# --- MP-PAIR-1: top-to-bottom fill ------------------------------------------------------


def test_MP_PAIR_1_pods_fill_top_to_bottom_in_standings_order():
    played = pair_pods(ranked(11), rng=random.Random(3))
    assert members(played) == [
        {"p1", "p2", "p3", "p4"},
        {"p5", "p6", "p7", "p8"},
        {"p9", "p10", "p11"},
    ]
    assert [pod.table for pod in played.pods] == [1, 2, 3]
    assert [pod.why for pod in played.pods] == ["standings order", "standings order", "smaller pod"]
    assert (played.repeats, played.small_pod_repeats, played.notes) == (0, 0, ())


def test_MP_PAIR_1_match_points_come_before_the_rank():
    players = [
        PodPlayer("a", 0, 1),
        PodPlayer("b", 7, 8),
        PodPlayer("c", 7, 7),
        PodPlayer("d", 1, 2),
        PodPlayer("e", 14, 5),
        PodPlayer("f", 7, 6),
        PodPlayer("g", 0, 3),
        PodPlayer("h", 2, 4),
    ]
    played = pair_pods(players, rng=random.Random(0))
    assert members(played) == [{"e", "f", "c", "b"}, {"h", "d", "a", "g"}]


def test_MP_PAIR_1_round_one_is_random_and_reproducible():
    players = [PodPlayer(f"x{k:02d}") for k in range(16)]
    first = pair_pods(players, rng=random.Random(11))
    again = pair_pods(list(reversed(players)), rng=random.Random(11))
    other = pair_pods(players, rng=random.Random(12))
    assert first == again
    assert members(first) != members(other)


def test_MP_PAIR_1_previous_opponent_moves_down_one_pod():
    played = pair_pods(ranked(8, p2=("p1",)), rng=random.Random(0))
    assert members(played) == [{"p1", "p3", "p4", "p5"}, {"p2", "p6", "p7", "p8"}]
    assert played.pods[0].paired_up == {"p5"}
    assert played.pods[1].paired_down == {"p2"}
    assert (
        played.pods[0].why
        == played.pods[1].why
        == "players moved: avoids previous opponents or a second smaller pod"
    )
    assert played.repeats == 0


def test_MP_PAIR_1_unplaced_player_is_swapped_into_a_higher_pod():
    # p8 already met p5, p6 and p7: the first pass leaves p8 without a seat; the swap
    # sends p4 (the nearest player who fits) down and p8 up.
    played = pair_pods(ranked(8, p8=("p5", "p6", "p7")), rng=random.Random(0))
    assert members(played) == [{"p1", "p2", "p3", "p8"}, {"p4", "p5", "p6", "p7"}]
    assert played.pods[0].paired_up == {"p8"}
    assert played.pods[1].paired_down == {"p4"}
    assert played.repeats == 0


def round_one_groups(n: int) -> dict[str, tuple[str, ...]]:
    """History after a round 1 of pods {p1..p4}, {p5..p8}, …: everyone met their group."""
    return {
        f"p{k}": tuple(f"p{j}" for j in range(k + 1, (k - 1) // 4 * 4 + 5)) for k in range(1, n + 1)
    }


def test_MP_PAIR_1_no_previous_opponents_in_a_pod_when_avoidable():
    played = pair_pods(ranked(16, **round_one_groups(16)), rng=random.Random(0))
    assert members(played) == [
        {"p1", "p5", "p9", "p13"},
        {"p2", "p6", "p10", "p14"},
        {"p3", "p7", "p11", "p15"},
        {"p4", "p8", "p12", "p16"},
    ]
    assert played.repeats == 0


def test_MP_PAIR_1_fewest_repeats_when_some_are_unavoidable():
    # Three groups of four who all met, three pods of four: every pod holds two players
    # of one group (pigeonhole), so three repeats are the minimum.
    played = pair_pods(ranked(12, **round_one_groups(12)), rng=random.Random(0))
    assert played.repeats == 3
    assert [pod.repeats for pod in played.pods] == [1, 1, 1]
    assert played.proven_optimal


def test_MP_PAIR_1_unavoidable_repeats_are_counted_and_explained():
    history = {"p1": ("p2", "p3", "p4"), "p2": ("p3", "p4"), "p3": ("p4",)}
    played = pair_pods(ranked(4, **history), rng=random.Random(0))
    assert played.repeats == 6
    assert played.pods[0].repeats == 6
    assert played.pods[0].why == "repeat opponents: no alternative"
    assert played.notes == (
        "No arrangement without previous opponents was found: 6 repeat pair(s), flagged.",
    )
    assert played.proven_optimal


def test_MP_PAIR_1_a_player_listed_twice_is_rejected():
    with pytest.raises(PairingImpossible, match="listed twice: a"):
        pair_pods([PodPlayer("a"), PodPlayer("b"), PodPlayer("a")], rng=random.Random(0))


def test_MP_PAIR_1_two_players_cannot_make_a_pod():
    with pytest.raises(PairingImpossible):
        pair_pods([PodPlayer("a"), PodPlayer("b")], rng=random.Random(0))


def test_MP_PAIR_1_opponents_who_are_not_in_the_round_are_ignored():
    players = [PodPlayer(f"p{k}", 0, k, frozenset({"gone"})) for k in range(1, 5)]
    played = pair_pods(players, rng=random.Random(0))
    assert (played.repeats, members(played)) == (0, [{"p1", "p2", "p3", "p4"}])


# --- MP-POD-2: at most one smaller pod per player ---------------------------------------


def test_MP_POD_2_player_who_sat_in_a_smaller_pod_moves_into_a_higher_pod():
    players = [PodPlayer(f"p{k}", 0, k, small_pods=1 if k in (6, 7) else 0) for k in range(1, 8)]
    played = pair_pods(players, rng=random.Random(0))
    # p6 and p7 change places with p4 and p3, the nearest fresh players above them.
    assert members(played) == [{"p1", "p2", "p6", "p7"}, {"p3", "p4", "p5"}]
    assert played.pods[0].paired_up == {"p6", "p7"}
    assert played.pods[1].paired_down == {"p3", "p4"}
    assert played.small_pod_repeats == 0


def test_MP_POD_2_unavoidable_second_smaller_pod_is_flagged():
    players = [PodPlayer(f"p{k}", 0, k, small_pods=1) for k in range(1, 7)]
    played = pair_pods(players, rng=random.Random(0))
    assert [pod.size for pod in played.pods] == [3, 3]
    assert played.small_pod_repeats == 6
    assert {pod.why for pod in played.pods} == {"smaller pod again: no alternative"}
    assert (
        "6 player(s) sit in a smaller pod again: no arrangement avoiding it was found."
        in played.notes
    )


def test_MP_POD_2_repeat_avoidance_comes_first():
    # 7 players: p5 can only avoid its previous opponents in the smaller pod, although
    # it already sat in one; MP-PAIR-1 ("never") wins over MP-POD-2 ("should").
    players = ranked(7, p5=("p1", "p2", "p3", "p4"))
    players[4] = PodPlayer("p5", 0, 5, players[4].opponents, small_pods=1)
    played = pair_pods(players, rng=random.Random(0))
    assert pod_of(played, "p5").size == 3
    assert (played.repeats, played.small_pod_repeats) == (0, 1)


# --- MP-SEAT-1: random seats in Swiss ---------------------------------------------------


def test_MP_SEAT_1_seat_order_is_random_in_swiss():
    players = ranked(4)
    orders = {pair_pods(players, rng=random.Random(seed)).pods[0].players for seed in range(30)}
    assert len(orders) > 10
    assert all(set(order) == {"p1", "p2", "p3", "p4"} for order in orders)


def test_MP_SEAT_1_seats_are_reproducible_from_the_seed():
    players = ranked(13)
    assert pair_pods(players, rng=random.Random(5)) == pair_pods(players, rng=random.Random(5))


# --- tiny events --------------------------------------------------------------------------


def test_MP_POD_1_five_players_pair_as_one_pod_of_five():
    played = pair_pods(ranked(5), rng=random.Random(0))
    assert [pod.size for pod in played.pods] == [5]
    assert played.pods[0].why == "standings order"


def test_MP_POD_1_pods_of_three_when_the_organiser_chooses_them():
    played = pair_pods(ranked(7), rng=random.Random(0), standard=3)
    assert members(played) == [{"p1", "p2", "p3"}, {"p4", "p5"}, {"p6", "p7"}]
