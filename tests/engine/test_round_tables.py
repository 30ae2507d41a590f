"""Round-count tables (P-RT-1 … P-RT-7, S-3): every boundary of every table, typed in
from docs/rules.md section 7 and the seeds. Pure data, no database."""

from __future__ import annotations

import pytest

from rulesets import get_ruleset
from rulesets.tables import TABLES, _capped_cuts, recommend


def rc(table: str, players: int, **kwargs) -> tuple[int, int, int]:
    r = recommend(table, players, **kwargs)
    return r.rounds, r.cut, r.day2_rounds


# --- P-RT-1: TCG single day ------------------------------------------------------------------

TCG = [
    (8, 3, 0), (9, 4, 4), (12, 4, 4), (13, 5, 4), (20, 5, 4), (21, 5, 8), (32, 5, 8),
    (33, 6, 8), (64, 6, 8), (65, 7, 8), (128, 7, 8), (129, 8, 8), (226, 8, 8), (227, 9, 8),
    (409, 9, 8), (410, 10, 8), (5000, 10, 8),
]  # fmt: skip


@pytest.mark.parametrize(("players", "rounds", "cut"), TCG)
def test_P_RT_1_tcg_single_day_boundaries(players, rounds, cut):
    assert rc("pokemon-tcg", players) == (rounds, cut, 0)
    rec = get_ruleset("pokemon").recommend(players)  # the ruleset's default table
    assert (rec.rounds, rec.cut, rec.day2_rounds) == (rounds, cut, 0)


def test_P_RT_1_fewer_than_8_use_the_first_row_with_a_note():
    r = recommend("pokemon-tcg", 5)
    assert (r.rounds, r.cut, r.row) == (3, 0, "8")
    assert r.notes == ("Fewer players than the table's first row (8): using it.",)


# --- P-RT-2: TCG two days, and VG International ---------------------------------------------

TWO_DAY = [
    *[(p, r, c, 0) for p, r, c in TCG if p <= 226],
    (227, 9, 8, 5), (799, 9, 8, 5), (800, 9, 8, 6), (5000, 9, 8, 6),
]  # fmt: skip


@pytest.mark.parametrize("table", ["pokemon-tcg-two-day", "pokemon-vg-international"])
@pytest.mark.parametrize(("players", "rounds", "cut", "day2"), TWO_DAY)
def test_P_RT_2_two_day_boundaries(table, players, rounds, cut, day2):
    assert rc(table, players) == (rounds, cut, day2)


def test_P_RT_2_day_2_rows_explain_the_cut():
    r = recommend("pokemon-tcg-two-day", 227)
    assert r.notes == (
        "Day 2: every player with at least 19 match points, or the top 32, whichever is "
        "the larger group.",
    )
    assert r.elimination_rounds == 3
    assert recommend("pokemon-tcg-two-day", 226).notes == ()


# --- P-RT-3: VG --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "cut"),
    [
        (8, 3, 2), (9, 4, 4), (16, 4, 4), (17, 5, 8), (32, 5, 8), (33, 6, 8), (64, 6, 8),
        (65, 7, 8), (128, 7, 8), (129, 8, 8), (226, 8, 8), (227, 8, 16), (256, 8, 16),
        (257, 9, 16), (409, 9, 16), (410, 9, 32), (512, 9, 32), (513, 10, 32), (2000, 10, 32),
    ],
)  # fmt: skip
def test_P_RT_3_vg_boundaries(players, rounds, cut):
    assert rc("pokemon-vg", players) == (rounds, cut, 0)


# --- P-RT-4: Pokémon 2009 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(6, 3), (8, 3), (9, 4), (16, 4), (17, 5), (32, 5), (33, 6), (64, 6), (65, 7), (128, 7),
     (129, 8), (256, 8), (257, 9), (512, 9), (513, 10)],
)  # fmt: skip
def test_P_RT_4_2009_swiss_boundaries(players, rounds):
    r = recommend("pokemon-2009-swiss", players)
    assert (r.rounds, r.cut, r.allowed_rounds) == (rounds, 0, (rounds,))
    assert bool(r.notes) == (players > 256)  # beyond the table: one round per doubling


