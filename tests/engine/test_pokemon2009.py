"""The ``pokemon-2009`` ruleset: 1 point per win, no ties, the P-TB tiebreakers."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from standings.engine.errors import StandingsError
from standings.engine.pokemon2009 import pokemon2009_standings
from standings.engine.ranking import pokemon_standings
from standings.engine.types import Entrant, MatchRecord, Outcome


def win(r: int, winner: str, loser: str) -> MatchRecord:
    return MatchRecord(r, (winner, loser), Outcome.WIN, winner)


def bye(r: int, a: str) -> MatchRecord:
    return MatchRecord(r, (a,), Outcome.BYE, a)


EIGHT = ["a", "b", "c", "d", "e", "f", "g", "h"]
THREE_ROUNDS = [
    win(1, "a", "b"),
    win(1, "c", "d"),
    win(1, "e", "f"),
    win(1, "g", "h"),
    win(2, "a", "c"),
    win(2, "e", "g"),
    win(2, "b", "d"),
    win(2, "f", "h"),
    win(3, "a", "e"),
    win(3, "c", "b"),
    win(3, "g", "f"),
    win(3, "d", "h"),
]


def test_pokemon_2009_one_point_per_win_including_the_bye() -> None:
    entrants = [Entrant(p) for p in ["a", "b", "c"]]
    rows = pokemon2009_standings(entrants, [win(1, "a", "b"), bye(1, "c")], rounds=1)
    assert {r.player: r.match_points for r in rows} == {"a": 1, "b": 0, "c": 1}
    assert {r.player: r.record for r in rows}["c"] == "1-0-0"


def test_pokemon_2009_ranks_exactly_like_the_p_tb_engine() -> None:
    entrants = [Entrant(p) for p in EIGHT]
    rows_2009 = pokemon2009_standings(entrants, THREE_ROUNDS, rounds=3, seed=5)
    rows_2019 = pokemon_standings(entrants, THREE_ROUNDS, rounds=3, seed=5)
    assert [r.player for r in rows_2009] == [r.player for r in rows_2019]
    assert [(r.owp, r.oowp) for r in rows_2009] == [(r.owp, r.oowp) for r in rows_2019]
    assert [r.match_points for r in rows_2009] == [r.wins for r in rows_2019]
    assert [r.match_points for r in rows_2009][:2] == [3, 2]


def test_pokemon_2009_a_tie_is_refused() -> None:
    entrants = [Entrant("a"), Entrant("b")]
    tie = MatchRecord(2, ("a", "b"), Outcome.DRAW)
    with pytest.raises(StandingsError, match="round 2: a vs b is a tie; the pokemon-2009"):
        pokemon2009_standings(entrants, [win(1, "a", "b"), tie], rounds=2)
    # a tie in a round not counted yet is not looked at
    assert len(pokemon2009_standings(entrants, [win(1, "a", "b"), tie], rounds=1)) == 2


def test_P_TB_1_late_players_rank_below_on_time_players_with_the_same_points() -> None:
    entrants = [Entrant("a", late=True), Entrant("b"), Entrant("c"), Entrant("d")]
    matches = [MatchRecord(1, ("a",), Outcome.LATE_LOSS), win(1, "b", "c"), win(2, "a", "c")]
    matches += [win(2, "d", "b"), bye(1, "d")]
    rows = pokemon2009_standings(entrants, matches, rounds=2)
    points = {r.player: r.match_points for r in rows}
    assert points == {"a": 1, "b": 1, "c": 0, "d": 2}
    assert [r.player for r in rows].index("b") < [r.player for r in rows].index("a")


def test_P_TB_2_owp_floor_25_and_dropped_cap_75_with_2009_points() -> None:
    # d1 lost round 1 and dropped (0/1 → 25 %); d2 won round 1 and dropped (1/1 → 75 %).
    entrants = [
        Entrant("x"),
        Entrant("y"),
        Entrant("d1", dropped_after_round=1),
        Entrant("d2", dropped_after_round=1),
    ]
    matches = [win(1, "x", "d1"), win(1, "d2", "y"), win(2, "x", "y")]
    rows = {r.player: r for r in pokemon2009_standings(entrants, matches, rounds=2)}
    assert (rows["d1"].win_pct, rows["d2"].win_pct) == (F(1, 4), F(3, 4))
    assert rows["y"].win_pct == F(1, 4)  # 0 of 2 → floor 25 %
    assert rows["x"].owp == F(1, 4)  # d1 and y, both at the floor
    assert rows["y"].owp == (F(3, 4) + F(1)) / 2  # d2 capped, x 2/2 (no cap: not dropped)
    assert (rows["x"].match_points, rows["y"].match_points) == (2, 0)


def test_P_TB_4_head_to_head_breaks_an_exact_tie_of_two_with_2009_points() -> None:
    # Round robin of four: A and C finish 2-1, B and D 1-2, equal OWP and OOWP in pairs.
    matches = [
        win(1, "A", "B"),
        win(1, "C", "D"),
        win(2, "A", "C"),
        win(2, "B", "D"),
        win(3, "D", "A"),
        win(3, "C", "B"),
    ]
    rows = pokemon2009_standings([Entrant(p) for p in ["C", "A", "D", "B"]], matches, rounds=3)
    assert [(r.player, r.match_points) for r in rows] == [("A", 2), ("C", 2), ("B", 1), ("D", 1)]
    by = {r.player: r for r in rows}
    assert (by["A"].owp, by["A"].oowp) == (by["C"].owp, by["C"].oowp)
