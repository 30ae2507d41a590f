"""The event planner (pairings.engine.planner): structure from the round tables
(P-RT-1, P-RT-2, P-FL-1, P-FL-2) and the schedule with its estimated finish. Pure, no
database."""

from __future__ import annotations

import datetime as dt

import pytest

from pairings.engine.planner import Announced, Played, default_round_seconds, plan
from rulesets import get_ruleset

POKEMON = get_ruleset("pokemon")
NINE = dt.datetime(2026, 5, 9, 9, 0)


def hm(slots) -> list[tuple[int, str, str, str]]:
    return [(s.number, s.phase, s.start.strftime("%H:%M"), s.end.strftime("%H:%M")) for s in slots]


def test_round_length_is_the_ruleset_clock_plus_its_extra_turns():
    assert default_round_seconds(POKEMON) == 59 * 60  # 50 min + 3 turns (W-TIME-2)
    assert default_round_seconds(POKEMON, elimination=True) == 84 * 60  # 75 + 3 turns
    assert default_round_seconds(get_ruleset("mtg")) == 50 * 60
    assert default_round_seconds(get_ruleset("bo3-wins-against")) == 59 * 60
    # untimed top cut of pods (MP-TIME-1): the Swiss length is planned
    assert default_round_seconds(get_ruleset("mtg-multiplayer"), elimination=True) == 80 * 60


def test_P_RT_1_600_masters_one_day_exact_schedule():
    p = plan(POKEMON, {"masters": 600}, start=NINE, round_seconds=50 * 60, tables=300)
    (masters,) = p.divisions
    assert (masters.rounds, masters.cut, masters.cut_rounds, masters.flights) == (10, 8, 3, 0)
    assert masters.recommendation.row == "410+"
    assert p.tables_needed == 300 and p.notes == ()
    assert p.elimination_seconds == 75 * 60  # top cut 84 min, moved by the same −9 min
    assert hm(p.slots) == [
        (1, "swiss", "09:00", "09:50"),
        (2, "swiss", "10:00", "10:50"),
        (3, "swiss", "11:00", "11:50"),
        (4, "swiss", "12:00", "12:50"),
        (5, "swiss", "13:00", "13:50"),
        (6, "swiss", "14:00", "14:50"),
        (7, "swiss", "15:00", "15:50"),
        (8, "swiss", "16:00", "16:50"),
        (9, "swiss", "17:00", "17:50"),
        (10, "swiss", "18:00", "18:50"),
        (11, "top-cut", "19:00", "20:15"),
        (12, "top-cut", "20:25", "21:40"),
        (13, "top-cut", "21:50", "23:05"),
    ]
    assert p.finish == dt.datetime(2026, 5, 9, 23, 5)


def test_P_RT_2_600_masters_two_days_play_day2_and_the_cut_on_the_next_day():
    p = plan(POKEMON, {"masters": 600}, start=NINE, round_seconds=50 * 60, two_day=True)
    (masters,) = p.divisions
    assert (masters.rounds, masters.day2_rounds, masters.cut) == (9, 5, 8)
    day2 = [s for s in p.slots if s.day == 2]
    assert [s.phase for s in day2] == ["swiss-day2"] * 5 + ["top-cut"] * 3
    assert day2[0].start == dt.datetime(2026, 5, 10, 9, 0) and day2[0].number == 10
    assert p.slots[8].end == dt.datetime(2026, 5, 9, 17, 50)  # Day 1 ends after round 9
    # Day 2: 5 × (50 + 10) from 09:00 → the cut starts 14:00; 3 × 75 + 2 × 10 → 18:05
    assert p.finish == dt.datetime(2026, 5, 10, 18, 5)


def test_P_FL_1_too_few_tables_split_the_division_into_flights_that_take_turns():
    p = plan(POKEMON, {"masters": 600}, start=NINE, round_seconds=50 * 60, tables=200)
    (masters,) = p.divisions
    assert (masters.flights, masters.rounds) == (2, 9)  # P-FL-2: one round fewer
    assert p.tables_needed == 150
    assert [(s.number, s.flight) for s in p.slots[:4]] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert len(p.slots) == 18 + 3 and p.slots[18].number == 10
    assert "Masters: 2 flights take turns at the tables, 9 Swiss rounds each (P-FL-2)." in p.notes


def test_no_flights_below_64_players_the_plan_says_tables_are_missing():
    p = plan(POKEMON, {"masters": 40}, start=NINE, tables=10)
    assert p.divisions[0].flights == 0 and p.tables_needed == 20
    assert p.notes[0] == (
        "Not enough tables: a round needs 20, the hall has 10. "
        "Add tables, or play some matches in a second wave."
    )


def test_divisions_play_side_by_side_the_largest_sets_the_rounds():
    p = plan(POKEMON, {"masters": 100, "senior": 20, "junior": 1}, start=NINE)
    assert [(d.division, d.rounds, d.cut) for d in p.divisions] == [
        ("masters", 7, 8),
        ("senior", 5, 2),
    ]  # a division of one player is left out of the plan, but its player makes the event
    # age-modified (P-AGE-3), so Seniors get the Masters' share: 8/100 × 20 → top 2
    # (P-AGE-5), as closing check-in applies (it said top 4 before)
    assert [s.phase for s in p.slots] == ["swiss"] * 7 + ["top-cut"] * 3
    assert p.tables_needed == 60


