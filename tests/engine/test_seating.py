"""Table numbers after pairing with fixed seats (P-SW-8 bracket order):
``pairings.engine.seating``. Hand-checked cases, then hypothesis properties. No database."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairings.engine.seating import FixedClash, keep_fixed_in_place, number_tables


def heads(n: int) -> list[tuple[str, str]]:
    """``n`` head-to-head tables in bracket order: (p1, p2), (p3, p4) …"""
    return [(f"p{2 * i + 1}", f"p{2 * i + 2}") for i in range(n)]


# --- hand-checked cases ---------------------------------------------------------------


def test_P_SW_8_without_fixed_seats_tables_are_first_plus_place():
    got = number_tables(heads(4), {}, first=9)
    assert got.numbers == (9, 10, 11, 12) and not any(got.fixed)


def test_a_fixed_seat_player_sits_at_their_table_and_the_others_close_up():
    # p6 (bracket place 3) has table 1: the leaders move to table 2, nobody else at 1.
    got = number_tables(heads(4), {"p6": 1})
    assert got.numbers == (2, 3, 1, 4)
    assert got.fixed == (False, False, True, False)


def test_a_fixed_table_numbered_before_its_bracket_place_is_not_a_top_table():
    got = number_tables(heads(4), {"p6": 1})
    assert got.not_top == (False, False, True, False)
    # a leader with a fixed seat further down is a top match at a far table: not marked
    far = number_tables(heads(4), {"p1": 40})
    assert far.numbers == (40, 1, 2, 3) and far.not_top == (False, False, False, False)


def test_reserved_tables_of_players_elsewhere_are_skipped():
    # table 2 belongs to a player of another group (or on a bye): nobody sits there
    got = number_tables(heads(3), {}, reserved={2})
    assert got.numbers == (1, 3, 4)


def test_two_fixed_seat_players_paired_together_take_the_lower_table():
    got = number_tables(heads(3), {"p3": 7, "p4": 2})
    assert got.numbers[1] == 2
    assert got.clashes == (FixedClash(("p4", "p3"), 2, (7,)),)
    assert 7 not in got.numbers  # the higher fixed table stays empty


def test_a_pod_with_a_fixed_seat_player_sits_at_their_table():
    pods = [("a", "b", "c", "d"), ("e", "f", "g", "h"), ("i", "j", "k")]
    got = number_tables(pods, {"j": 1})
    assert got.numbers == (2, 3, 1)


def test_an_elimination_round_keeps_its_order_and_skips_fixed_tables():
    got = number_tables(heads(4), {"p6": 2}, move_fixed=False)
    assert got.numbers == (1, 3, 4, 5) and not any(got.fixed)


def test_an_unavailable_fixed_table_is_reported_and_numbered_like_the_others():
    got = number_tables(heads(3), {"p5": 1}, unavailable={1})
    assert got.displaced == (("p5", 1),)
    assert 1 not in got.numbers and not any(got.fixed)


def test_gaps_in_the_bracket_places_are_kept_as_before():
    got = number_tables(heads(3), {}, first=10, places=[1, 2, 4])
    assert got.numbers == (10, 11, 13)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"first": 0}, "start at 1"),
        ({"places": [1, 1, 2]}, "distinct"),
        ({"places": [1]}, "one per"),
    ],
)
def test_bad_input_is_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        number_tables(heads(3), {}, **kwargs)


def test_the_re_pair_puts_a_fixed_seat_player_back_at_their_table():
    # the re-pair changed tables 5, 7 and 9 and seated p5 (fixed at 5) at table 9
    got = keep_fixed_in_place([(5, ("a", "b")), (7, ("c", "d")), (9, ("p5", "e"))], {"p5": 5})
    assert got.numbers == (9, 7, 5) and got.fixed == (False, False, True)
    assert got.not_top == (False, False, True)


def test_the_re_pair_moves_a_new_table_off_another_players_fixed_seat():
    got = keep_fixed_in_place([(3, ("a", "b")), (13, ("c", "d"))], {}, reserved={13}, highest=12)
    assert got.numbers == (3, 14)


# --- properties -------------------------------------------------------------------------


@st.composite
def rounds(draw: st.DrawFn):
    """Tables of 2–5 players in bracket order, some players with fixed seats (distinct
    tables, within and beyond the round's range), reserved and unavailable tables."""
    sizes = draw(st.lists(st.integers(2, 5), min_size=0, max_size=24))
    tables, n = [], 0
    for size in sizes:
        tables.append(tuple(f"q{n + k}" for k in range(size)))
        n += size
    players = [p for t in tables for p in t]
    holders = draw(st.lists(st.sampled_from(players), unique=True, max_size=6)) if players else []
    numbers = draw(
        st.lists(st.integers(1, 40), unique=True, min_size=len(holders), max_size=len(holders))
    )
    fixed = dict(zip(holders, numbers, strict=True))
    reserved = set(draw(st.lists(st.integers(1, 40), max_size=4))) - set(numbers)
    first = draw(st.integers(1, 12))
    return tables, fixed, reserved, first


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_property_every_fixed_seat_is_kept_and_no_other_match_sits_at_one(case):
    tables, fixed, reserved, first = case
    got = number_tables(tables, fixed, first=first, reserved=reserved)
    assert len(set(got.numbers)) == len(tables)  # a number is never given twice
    fixed_tables = set(fixed.values())
    for i, players in enumerate(tables):
        own = sorted(fixed[p] for p in players if p in fixed)
        if own:  # the player's match sits at their table (the lowest when several meet)
            assert got.fixed[i] and got.numbers[i] == own[0]
        else:  # no other match ever sits at a fixed or reserved table
            assert not got.fixed[i]
            assert got.numbers[i] not in fixed_tables | reserved
            assert got.numbers[i] >= first


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_property_the_other_tables_keep_bracket_order_and_close_up(case):
    tables, fixed, reserved, first = case
    got = number_tables(tables, fixed, first=first, reserved=reserved)
    loose = [n for n, f in zip(got.numbers, got.fixed, strict=True) if not f]
    assert loose == sorted(loose)  # P-SW-8: the higher bracket at the lower table
    skip = set(fixed.values()) | reserved
    expected = [n for n in range(first, first + len(loose) + len(skip)) if n not in skip]
    assert loose == expected[: len(loose)]  # the lowest free numbers, none left out


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_property_without_fixed_seats_nothing_changes(case):
    tables, _, _, first = case
    got = number_tables(tables, {}, first=first)
    assert got.numbers == tuple(range(first, first + len(tables)))


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_property_an_elimination_round_never_moves_a_table_and_skips_fixed_ones(case):
    tables, fixed, reserved, first = case
    got = number_tables(tables, fixed, first=first, reserved=reserved, move_fixed=False)
    assert list(got.numbers) == sorted(got.numbers) and not any(got.fixed)
    assert not set(got.numbers) & (set(fixed.values()) | reserved)


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_property_not_top_marks_exactly_fixed_tables_below_their_bracket_place(case):
    tables, fixed, reserved, first = case
    got = number_tables(tables, fixed, first=first, reserved=reserved)
    for i in range(len(tables)):
        assert got.not_top[i] == (got.fixed[i] and got.numbers[i] < first + i)


@settings(max_examples=200, deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_property_the_re_pair_keeps_fixed_seats_among_its_numbers(case, rng):
    tables, fixed, reserved, _ = case
    numbers = rng.sample(range(1, 80), len(tables))
    got = keep_fixed_in_place(
        list(zip(numbers, tables, strict=True)), fixed, reserved=reserved, highest=80
    )
    assert len(set(got.numbers)) == len(tables)
    skip = set(fixed.values()) | reserved
    for i, players in enumerate(tables):
        own = sorted(fixed[p] for p in players if p in fixed and fixed[p] in numbers)
        if own:  # back at their table when the re-pair's numbers hold it
            assert got.fixed[i] and got.numbers[i] == own[0]
        else:  # no other table at a fixed seat
            assert not got.fixed[i] and got.numbers[i] not in skip
    # the re-pair's numbers are reused; a table moved off a fixed seat goes after the round
    assert all(n in numbers or n > 80 for n in got.numbers)
