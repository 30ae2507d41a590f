"""Single elimination and top cut (P-SE-1, P-SE-2, P-SE-6, P-TC-1, P-TC-4, P-TC-5)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairings.engine.elimination import (
    bracket_order,
    next_elimination_round,
    random_seeding,
    single_elimination_first_round,
    slot_winners,
    third_place_playoff,
    top_cut_pairings,
)
from pairings.engine.errors import PairingImpossible
from pairings.engine.types import Pairing


def seeded(n: int) -> list[str]:
    """Ids named after their seed: ``s1`` is seed 1."""
    return [f"s{i}" for i in range(1, n + 1)]


def seeds_of(ids: list[str]) -> dict[str, int]:
    return {pid: i for i, pid in enumerate(ids, start=1)}


def play_out(ids: list[str], winner: Callable[[Pairing], str]) -> list[tuple[Pairing, ...]]:
    """Every round of a bracket until one player is left; ``winner`` picks who goes on."""
    seed_of = seeds_of(ids)
    rounds = [single_elimination_first_round(ids)]
    while True:
        current = rounds[-1]
        advancing = slot_winners(current, {p.table: winner(p) for p in current if p.table})
        if len(advancing) == 1:
            return rounds
        rounds.append(next_elimination_round(advancing, seed_of))


def better_seed_wins(pairing: Pairing) -> str:
    return min(pairing.players, key=lambda pid: int(pid[1:]))


# --- P-SE-1: bracket order ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "order"),
    [
        (1, (1,)),
        (2, (1, 2)),
        (4, (1, 4, 2, 3)),
        (8, (1, 8, 4, 5, 2, 7, 3, 6)),
        (16, (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)),
    ],
)
def test_P_SE_1_standard_bracket_order(size, order):
    assert bracket_order(size) == order


@pytest.mark.parametrize("size", [0, -4, 3, 6, 12, 100])
def test_P_SE_1_bracket_order_needs_a_power_of_two(size):
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(size)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_P_SE_1_every_first_round_match_adds_up_to_size_plus_one(size):
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert {a + b for a, b in zip(order[::2], order[1::2], strict=True)} == {size + 1}


def test_P_SE_1_random_seeding_is_a_seeded_permutation():
    ids = seeded(16)
    first = random_seeding(ids, rng=random.Random(5))
    assert sorted(first) == sorted(ids)
    assert random_seeding(list(reversed(ids)), rng=random.Random(5)) == first
    assert random_seeding(ids, rng=random.Random(6)) != first


# --- P-SE-2: byes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "byes", "matches"),
    [(2, 0, 1), (3, 1, 1), (5, 3, 1), (6, 2, 2), (8, 0, 4), (9, 7, 1), (53, 11, 21), (64, 0, 32)],
)
def test_P_SE_2_top_seeds_get_first_round_byes(players, byes, matches):
    ids = seeded(players)
    first = single_elimination_first_round(ids)
    bye_slots = [p for p in first if p.is_bye]
    assert len(bye_slots) == byes
    assert sorted(p.players[0] for p in bye_slots) == sorted(ids[:byes])
    for slot in bye_slots:
        assert slot.table is None
        assert slot.why == f"bye: seed {ids.index(slot.players[0]) + 1}"
    tables = [p.table for p in first if not p.is_bye]
    assert tables == list(range(1, matches + 1))
    assert sorted(x for p in first for x in p.players) == sorted(ids)


def test_P_SE_2_53_players_get_11_byes():
    first = single_elimination_first_round(seeded(53))
    assert len(first) == 32
    assert [p.players[0] for p in first if p.is_bye] == [
        "s1", "s8", "s9", "s4", "s5", "s2", "s7", "s10", "s3", "s6", "s11",
    ]  # fmt: skip
    assert first[1] == Pairing(table=1, players=("s32", "s33"), why="seed 32 vs seed 33")


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 70))
def test_P_SE_2_after_round_1_no_more_byes_and_top_seeds_meet_last(players):
    rounds = play_out(seeded(players), better_seed_wins)
    for later in rounds[1:]:
        assert not any(p.is_bye for p in later)
        assert all(int(p.players[0][1:]) < int(p.players[1][1:]) for p in later)
    assert [p.players for p in rounds[-1]] == [("s1", "s2")]
    assert len(rounds) == (players - 1).bit_length()


# --- P-TC: top cut ------------------------------------------------------------------------


def test_P_TC_1_top_8_first_round():
    assert top_cut_pairings(seeded(8)) == (
        Pairing(table=1, players=("s1", "s8"), why="top cut: seed 1 vs seed 8"),
        Pairing(table=2, players=("s4", "s5"), why="top cut: seed 4 vs seed 5"),
        Pairing(table=3, players=("s2", "s7"), why="top cut: seed 2 vs seed 7"),
        Pairing(table=4, players=("s3", "s6"), why="top cut: seed 3 vs seed 6"),
    )


@pytest.mark.parametrize("size", [3, 6, 10, 12])
def test_P_TC_1_top_cut_needs_a_power_of_two(size):
    with pytest.raises(PairingImpossible, match="power of two"):
        top_cut_pairings(seeded(size))


def test_P_TC_5_higher_seed_listed_first_in_later_rounds():
    ids = seeded(8)
    quarter_finals = top_cut_pairings(ids)
    upsets = {1: "s8", 2: "s5", 3: "s7", 4: "s3"}
    semi_finals = next_elimination_round(
        slot_winners(quarter_finals, upsets), seeds_of(ids), top_cut=True
    )
    assert semi_finals == (
        Pairing(table=1, players=("s5", "s8"), why="top cut: seed 5 vs seed 8"),
        Pairing(table=2, players=("s3", "s7"), why="top cut: seed 3 vs seed 7"),
    )


def test_P_TC_4_third_place_playoff_between_the_semi_final_losers():
    ids = seeded(4)
    semi_finals = top_cut_pairings(ids)  # 1–4 and 2–3
    winners = {1: "s4", 2: "s2"}
    final = next_elimination_round(slot_winners(semi_finals, winners), seeds_of(ids))
    playoff = third_place_playoff(semi_finals, winners, seeds_of(ids))
    assert final == (Pairing(table=1, players=("s2", "s4"), why="seed 2 vs seed 4"),)
    assert playoff == Pairing(
        table=2, players=("s1", "s3"), why="3rd/4th place playoff: seed 1 vs seed 3"
    )


def test_P_SE_6_third_place_playoff_needs_two_semi_finals():
    quarter_finals = top_cut_pairings(seeded(8))
    with pytest.raises(PairingImpossible, match="two semi-finals"):
        third_place_playoff(quarter_finals, {}, seeds_of(seeded(8)))


# --- impossible input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ids", "message"),
    [([], "at least two players, got 0"), (["a"], "at least two players, got 1"),
     (["a", "b", "a"], "Player listed twice: a.")],
)  # fmt: skip
def test_single_elimination_refuses_impossible_input(ids, message):
    with pytest.raises(PairingImpossible, match=message):
        single_elimination_first_round(ids)


def test_next_round_refuses_a_broken_bracket():
    seed_of = seeds_of(seeded(4))
    with pytest.raises(PairingImpossible, match="3 players advance"):
        next_elimination_round(["s1", "s2", "s3"], seed_of)
    with pytest.raises(PairingImpossible, match="s9 has no seed"):
        next_elimination_round(["s1", "s9"], seed_of)


def test_slot_winners_refuses_a_missing_or_wrong_winner():
    first = top_cut_pairings(seeded(4))
    with pytest.raises(PairingImpossible, match="Table 2 has no winner"):
        slot_winners(first, {1: "s1"})
    with pytest.raises(PairingImpossible, match="s2 did not play at table 1"):
        slot_winners(first, {1: "s2", 2: "s3"})