def test_the_finish_moves_when_a_round_runs_long():
    planned = plan(POKEMON, {"masters": 600}, start=NINE, round_seconds=50 * 60)
    late = plan(
        POKEMON,
        {"masters": 600},
        start=NINE,
        round_seconds=50 * 60,
        played=[
            Played(NINE, dt.datetime(2026, 5, 9, 9, 50)),
            Played(dt.datetime(2026, 5, 9, 10, 0), dt.datetime(2026, 5, 9, 11, 15)),  # +25
        ],
    )
    assert planned.finish == dt.datetime(2026, 5, 9, 23, 5)
    assert late.finish == dt.datetime(2026, 5, 9, 23, 30)
    assert [s.actual for s in late.slots[:3]] == [True, True, False]
    assert late.slots[2].start == dt.datetime(2026, 5, 9, 11, 25)


def test_a_round_still_running_past_its_length_ends_no_earlier_than_now():
    now = dt.datetime(2026, 5, 9, 10, 5)
    p = plan(
        POKEMON,
        {"masters": 600},
        start=NINE,
        round_seconds=50 * 60,
        played=[Played(NINE, None)],
        now=now,
    )
    assert p.slots[0].end == now
    assert p.finish == dt.datetime(2026, 5, 9, 23, 20)


def test_an_announced_structure_replaces_the_table():
    p = plan(
        POKEMON,
        {"masters": 600},
        start=NINE,
        round_seconds=50 * 60,
        announced=Announced(rounds=9, cut=16),
    )
    assert [(d.rounds, d.cut, d.cut_rounds) for d in p.divisions] == [(9, 16, 4)]
    assert len(p.slots) == 13


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"round_seconds": 0}, "Round length must be positive"),
        ({"break_seconds": -1}, "Round length must be positive"),
    ],
)
def test_bad_lengths_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        plan(POKEMON, {"masters": 10}, start=NINE, **kwargs)


def test_no_division_of_two_players_is_refused():
    with pytest.raises(ValueError, match="at least one division"):
        plan(POKEMON, {"masters": 1}, start=NINE)


# --- one source of truth with check-in; tables without byes ---------


def structure(p) -> list[tuple[str, int, int]]:
    return [(d.division, d.rounds, d.cut) for d in p.divisions]


def test_P_AGE_2_30_players_6_8_16_each_division_reads_its_own_row_15_tables():
    p = plan(POKEMON, {"masters": 16, "senior": 8, "junior": 6}, start=NINE)
    # P-RT-1: 16 → 5 rounds, top 4 (not top 8 for the 30 in total); 8 and 6 → 3, none
    assert structure(p) == [("masters", 5, 4), ("senior", 3, 0), ("junior", 3, 0)]
    assert p.tables_needed == 8 + 4 + 3
    assert [s.phase for s in p.slots] == ["swiss"] * 5 + ["top-cut"] * 2


def test_P_AGE_5_30_players_5_8_17_age_modified_cuts_share_the_masters_percentage():
    p = plan(POKEMON, {"masters": 17, "senior": 8, "junior": 5}, start=NINE)
    # Masters 17 → 5 rounds, top 4 (4/17); Seniors 8 × 4/17 = 1.9 → top 2; Juniors 1.2 →
    # none; Junior and Senior share a pod read with its largest division (8 → 3 rounds)
    assert structure(p) == [("masters", 5, 4), ("senior", 3, 2), ("junior", 3, 0)]
    senior = p.divisions[1]
    assert senior.recommendation.row == "8" and senior.cut_rounds == 1
    assert p.tables_needed == 8 + 6  # Masters 17 → 8 (a bye), Junior+Senior 13 → 6


def test_the_planner_and_check_in_read_the_same_structure_function():
    from pairings.engine.ages import age_structure
    from pairings.engine.planner import division_structure

    counts = {"junior": 5, "senior": 8, "masters": 17}
    shared = division_structure(POKEMON, counts)
    direct = age_structure(counts, POKEMON.recommend)
    assert shared == direct
    assert {c: shared.division(c) for c in counts} == {
        "junior": (3, 0),
        "senior": (3, 2),
        "masters": (5, 4),
    }
    assert division_structure(POKEMON, {"somewhere": 10}) is None  # not a division


@pytest.mark.parametrize(
    ("attendance", "tables"),
    [
        ({"open": 30}, 15),
        ({"open": 31}, 15),  # the bye takes no table (P-SW-8)
        ({"masters": 15, "senior": 8, "junior": 7}, 7 + 4 + 3),  # 16 before: byes counted
    ],
)
def test_P_SW_8_a_bye_takes_no_table(attendance, tables):
    assert plan(POKEMON, attendance, start=NINE).tables_needed == tables


def test_MP_POD_1_22_players_in_pods_of_4_and_3_need_6_tables():
    from pairings.engine.planner import tables_for

    pods = get_ruleset("mtg-multiplayer")
    p = plan(pods, {"open": 22}, start=NINE)
    assert p.tables_needed == 6  # 4×4 + 2×3, not 11 tables of two
    (division,) = p.divisions
    # P-RT-6: two 3-pods count as 2 more players → the 17–24 row: 3 rounds, top 7
    assert (division.rounds, division.cut, division.cut_rounds) == (3, 7, 2)
    assert [tables_for(pods, n) for n in (4, 5, 21, 23)] == [1, 1, 6, 6]
    assert tables_for(pods, 21, pod_size=3) == 7


def test_an_announced_structure_per_division_replaces_the_shared_one():
    p = plan(
        POKEMON,
        {"masters": 17, "senior": 8, "junior": 5},
        start=NINE,
        announced=Announced(rounds=5, cut=4, divisions={"senior": (3, 2), "junior": (3, 0)}),
    )
    assert structure(p) == [("masters", 5, 4), ("senior", 3, 2), ("junior", 3, 0)]