SWISS_TOP_CUT_2009 = [
    (6, (2, 3), ()), (7, (2, 3), ()), (8, (2, 3), (2,)), (9, (3, 4), (2,)), (15, (3, 4), (2,)),
    (16, (3, 4), (4, 2)), (17, (4, 5), (4, 2)), (31, (4, 5), (4, 2)), (32, (4, 5), (8, 4, 2)),
    (33, (5, 6), (8, 4, 2)), (63, (5, 6), (8, 4, 2)), (64, (5, 6), (16, 8, 4, 2)),
    (65, (6, 7), (16, 8, 4, 2)), (127, (6, 7), (16, 8, 4, 2)), (128, (6, 7), (32, 16, 8, 4, 2)),
    (129, (7, 8), (32, 16, 8, 4, 2)), (255, (7, 8), (32, 16, 8, 4, 2)),
    (256, (7, 8), (32, 16, 8, 4, 2)), (257, (8, 9), (32, 16, 8, 4, 2)),
    (511, (8, 9), (32, 16, 8, 4, 2)), (512, (8, 9), (64, 32, 16, 8, 4, 2)),
]  # fmt: skip


@pytest.mark.parametrize(("players", "allowed", "cuts"), SWISS_TOP_CUT_2009)
def test_P_RT_4_2009_swiss_plus_top_cut_rows(players, allowed, cuts):
    r = recommend("pokemon-2009-swiss-top-cut", players)
    assert (r.allowed_rounds, r.allowed_cuts) == (allowed, cuts)
    assert (r.rounds, r.cut) == (allowed[1], max(cuts, default=0))
    assert get_ruleset("pokemon-2009").recommend(players) == r


def test_P_RT_4_allowed_cuts_are_at_most_25_percent_and_12_5_from_256_players():
    # The rule reproduces every row of seed 000 §3.3.5, for every size 6..512.
    for players in range(6, 513):
        r = recommend("pokemon-2009-swiss-top-cut", players)
        assert r.allowed_cuts == _capped_cuts(players), players
        assert all(4 * c <= players for c in r.allowed_cuts)
        if players >= 256:
            assert all(8 * c <= players for c in r.allowed_cuts)


def test_P_RT_4_beyond_512_one_more_round_per_doubling():
    r = recommend("pokemon-2009-swiss-top-cut", 1025)
    assert (r.allowed_rounds, r.cut, r.row) == ((10, 11), 128, "1025–2048")


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (53, 6), (256, 8), (257, 9)],
)
def test_P_RT_4_single_elimination_rounds_are_ceil_log2(players, rounds):
    r = recommend("pokemon-2009-single-elimination", players)
    assert (r.rounds, r.cut, r.elimination_rounds) == (0, 0, rounds)


# --- P-RT-5: MTG ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "cut", "elimination"),
    [
        (4, 0, 0, 2), (5, 0, 0, 3), (8, 0, 0, 3), (9, 5, 4, 2), (16, 5, 4, 2), (17, 5, 8, 3),
        (32, 5, 8, 3), (33, 6, 8, 3), (64, 6, 8, 3), (65, 7, 8, 3), (128, 7, 8, 3),
        (129, 8, 8, 3), (226, 8, 8, 3), (227, 9, 8, 3), (409, 9, 8, 3), (410, 10, 8, 3),
    ],
)  # fmt: skip
def test_P_RT_5_mtg_boundaries(players, rounds, cut, elimination):
    r = recommend("mtg", players)
    assert (r.rounds, r.cut, r.elimination_rounds) == (rounds, cut, elimination)
    assert r.allowed_rounds == ((rounds,) if rounds else ())  # no "one less" outside Pokémon


@pytest.mark.parametrize(
    ("players", "rounds", "cut"), [(8, 0, 0), (9, 4, 8), (16, 4, 8), (17, 5, 8)]
)
def test_P_RT_5_booster_draft_playoff_row(players, rounds, cut):
    assert rc("mtg-draft-playoff", players) == (rounds, cut, 0)


@pytest.mark.parametrize(
    ("players", "byes", "counted", "rounds", "cut"),
    [
        (30, {1: 2, 3: 1}, 39, 6, 8),  # 27 + 2×2 + 1×8
        (16, {1: 1}, 17, 5, 8),  # a 1-round bye counts as 2: 16 → the 17-32 row
        (14, {2: 1}, 17, 5, 8),  # a 2-round bye counts as 4
        (8, {3: 1}, 15, 5, 4),  # a 3-round bye counts as 8: Swiss instead of SE
        (16, {}, 16, 5, 4),
    ],
)
def test_P_RT_5_awarded_byes_count_as_2_4_8_players(players, byes, counted, rounds, cut):
    r = recommend("mtg", players, awarded_byes=byes)
    assert (r.counted_players, r.rounds, r.cut) == (counted, rounds, cut)


