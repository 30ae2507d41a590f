"""Flights (P-FL-1 … P-FL-5, P-LATE-2) with the seeds' worked numbers. No database."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairings.engine.flights import (
    FlightPlan,
    assign_flights,
    check_flights,
    flight_options,
    flight_refusals,
    flight_rounds,
    flight_sizes,
    late_flight,
)
from rulesets.tables import recommend
from standings.engine.flights import FlightsRefused, merged_cut, per_flight_cut


@dataclass(frozen=True)
class Row:
    player: str
    match_points: int
    owp: Fraction = Fraction(1, 2)
    oowp: Fraction = Fraction(1, 2)
    late: bool = False
    dropped: bool = False


# --- P-FL-1: when flights are allowed ---------------------------------------------------------


def test_P_FL_1_allowed_at_64_players_in_2_flights_of_32():
    assert flight_refusals(64, 2) == ()
    check_flights(64, 2)


@pytest.mark.parametrize(
    ("players", "flights", "kwargs", "reason"),
    [
        (200, 2, {"swiss_plus_top_cut": False}, "only for Swiss plus single elimination"),
        (200, 2, {"age_separated": False}, "need an age-separated event"),
        (63, 2, {}, "at least 64 players in the division, got 63"),
        (200, 3, {}, "must be 2, 4, 8 or 16, got 3"),
        (200, 32, {}, "must be 2, 4, 8 or 16, got 32"),
        (127, 4, {}, "4 flights of 127 players leave a flight of 31: each flight needs"),
        (64, 16, {}, "16 flights of 64 players leave a flight of 4"),
    ],
)
def test_P_FL_1_refusals_are_explained(players, flights, kwargs, reason):
    reasons = flight_refusals(players, flights, **kwargs)
    assert any(reason in r for r in reasons)
    with pytest.raises(FlightsRefused, match=reason) as caught:
        check_flights(players, flights, **kwargs)
    assert caught.value.reasons == reasons


def test_P_FL_1_every_broken_rule_is_listed():
    reasons = flight_refusals(40, 3, swiss_plus_top_cut=False, age_separated=False)
    assert len(reasons) == 4


# --- P-FL-2: one Swiss round fewer per doubling -----------------------------------------------


def test_P_FL_2_512_players_9_rounds_8_flights_6_16_flights_of_32_5():
    base = recommend("pokemon-vg", 512).rounds
    assert base == 9
    assert [flight_rounds(base, f) for f in (1, 2, 4, 8, 16)] == [9, 8, 7, 6, 5]
    assert flight_sizes(512, 16) == (32,) * 16


@pytest.mark.parametrize(("base", "flights"), [(9, 3), (4, 16)])
def test_P_FL_2_refuses_odd_flight_counts_and_no_rounds_left(base, flights):
    with pytest.raises(ValueError):
        flight_rounds(base, flights)


# --- P-FL-3: random flights, sizes as equal as possible --------------------------------------


@pytest.mark.parametrize(
    ("players", "flights", "sizes"),
    [
        (143, 2, (72, 71)), (143, 4, (36, 36, 36, 35)), (512, 16, (32,) * 16),
        (142, 4, (36, 36, 36, 34)), (64, 2, (32, 32)), (65, 2, (33, 32)), (130, 4, (34, 32, 32, 32)),
    ],
)  # fmt: skip
def test_P_FL_3_flight_sizes(players, flights, sizes):
    assert flight_sizes(players, flights) == sizes


@given(st.integers(64, 2000), st.sampled_from([2, 4, 8, 16]))
def test_P_FL_3_at_most_one_odd_flight_and_only_when_the_total_is_odd(players, flights):
    sizes = flight_sizes(players, flights)
    assert sum(sizes) == players
    assert sum(s % 2 for s in sizes) == players % 2
    assert max(sizes) - min(sizes) <= 2


def test_P_FL_3_players_are_assigned_at_random_and_reproducibly():
    ids = [f"m{i:03d}" for i in range(143)]
    first = assign_flights(ids, 2, rng=random.Random(9))
    assert [len(f) for f in first] == [72, 71]
    assert Counter(x for f in first for x in f) == Counter(ids)
    assert assign_flights(list(reversed(ids)), 2, rng=random.Random(9)) == first
    assert assign_flights(ids, 2, rng=random.Random(10)) != first


def test_P_FL_3_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="listed twice"):
        assign_flights(["a", "a", "b"], 2, rng=random.Random(0))


# --- P-FL-4: late players ----------------------------------------------------------------------


def test_P_FL_4_late_player_joins_the_flight_that_started_smaller():
    for seed in range(20):
        assert late_flight([36, 36, 36, 35], rng=random.Random(seed)) == 3


def test_P_FL_4_late_player_goes_to_a_random_flight_when_all_started_equal():
    chosen = {late_flight([36, 36, 36, 36], rng=random.Random(seed)) for seed in range(40)}
    assert chosen == {0, 1, 2, 3}


def test_P_LATE_2_second_late_player_counts_the_first_but_never_the_drops():
    # 72/71 at the start: the first late player evens them; the next goes at random.
    assert late_flight([72, 71], rng=random.Random(0)) == 1
    assert {late_flight([72, 72], rng=random.Random(s)) for s in range(20)} == {0, 1}


# --- P-FL-5: the merged cut ---------------------------------------------------------------------


def test_P_FL_5_143_masters_two_flights_top_4_each():
    base = recommend("pokemon-tcg", 143).rounds
    plans = flight_options(143, 8, base_rounds=base)
    assert plans[0] == FlightPlan(flights=2, sizes=(72, 71), rounds=7, per_flight_cut=4)


def test_P_FL_5_143_masters_four_flights_top_2_each():
    base = recommend("pokemon-tcg", 143).rounds
    plans = flight_options(143, 8, base_rounds=base)
    assert plans[1] == FlightPlan(flights=4, sizes=(36, 36, 36, 35), rounds=6, per_flight_cut=2)
    assert len(plans) == 2  # 8 flights would be of 17-18 players: below 32


@pytest.mark.parametrize(
    ("cut", "flights", "each"), [(8, 2, 4), (8, 4, 2), (32, 16, 2), (16, 8, 2)]
)
def test_P_FL_5_equal_number_from_each_flight(cut, flights, each):
    assert per_flight_cut(cut, flights) == each


@pytest.mark.parametrize(("cut", "flights"), [(8, 8), (4, 4), (6, 4), (2, 2)])
def test_P_FL_5_at_least_two_from_each_flight(cut, flights):
    with pytest.raises(FlightsRefused, match="at least 2"):
        per_flight_cut(cut, flights)


def test_P_FL_5_merged_by_swiss_standing_and_tiebreakers():
    half = Fraction(1, 2)
    flight1 = [Row("a1", 18), Row("a2", 15, owp=Fraction(3, 5)), Row("a3", 15, owp=half),
               Row("a4", 12), Row("a5", 12)]  # fmt: skip
    flight2 = [Row("b1", 15, owp=Fraction(7, 10)), Row("b2", 15, late=True), Row("b3", 12),
               Row("b4", 9)]  # fmt: skip
    assert merged_cut([flight1, flight2], 4, rng=random.Random(0)) == ("a1", "b1", "a2", "b2")


def test_P_FL_5_dropped_players_are_passed_over():
    flight1 = [Row("a1", 18, dropped=True), Row("a2", 15), Row("a3", 12)]
    flight2 = [Row("b1", 15, owp=Fraction(3, 4)), Row("b2", 12, owp=Fraction(2, 5))]
    seeds = merged_cut([flight1, flight2], 4, rng=random.Random(0))
    assert seeds == ("b1", "a2", "a3", "b2")


def test_P_FL_5_exact_ties_across_flights_go_to_the_better_flight_place_then_random():
    flight1 = [Row("a1", 15), Row("a2", 12)]
    flight2 = [Row("b1", 15), Row("b2", 12)]
    orders = {merged_cut([flight1, flight2], 4, rng=random.Random(s)) for s in range(20)}
    assert {o[:2] for o in orders} == {("a1", "b1"), ("b1", "a1")}
    assert all(set(o[2:]) == {"a2", "b2"} for o in orders)


def test_P_FL_5_a_flight_without_enough_players_still_in_is_refused():
    with pytest.raises(FlightsRefused, match="Flight 2 has only 1 players still in"):
        merged_cut([[Row("a1", 3), Row("a2", 0)], [Row("b1", 3)]], 4, rng=random.Random(0))
