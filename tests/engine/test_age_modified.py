"""Age divisions (P-AGE-1 … P-AGE-6, I-4, R-5): the Swiss style, age-modified pairing,
the round basis and the per-division cuts. No database."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairings.engine._reference import best_score, bye_candidates, score_age_pair
from pairings.engine._swiss_age import AGE_EXACT_LIMIT
from pairings.engine.ages import AgeStyle, age_mode, division_cuts, round_basis
from pairings.engine.swiss import pair_swiss
from pairings.engine.types import SwissPlayer, SwissRound
from rulesets.tables import recommend
from tournaments.ages import division_for

DIVISIONS = ("junior", "senior", "masters")


def player(pid: str, points: int, division: str, met: str = "", bye: bool = False) -> SwissPlayer:
    return SwissPlayer(pid, points, frozenset(met.split()), bye, division)


def pair(players: list[SwissPlayer], seed: int = 0, age_modified: bool = True) -> SwissRound:
    return pair_swiss(players, rng=random.Random(seed), age_modified=age_modified)


def matches(result: SwissRound) -> set[frozenset[str]]:
    return {frozenset(p.players) for p in result.pairings if not p.is_bye}


# --- P-AGE-1: divisions by birth year (the TDF module's function, not a copy) -------------


@pytest.mark.parametrize(
    ("born", "season_end", "division"),
    [
        (2008, 2019, "junior"), (2007, 2019, "senior"), (2004, 2019, "senior"),
        (2003, 2019, "masters"),  # 2019 doc: Junior 2008+, Senior 2004-2007, Masters ≤2003
        (1999, 2010, "junior"), (1998, 2010, "senior"), (1995, 2010, "senior"),
        (1994, 2010, "masters"),  # 2009 doc: Junior 1999+, Senior 1995-1998, Masters ≤1994
        (2014, 2026, "junior"), (2013, 2026, "senior"), (2010, 2026, "senior"),
        (2009, 2026, "masters"),  # one-year shift after 2021 (real TOM file)
    ],
)  # fmt: skip
def test_P_AGE_1_birth_year_boundaries(born, season_end, division):
    assert division_for(born, season_end) == division


# --- P-AGE-2, P-AGE-3, P-AGE-6: which Swiss style --------------------------------------------


def test_P_AGE_2_six_in_every_division_is_age_separated():
    mode = age_mode({"junior": 6, "senior": 6, "masters": 6})
    assert mode.style is AgeStyle.SEPARATED and not mode.age_modified
    assert mode.reason == (
        "Every division has at least 6 players (Junior 6, Senior 6, Masters 6): "
        "age-separated Swiss, each division is its own tournament."
    )


@pytest.mark.parametrize(
    ("counts", "small"),
    [
        ({"junior": 5, "senior": 6, "masters": 6}, ("junior",)),
        ({"junior": 1, "senior": 30, "masters": 90}, ("junior",)),
        ({"junior": 5, "senior": 11, "masters": 16}, ("junior",)),
        ({"junior": 2, "senior": 3, "masters": 40}, ("junior", "senior")),
    ],
)
def test_P_AGE_3_one_to_five_players_in_a_division_requires_age_modified(counts, small):
    mode = age_mode(counts)
    assert mode.style is AgeStyle.MODIFIED and mode.age_modified
    assert mode.small_divisions == small
    assert "age-modified Swiss is required" in mode.reason and "(P-AGE" not in mode.reason


def test_P_AGE_3_reason_names_the_small_division():
    assert age_mode({"junior": 5, "senior": 11, "masters": 16}).reason == (
        "Junior has only 1-5 players (Junior 5, Senior 11, Masters 16): age-modified Swiss "
        "is required; players meet their own division first, division over record."
    )


def test_P_AGE_2_an_empty_division_does_not_count():
    assert age_mode({"junior": 0, "senior": 8, "masters": 30}).style is AgeStyle.SEPARATED


def test_P_AGE_6_open_event_is_one_division():
    mode = age_mode({"open": 4})
    assert mode.style is AgeStyle.OPEN
    assert mode.reason == "Open event (Open 4): one division."


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({"adults": 3}, "Unknown division 'adults'"),
        ({"open": 10, "masters": 4}, "cannot be mixed"),
        ({"junior": -1, "masters": 8}, "negative"),
        ({"junior": 0}, "No players"),
        ({}, "No players"),
    ],
)
def test_age_mode_refuses_bad_counts(counts, message):
    with pytest.raises(ValueError, match=message):
        age_mode(counts)


# --- P-AGE-3, I-4: division over record ------------------------------------------------------


def test_P_AGE_3_masters_2_3_plays_masters_1_4_before_senior_2_3():
    # 2-3 is 6 match points, 1-4 is 3. Record-only Swiss would pair the two 2-3 players.
    players = [player("M23", 6, "masters"), player("M14", 3, "masters")]
    players += [player("S23", 6, "senior"), player("S14", 3, "senior")]
    for seed in range(20):
        result = pair(players, seed)
        assert matches(result) == {frozenset({"M23", "M14"}), frozenset({"S23", "S14"})}
        assert {p.why for p in result.pairings} == {
            "division over record: paired down from 6 points"
        }
        assert result.notes == ()
        ordinary = pair(players, seed, age_modified=False)
        assert matches(ordinary) == {frozenset({"M23", "S23"}), frozenset({"M14", "S14"})}


def test_I_4_other_division_same_record_before_other_division_nearest_record():
    # The lone Junior must cross: a Senior with the same record beats a nearer-record one.
    players = [player("J", 6, "junior"), player("S6", 6, "senior")]
    players += [player("S3a", 3, "senior"), player("S3b", 3, "senior")]
    for seed in range(20):
        result = pair(players, seed)
        assert matches(result) == {frozenset({"J", "S6"}), frozenset({"S3a", "S3b"})}
        assert result.pairings[0].why == "other division: same record"
        assert result.notes == (
            "Age-modified group: 1 pairing across divisions (no opponent of the same division "
            "was left).",
        )


def test_I_4_same_division_nearest_record_first():
    # A (9) pairs down inside Masters to the nearest record, B (6), never to C/D (3).
    players = [player("A", 9, "masters"), player("B", 6, "masters")]
    players += [player("C", 3, "masters"), player("D", 3, "masters")]
    players += [player("E", 9, "senior"), player("F", 6, "senior")]
    for seed in range(20):
        result = pair(players, seed)
        assert matches(result) == {frozenset("AB"), frozenset("CD"), frozenset("EF")}
        assert result.pair_downs == 2


def test_I_4_other_division_nearest_record_when_nothing_else_is_left():
    players = [player("J", 9, "junior"), player("S6", 6, "senior"), player("S0", 0, "senior")]
    players += [player("S0b", 0, "senior")]
    result = pair(players)
    assert matches(result) == {frozenset({"J", "S6"}), frozenset({"S0", "S0b"})}
    assert result.pairings[0].why == "other division: paired down from 9 points"


def test_P_SW_4_no_rematch_still_beats_division():
    players = [player("M1", 3, "masters", "M2"), player("M2", 3, "masters", "M1")]
    players += [player("S1", 3, "senior"), player("S2", 3, "senior")]
    result = pair(players)
    assert result.rematches == 0
    assert all(p.why == "other division: same record; rematch avoided" for p in result.pairings)


def test_P_SW_5_bye_stays_a_pod_rule_in_age_modified_pods():
    # Only J is in the lowest bracket: the bye is theirs even though giving it to a Senior
    # would keep every pairing inside its division.
    players = [player("S1", 3, "senior"), player("S2", 3, "senior"), player("S3", 3, "senior")]
    players += [player("J", 0, "junior"), player("J2", 3, "junior")]
    for seed in range(10):
        result = pair(players, seed)
        assert result.bye == "J"
        assert sum(p.why == "other division: same record" for p in result.pairings) == 1


def test_age_modified_flag_off_keeps_the_ordinary_round():
    players = [player(f"p{i}", 3 * (i % 3), DIVISIONS[i % 3], f"p{(i + 1) % 9}") for i in range(9)]
    same = [SwissPlayer(p.id, p.match_points, p.opponents, p.had_bye) for p in players]
    for seed in range(10):
        assert pair(players, seed, age_modified=False) == pair(same, seed, age_modified=False)
        # One division only: the age-modified flag changes nothing either.
        assert pair(same, seed, age_modified=True) == pair(same, seed, age_modified=False)


@st.composite
def pods(draw: st.DrawFn) -> list[SwissPlayer]:
    n = draw(st.integers(2, 11))
    ids = [f"p{i:02d}" for i in range(n)]
    met: dict[str, set[str]] = {pid: set() for pid in ids}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if draw(st.integers(0, 9)) < 3:
                met[a].add(b)
                met[b].add(a)
    return [
        SwissPlayer(
            pid,
            draw(st.sampled_from([0, 0, 1, 3, 3, 4, 6, 9])),
            frozenset(met[pid]),
            draw(st.booleans()),
            draw(st.sampled_from(DIVISIONS)),
        )
        for pid in ids
    ]


@settings(max_examples=250, deadline=None)
@given(pods(), st.integers(0, 2**32 - 1))
def test_I_4_age_modified_round_is_the_exact_best_of_every_pairing(players, seed):
    result = pair(players, seed)
    by_id = {p.id: p for p in players}
    assert Counter(x for p in result.pairings for x in p.players) == Counter(list(by_id))
    if result.bye is not None:
        assert result.bye in bye_candidates(players)
    if len({p.division for p in players}) == 1:
        return
    total = [0] * 6
    for p in result.pairings:
        if not p.is_bye:
            score = score_age_pair(players, by_id[p.players[0]], by_id[p.players[1]])
            total = [x + y for x, y in zip(total, score, strict=True)]
    assert tuple(total) == best_score(players, score_age_pair)
    assert result.proven_optimal


def test_R_5_large_age_modified_pod_is_paired_division_by_division():
    rng = random.Random(3)
    size = AGE_EXACT_LIMIT + 81  # 5 Juniors, 35 Seniors, 361 Masters: all odd
    division = ["junior"] * 5 + ["senior"] * 35 + ["masters"] * (size - 40)
    players = [player(f"p{i:03d}", rng.choice([0, 3, 6, 9]), d) for i, d in enumerate(division)]
    result = pair(players)
    assert Counter(x for p in result.pairings for x in p.players) == Counter(p.id for p in players)
    assert result.rematches == 0 and not result.proven_optimal
    # The bye evens one odd division; the other two need exactly one pairing across.
    assert sum(p.why.startswith("other division") for p in result.pairings) == 1


# --- P-AGE-4: rounds by the largest division -------------------------------------------------


def test_P_AGE_4_5_juniors_11_seniors_16_masters_play_4_rounds_not_5():
    counts = {"junior": 5, "senior": 11, "masters": 16}
    assert round_basis(counts) == 16
    assert recommend("pokemon-2009-swiss", round_basis(counts)).rounds == 4
    assert recommend("pokemon-2009-swiss", sum(counts.values())).rounds == 5


# --- P-AGE-5: per-division cuts with about the same share -----------------------------------


def test_P_AGE_5_cut_per_division_with_about_the_same_percentage():
    counts = {"junior": 5, "senior": 11, "masters": 16}
    # Masters top 4 is 25 %: Seniors 2.75 → top 2, Juniors 1.25 → no cut.
    assert division_cuts(counts, 4) == {"junior": 0, "senior": 2, "masters": 4}
    assert division_cuts({"junior": 10, "senior": 20, "masters": 40}, 8) == {
        "junior": 2, "senior": 4, "masters": 8,
    }  # fmt: skip


@pytest.mark.parametrize(("players", "cut"), [(17, 0), (18, 2), (35, 2), (36, 4), (100, 8)])
def test_P_AGE_5_geometric_rounding_boundaries(players, cut):
    # Share 8 %: 17 → 1.36 (< √2: none), 18 → 1.44 → 2; 35 → 2.8 → 2; 36 → 2.88 → 4.
    assert division_cuts({"masters": 100, "senior": players}, 8)["senior"] == cut


def test_P_AGE_5_cut_never_exceeds_the_division():
    assert division_cuts({"masters": 8, "senior": 3}, 8) == {"senior": 2, "masters": 8}


@pytest.mark.parametrize("cut", [1, 3, 6, -2])
def test_P_AGE_5_cut_must_be_a_power_of_two(cut):
    with pytest.raises(ValueError, match="power of two"):
        division_cuts({"masters": 40}, cut)