# --- P-RT-6: MTG multiplayer ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "counted", "rounds", "cut", "elimination"),
    [
        (4, 4, 0, 0, 1), (5, 5, 0, 0, 1), (6, 8, 2, 4, 1), (16, 16, 2, 4, 1),
        (17, 20, 3, 7, 2), (24, 24, 3, 7, 2), (25, 28, 4, 10, 2), (32, 32, 4, 10, 2),
        (33, 36, 5, 13, 2), (40, 40, 5, 13, 2), (41, 44, 5, 16, 2), (64, 64, 5, 16, 2),
        (65, 68, 6, 16, 2), (128, 128, 6, 16, 2), (129, 132, 7, 40, 3), (256, 256, 7, 40, 3),
        (257, 260, 8, 40, 3), (512, 512, 8, 40, 3), (513, 516, 9, 64, 3),
    ],
)  # fmt: skip
def test_P_RT_6_multiplayer_boundaries(players, counted, rounds, cut, elimination):
    r = recommend("mtg-multiplayer", players)
    assert (r.counted_players, r.rounds, r.cut, r.elimination_rounds) == (
        counted, rounds, cut, elimination,
    )  # fmt: skip


def test_P_RT_6_30_players_with_two_3_pods_use_the_row_for_32():
    r = recommend("mtg-multiplayer", 30)
    assert (r.counted_players, r.row, r.rounds, r.cut) == (32, "25–32", 4, 10)


def test_P_RT_6_each_smaller_pod_counts_one_invisible_player():
    # An organiser who runs 30 players as 3 pods of 4 and 6 pods of 3: 36 → 33-40.
    r = recommend("mtg-multiplayer", 30, small_pods=6)
    assert (r.counted_players, r.rounds, r.cut) == (36, 5, 13)


# --- P-RT-7: seed 002 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "cut"),
    [(5, 3, 0), (8, 3, 0), (9, 4, 4), (16, 4, 4), (17, 5, 4), (32, 5, 4), (33, 6, 8),
     (64, 6, 8), (65, 7, 8), (128, 7, 8), (129, 8, 16), (256, 8, 16), (257, 9, 16),
     (512, 9, 16), (513, 10, 16)],
)  # fmt: skip
def test_P_RT_7_seed_002_boundaries(players, rounds, cut):
    r = recommend("bo3-wins-against", players)
    assert (r.rounds, r.cut) == (rounds, cut)
    assert bool(r.notes) == (players > 512)


# --- S-3: the allowed range ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "players", "allowed"),
    [("pokemon-tcg", 8, (2, 3)), ("pokemon-tcg", 143, (7, 8)), ("pokemon-vg", 600, (9, 10)),
     ("pokemon-tcg-two-day", 300, (8, 9)), ("mtg", 143, (8,)), ("bo3-wins-against", 143, (8,))],
)  # fmt: skip
def test_S_3_pokemon_allows_one_less_swiss_round(table, players, allowed):
    assert recommend(table, players).allowed_rounds == allowed


# --- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "players", "kwargs", "error", "message"),
    [
        ("nope", 10, {}, KeyError, "unknown round table 'nope'"),
        ("pokemon-tcg", 1, {}, ValueError, "at least two players"),
        ("pokemon-2009-swiss", 5, {}, ValueError, "starts at 6 players"),
        ("mtg", 3, {}, ValueError, "starts at 4 players"),
        ("mtg-multiplayer", 3, {}, ValueError, "starts at 4 players"),
        ("bo3-wins-against", 4, {}, ValueError, "starts at 5 players"),
        ("pokemon-tcg", 40, {"awarded_byes": {1: 2}}, ValueError, "Awarded byes do not change"),
        ("mtg", 40, {"small_pods": 1}, ValueError, "Smaller pods do not change"),
        ("mtg", 40, {"awarded_byes": {4: 1}}, ValueError, "1, 2 or 3 rounds"),
        ("mtg", 4, {"awarded_byes": {1: 5}}, ValueError, "More players with awarded byes"),
    ],
)
def test_recommend_refuses_what_the_tables_do_not_cover(table, players, kwargs, error, message):
    with pytest.raises(error, match=message):
        recommend(table, players, **kwargs)


def test_every_table_names_its_rule():
    assert {t.rule for t in TABLES.values()} == {f"P-RT-{k}" for k in range(1, 8)}
