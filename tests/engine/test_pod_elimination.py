"""Multiplayer top cut in pods and the recommended structure (MP-SE-1, MP-SE-2,
MP-SEAT-1, I-3, P-RT-6)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from pairings.engine.errors import PairingImpossible
from pairings.engine.pod_elimination import (
    POD_CUTS,
    PodCutRound,
    advancing_players,
    cut_rounds,
    multiplayer_structure,
    pod_cut_first_round,
    pod_cut_next_round,
    pod_winner,
    snake_pods,
)
from pairings.engine.pods import Pod
from tests.paths import DATA

PEER_CASES = DATA / "peer_cases.json"


def seeded(n: int) -> list[str]:
    """Ids named after their Swiss seed: ``s1`` is seed 1."""
    return [f"s{k}" for k in range(1, n + 1)]


def seeds_of(ids: list[str]) -> dict[str, int]:
    return {pid: k for k, pid in enumerate(ids, start=1)}


def numbers(ids: tuple[str, ...] | list[str]) -> list[int]:
    return [int(pid[1:]) for pid in ids]


def pods_as_seeds(played: PodCutRound) -> list[list[int]]:
    return [numbers(pod.players) for pod in played.pods]


def play_out(cut: int, winner: Callable[[Pod], str | None]) -> list[PodCutRound]:
    """Every round of a top cut of ``cut`` players until the final has been paired."""
    ids = seeded(cut)
    seed_of = seeds_of(ids)
    rounds = [pod_cut_first_round(ids)]
    while not rounds[-1].is_final:
        played = rounds[-1]
        advancing = advancing_players(played, {p.table: winner(p) for p in played.pods}, seed_of)
        rounds.append(pod_cut_next_round(advancing, seed_of))
    return rounds


def worst_seed_wins(pod: Pod) -> str:
    return max(pod.players, key=lambda pid: int(pid[1:]))


def best_seed_wins(pod: Pod) -> str:
    return min(pod.players, key=lambda pid: int(pid[1:]))


# --- I-3: snake ---------------------------------------------------------------------------


def test_I_3_top_16_snake_pods():
    assert [numbers(p) for p in snake_pods(seeded(16), 4)] == [
        [1, 8, 9, 16],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]


def test_I_3_snake_needs_equal_pods():
    with pytest.raises(ValueError):
        snake_pods(seeded(10), 4)
    with pytest.raises(ValueError):
        snake_pods(seeded(4), 0)


# --- MP-SE-1: cut structure -------------------------------------------------------------


@pytest.mark.parametrize(
    ("cut", "rounds"),
    [
        (4, ((0, 1),)),
        (7, ((3, 1), (0, 1))),
        (10, ((2, 2), (0, 1))),
        (13, ((1, 3), (0, 1))),
        (16, ((0, 4), (0, 1))),
        (40, ((8, 8), (0, 4), (0, 1))),
        (64, ((0, 16), (0, 4), (0, 1))),
    ],
)
def test_MP_SE_1_byes_and_pods_per_round(cut, rounds):
    assert cut_rounds(cut) == rounds


@pytest.mark.parametrize("cut", [2, 5, 8, 12, 19, 32])
def test_MP_SE_1_other_cut_sizes_are_rejected(cut):
    with pytest.raises(PairingImpossible, match="4, 7, 10, 13, 16, 40, 64"):
        cut_rounds(cut)


@pytest.mark.parametrize(
    ("cut", "byes", "pods"),
    [
        (4, [], [[1, 2, 3, 4]]),
        (7, [1, 2, 3], [[4, 5, 6, 7]]),
        (10, [1, 2], [[3, 6, 7, 10], [4, 5, 8, 9]]),
        (13, [1], [[2, 7, 8, 13], [3, 6, 9, 12], [4, 5, 10, 11]]),
        (16, [], [[1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]]),
    ],
)
def test_MP_SE_1_first_round_of_each_small_cut(cut, byes, pods):
    played = pod_cut_first_round(seeded(cut))
    assert numbers(played.byes) == byes
    assert pods_as_seeds(played) == pods
    assert [pod.table for pod in played.pods] == list(range(1, len(pods) + 1))


def test_MP_SE_1_a_first_round_of_one_pod_beside_byes_is_not_the_final():
    """Top 7 plays seeds 4-7 in one pod first; the final comes after."""
    played = pod_cut_first_round(seeded(7))
    assert played.pods[0].why == "top cut: seeds 4, 5, 6, 7"
    assert pod_cut_first_round(seeded(4)).pods[0].why == "top cut final: seeds 1, 2, 3, 4"


def test_MP_SE_1_top_40_gives_seeds_1_to_8_a_bye_and_pairs_32_in_8_pods():
    played = pod_cut_first_round(seeded(40))
    assert numbers(played.byes) == list(range(1, 9))
    assert pods_as_seeds(played)[0] == [9, 24, 25, 40]
    assert pods_as_seeds(played)[7] == [16, 17, 32, 33]
    assert sorted(s for pod in pods_as_seeds(played) for s in pod) == list(range(9, 41))


def test_MP_SE_1_top_64_plays_16_pods_then_4_then_the_final():
    rounds = play_out(64, best_seed_wins)
    assert [len(r.pods) for r in rounds] == [16, 4, 1]
    assert pods_as_seeds(rounds[1]) == [
        [1, 8, 9, 16],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]
    assert pods_as_seeds(rounds[2]) == [[1, 2, 3, 4]]


@pytest.mark.parametrize("cut", POD_CUTS)
def test_MP_SE_1_every_cut_ends_in_one_final_pod_of_4(cut):
    for winner in (best_seed_wins, worst_seed_wins):
        final = play_out(cut, winner)[-1]
        assert final.is_final
        assert [pod.size for pod in final.pods] == [4]
        assert final.pods[0].why.startswith("top cut final: seeds ")


def test_MP_SE_1_I_3_later_rounds_snake_the_winners_by_swiss_seed():
    # Top 40: the worst seed of every quarter-final pod wins; the semi-finals snake the
    # byes 1-8 and the winners 33-40 by seed.
    rounds = play_out(40, worst_seed_wins)
    assert pods_as_seeds(rounds[1]) == [
        [1, 8, 33, 40],
        [2, 7, 34, 39],
        [3, 6, 35, 38],
        [4, 5, 36, 37],
    ]
    assert pods_as_seeds(rounds[2]) == [[37, 38, 39, 40]]


def test_MP_SE_1_next_round_needs_a_power_of_four():
    ids = seeded(8)
    with pytest.raises(PairingImpossible, match="8 players advance"):
        pod_cut_next_round(ids, seeds_of(ids))


def test_MP_SE_1_a_player_listed_twice_is_rejected():
    with pytest.raises(PairingImpossible, match="listed twice"):
        pod_cut_first_round(["a", "b", "c", "a"])


def _peer_cases() -> list[dict[str, str]]:
    return json.loads(PEER_CASES.read_text(encoding="utf-8"))["edh_matchmaker_topcut"]["cases"]


def test_MP_SE_1_peer_cases_cover_the_five_small_cuts():
    assert [case["cut"] for case in _peer_cases()] == [
        "TOP_4",
        "TOP_7",
        "TOP_10",
        "TOP_13",
        "TOP_16",
    ]


@pytest.mark.parametrize(
    ("cut", "byes", "pods"),
    [("TOP_4", 0, 1), ("TOP_7", 3, 1), ("TOP_10", 2, 2), ("TOP_13", 1, 3), ("TOP_16", 0, 4)],
)
def test_MP_SE_1_edh_matchmaker_topcut_cases(cut, byes, pods):
    """EDH_matchmaker tests/test_topcut.py: 16 players, 4-player pods."""
    case = next(c for c in _peer_cases() if c["cut"] == cut)
    standings = seeded(16)
    size = int(cut.split("_")[1])
    first = pod_cut_first_round(standings[:size])
    assert (len(first.byes), len(first.pods)) == (byes, pods), case["expect"]
    assert numbers(first.byes) == list(range(1, byes + 1))  # the byes go to the top seeds
    assert sum(pod.size for pod in first.pods) == size - byes
    assert all(pod.size == 4 for pod in first.pods)
    if size == 4:
        assert first.is_final  # the final pod of the 4 leaders, then the event is complete
        return
    seed_of = seeds_of(standings)
    advancing = advancing_players(first, {p.table: None for p in first.pods}, seed_of)
    final = pod_cut_next_round(advancing, seed_of)  # "then TOP_4"
    assert final.is_final and len(final.pods[0].players) == 4


# --- MP-SEAT-1: seats in the top cut ------------------------------------------------------


def test_MP_SEAT_1_top_cut_seats_follow_swiss_standing():
    played = pod_cut_first_round(seeded(16))
    assert played.pods[0].players == ("s1", "s8", "s9", "s16")
    assert played.pods[0].why == "top cut: seeds 1, 8, 9, 16"
    seed_of = seeds_of(seeded(16))
    final = pod_cut_next_round(["s16", "s3", "s10", "s5"], seed_of)
    assert final.pods[0].players == ("s3", "s5", "s10", "s16")
    assert final.pods[0].why == "top cut final: seeds 3, 5, 10, 16"


# --- MP-SE-2: a drawn pod is won by the best Swiss seed ---------------------------------


def test_MP_SE_2_drawn_pod_goes_to_the_highest_swiss_seed():
    pod = Pod(table=1, players=("s2", "s7", "s10", "s15"))
    assert pod_winner(pod, None, seeds_of(seeded(16))) == "s2"


def test_MP_SE_2_a_player_who_conceded_cannot_win_the_draw():
    pod = Pod(table=1, players=("s2", "s7", "s10", "s15"))
    seed_of = seeds_of(seeded(16))
    assert pod_winner(pod, None, seed_of, excluded=frozenset({"s2"})) == "s7"
    with pytest.raises(PairingImpossible, match="nobody"):
        pod_winner(pod, None, seed_of, excluded=frozenset(pod.players))


def test_MP_SE_2_a_reported_winner_advances():
    pod = Pod(table=3, players=("s2", "s7", "s10", "s15"))
    seed_of = seeds_of(seeded(16))
    assert pod_winner(pod, "s15", seed_of) == "s15"
    with pytest.raises(PairingImpossible, match="did not play at table 3"):
        pod_winner(pod, "s1", seed_of)


def test_MP_SE_2_drawn_pods_advance_the_best_seeds_through_the_cut():
    rounds = play_out(13, lambda pod: None)
    assert pods_as_seeds(rounds[-1]) == [[1, 2, 3, 4]]


def test_MP_SE_1_a_table_without_result_blocks_the_next_round():
    played = pod_cut_first_round(seeded(10))
    with pytest.raises(PairingImpossible, match="Table 2 has no result"):
        advancing_players(played, {1: "s3"}, seeds_of(seeded(10)))


# --- P-RT-6: recommended structure ------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "structure"),
    [
        (4, (0, 0)),
        (5, (0, 0)),
        (6, (2, 4)),
        (16, (2, 4)),
        (17, (3, 7)),
        (24, (3, 7)),
        (25, (4, 10)),
        (32, (4, 10)),
        (33, (5, 13)),
        (40, (5, 13)),
        (41, (5, 16)),
        (64, (5, 16)),
        (65, (6, 16)),
        (128, (6, 16)),
        (129, (7, 40)),
        (256, (7, 40)),
        (257, (8, 40)),
        (512, (8, 40)),
        (513, (9, 64)),
        (2000, (9, 64)),
    ],
)
def test_P_RT_6_table_rows(players, structure):
    assert multiplayer_structure(players, small_pods=0) == structure


def test_P_RT_6_30_players_with_two_3_pods_use_the_row_for_32():
    assert multiplayer_structure(30, small_pods=2) == (4, 10)
    assert multiplayer_structure(30) == (4, 10)  # pod_sizes(30) has two pods of 3


def test_P_RT_6_invisible_players_can_move_an_event_to_the_next_row():
    assert multiplayer_structure(63, small_pods=0) == (5, 16)
    assert multiplayer_structure(63, small_pods=3) == (6, 16)
    assert multiplayer_structure(39) == (5, 13)  # one pod of 3: the row for 40


def test_P_RT_6_fewer_than_four_players_is_impossible():
    with pytest.raises(PairingImpossible):
        multiplayer_structure(3)
    with pytest.raises(ValueError):
        multiplayer_structure(20, small_pods=-1)
