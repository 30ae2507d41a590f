"""Proofs on match points for the cut-line outlook (``standings.engine.cutline``): hand-checked cases. No database."""

from __future__ import annotations

import pytest

from standings.engine.cutline import (
    Contender,
    Cut,
    Field,
    Verdict,
    most_reaching,
    player_verdict,
    record_verdict,
    surely_above,
)

POKEMON_FIELD = Field(points_win=3, points_tie=1, active=8, rounds_left=1)


def division(*points: int, rounds_left: int = 1, dropped: tuple[int, ...] = ()) -> list[Contender]:
    """Players ``p0``, ``p1`` … with these points; ``dropped``: their indexes."""
    return [
        Contender(f"p{i}", pts, 0 if i in dropped else rounds_left, i not in dropped)
        for i, pts in enumerate(points)
    ]


def others(players: list[Contender], me: int) -> list[Contender]:
    return [p for i, p in enumerate(players) if i != me]


def test_capacity_counts_a_win_per_match_and_per_bye():
    """Each match hands out at most 3 points (a win beats two ties' 2), a bye 3."""
    assert Field(3, 1, active=8, rounds_left=2).capacity() == 2 * 4 * 3
    assert Field(3, 1, active=7, rounds_left=1).capacity() == 3 * 3 + 3
    assert Field(1, 1, active=4, rounds_left=1).capacity() == 2 * 2  # a tie of 1+1 beats a win


def test_most_reaching_gives_the_points_to_those_who_need_fewest_while_they_last():
    players = division(6, 4, 4, 3, 3, 3, 0, 0)
    # 6 or more: p0 already; p1, p2 need 2, p3-p5 need 3; p6, p7 cannot (3 at most).
    assert most_reaching(6, players, POKEMON_FIELD) == 1 + 4  # 2+2+3+3+3 = 13 > 12: four fit
    tight = Field(3, 1, active=8, rounds_left=1)
    assert most_reaching(6, players, Field(3, 1, active=6, rounds_left=1)) == 1 + 3  # 9 points
    assert most_reaching(7, players, tight) == 0 + 3  # p0 needs 1, p1 and p2 need 3: 7 ≤ 12
    assert most_reaching(10, players, tight) == 0  # nobody can gain 4 in a round


def test_dropped_players_take_no_place_and_reach_nothing():
    players = division(9, 9, 0, 0, dropped=(0,))
    assert most_reaching(0, players, POKEMON_FIELD) == 3
    assert surely_above(5, players) == 1


@pytest.mark.parametrize(
    ("points", "me", "places", "expected"),
    [
        # Two players dropped: 6 active; a 2-0 player is in a top 4 (at most three others
        # can reach 6), not in a top 2 (three others could).
        ((6, 6, 3, 3, 0, 0), 0, 4, Verdict.IN),
        ((6, 6, 3, 3, 0, 0), 0, 2, Verdict.OPEN),
        # A 0-2 player reaches 3 at most; two players already have 6: out of a top 2.
        ((6, 6, 3, 3, 0, 0), 4, 2, Verdict.OUT),
        ((6, 6, 3, 3, 0, 0), 4, 4, Verdict.OPEN),
    ],
)
def test_P_TC_1_a_player_is_in_or_out_only_when_match_points_prove_it(points, me, places, expected):
    players = division(*points)
    fld = Field(3, 1, active=6, rounds_left=1)
    assert player_verdict(players[me], others(players, me), Cut(places), fld) == expected


def test_P_TC_1_players_level_on_points_count_as_ahead():
    """Two players on 9 with one round left, and a top 1: neither is in (the other can
    finish level and win the tiebreakers); 9 points finishing is not "in" either."""
    players = division(9, 9, 0, 0)
    fld = Field(3, 1, active=4, rounds_left=1)
    assert player_verdict(players[0], others(players, 0), Cut(1), fld) == Verdict.OPEN
    assert record_verdict(12, players, Cut(1), fld) == Verdict.DEPENDS
    assert record_verdict(9, players, Cut(2), fld) == Verdict.IN


def test_a_player_who_cannot_take_a_place_is_out():
    players = division(9, 0, dropped=(0,))
    assert player_verdict(players[0], others(players, 0), Cut(2), POKEMON_FIELD) == Verdict.OUT


@pytest.mark.parametrize(
    ("points", "expected"),
    [(21, Verdict.IN), (19, Verdict.IN), (18, Verdict.DEPENDS), (9, Verdict.OUT)],
)
def test_P_D2_1_nineteen_points_are_in_whatever_the_top_32(points, expected):
    """40 players after 8 of 9 rounds: 19 points qualify outright; below, the top 32 —
    9 points are out (32 players already hold more), 18 depend on the rest."""
    players = division(*([24] * 4 + [18] * 30 + [9] * 6))
    fld = Field(3, 1, active=40, rounds_left=1)
    assert record_verdict(points, players, Cut(32, qualify=19), fld) == expected


def test_P_D2_1_a_player_on_19_is_in_even_when_more_than_32_are():
    players = division(*([19] * 40))
    fld = Field(3, 1, active=40, rounds_left=2)
    verdict = player_verdict(players[0], others(players, 0), Cut(32, qualify=19), fld)
    assert verdict == Verdict.IN
