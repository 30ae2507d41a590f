"""Day 2 of a two-day Swiss (P-D2-1, P-D2-2, R-3). No database."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from pairings.engine.day2 import day2_players
from pairings.engine.swiss import pair_swiss
from standings.engine.day2 import day2_cut, day2_entrants, day2_matches, day2_order
from standings.engine.ranking import pokemon_standings
from standings.engine.types import Entrant, MatchRecord, Outcome, StandingRow


def standings(points: list[int]) -> list[tuple[str, int]]:
    return [(f"p{k:03d}", pts) for k, pts in enumerate(points, start=1)]


# --- P-D2-1: the cut -----------------------------------------------------------------------------


def test_P_D2_1_19_points_group_larger_than_32():
    rows = standings([21] * 10 + [19] * 30 + [18] * 60)
    assert day2_cut(rows) == tuple(pid for pid, _ in rows[:40])


def test_P_D2_1_top_32_when_fewer_have_19_points():
    rows = standings([21] * 5 + [19] * 5 + [18] * 40 + [12] * 50)
    assert day2_cut(rows) == tuple(pid for pid, _ in rows[:32])


@pytest.mark.parametrize(("nineteen", "made"), [(31, 32), (32, 32), (33, 33)])
def test_P_D2_1_boundary_around_32(nineteen, made):
    rows = standings([19] * nineteen + [18] * 50)
    assert len(day2_cut(rows)) == made


def test_P_D2_1_18_points_is_not_enough_beyond_the_top_32():
    rows = standings([19] * 40 + [18] * 10)
    assert day2_cut(rows)[-1] == "p040"


def test_P_D2_1_small_event_everyone_makes_it():
    assert day2_cut(standings([9, 6, 3])) == ("p001", "p002", "p003")


def row(pid: str, points: int, dropped: bool = False) -> StandingRow:
    return StandingRow(None, pid, points, 0, 0, 0, F(1, 2), F(1, 2), F(1, 2), dropped=dropped)


def test_P_D2_1_dropped_players_are_passed_over():
    rows = [row("a", 24, dropped=True)] + [row(f"p{k:02d}", 19) for k in range(40)]
    made = day2_cut(rows)
    assert "a" not in made and len(made) == 40


def test_P_D2_1_standings_must_be_in_order():
    with pytest.raises(ValueError, match="ordered by match points"):
        day2_cut([("a", 3), ("b", 9)])


# --- Day 1 opponents may meet again ------------------------------------------------------------


def test_R_3_day_2_pairing_may_rematch_day_1_opponents():
    points = {"A": 21, "B": 21, "C": 19, "D": 19}
    day1 = {"A": {"B"}, "B": {"A"}, "C": {"D"}, "D": {"C"}}
    players = day2_players(["A", "B", "C", "D"], points, day2_opponents={}, had_bye=set())
    result = pair_swiss(players, rng=random.Random(0))
    assert {frozenset(p.players) for p in result.pairings} == {frozenset("AB"), frozenset("CD")}
    assert (result.rematches, result.pair_downs) == (0, 0)
    # Passing the Day 1 opponents instead would force two pair-downs: R-3 says don't.
    both_days = day2_players(["A", "B", "C", "D"], points, day1, had_bye=set())
    assert pair_swiss(both_days, rng=random.Random(0)).pair_downs == 2


def test_R_3_day_2_avoids_day_2_rematches_and_a_second_bye():
    players = day2_players(
        ["A", "B", "C"], {"A": 24, "B": 21, "C": 21}, {"B": {"C"}, "C": {"B"}}, had_bye={"B"}
    )
    assert [p.had_bye for p in players] == [False, True, False]
    result = pair_swiss(players, rng=random.Random(0))
    assert result.bye == "C" and result.rematches == 0


# --- P-D2-2: Day 2 tiebreakers use Day 2 rounds only ------------------------------------------------


def win(r: int, winner: str, loser: str) -> MatchRecord:
    return MatchRecord(r, (winner, loser), Outcome.WIN, winner)


# Day 1 (rounds 1-3): A 3-0, B 2-1, C 1-2, D 0-3. Day 2 (rounds 4-5).
EVENT = [
    win(1, "A", "B"), win(1, "C", "D"), win(2, "A", "C"), win(2, "B", "D"),
    win(3, "A", "D"), win(3, "B", "C"),
    win(4, "B", "A"), win(4, "D", "C"), win(5, "A", "C"), win(5, "B", "D"),
]  # fmt: skip
ENTRANTS = [Entrant(pid) for pid in "ABCD"]


def test_P_D2_2_day_2_matches_are_renumbered_from_round_1():
    assert day2_matches(EVENT, 3) == (
        win(1, "B", "A"), win(1, "D", "C"), win(2, "A", "C"), win(2, "B", "D"),
    )  # fmt: skip


def test_P_D2_2_day_2_owp_uses_day_2_rounds_only():
    day2 = {r.player: r for r in pokemon_standings(ENTRANTS, day2_matches(EVENT, 3), rounds=2)}
    # Day 2 win %: A 1/2, B 2/2, C 0/2 → 25 %, D 1/2.
    assert [day2[p].win_pct for p in "ABCD"] == [F(1, 2), F(1), F(1, 4), F(1, 2)]
    # A met B (100 %) and C (25 %); B met A and D (50 % each); C met D and A; D met C and B.
    assert [day2[p].owp for p in "ABCD"] == [F(5, 8), F(1, 2), F(1, 2), F(5, 8)]
    assert day2["A"].oowp == F(1, 2)  # mean of B's and C's Day 2 OWP
    # Over the whole event A's OWP would be (80 + 25 + 25 + 80 + 25) / 5 = 47 %.
    whole = {r.player: r for r in pokemon_standings(ENTRANTS, EVENT, rounds=5)}
    assert whole["A"].owp == F(47, 100)


def test_P_D2_2_match_points_carry_over_into_the_day_2_order():
    rows = pokemon_standings(ENTRANTS, day2_matches(EVENT, 3), rounds=2)
    carried = {"A": 9, "B": 6, "C": 3, "D": 0}
    # Totals A 12, B 12, C 3, D 3: A above B on Day 2 OWP (5/8 > 1/2), D above C likewise.
    assert day2_order(rows, carried) == ("A", "B", "D", "C")


# --- R-2 with R-3: a Day 2 drop is frozen at the Day 2 round of the drop ------------------------


# Day 1 is round 1; Day 2 is rounds 2-4 (Day 2 rounds 1-3). F drops after round 3 (Day 2
# round 2); C has the bye in Day 2 round 3.
TWO_DAYS = [
    win(1, "A", "B"), win(1, "C", "D"), win(1, "E", "F"),
    win(2, "A", "B"), win(2, "C", "D"), win(2, "E", "F"),
    win(3, "A", "C"), win(3, "B", "E"), win(3, "F", "D"),
    win(4, "E", "A"), win(4, "B", "D"), MatchRecord(4, ("C",), Outcome.BYE),
]  # fmt: skip
SIX = [Entrant(pid, dropped_after_round=3 if pid == "F" else None) for pid in "ABCDEF"]


def test_R_2_R_3_day_2_drops_are_renumbered_like_the_rounds():
    renumbered = day2_entrants([*SIX, Entrant("G", dropped_after_round=1)], 1)
    assert [e.dropped_after_round for e in renumbered] == [None] * 5 + [2, 0]


def test_R_2_R_3_a_day_2_drop_keeps_the_owp_and_oowp_of_their_drop_round():
    day2 = day2_matches(TWO_DAYS, 1)
    final = {r.player: r for r in pokemon_standings(day2_entrants(SIX, 1), day2, rounds=3)}
    at_drop = {r.player: r for r in pokemon_standings(day2_entrants(SIX, 1), day2, rounds=2)}
    # As of Day 2 round 2, F (1-1) met E (1-1, 50 %) and D (0-2, 25 %): OWP 3/8; E met F
    # and B (1-1 each): OWP 1/2; D met C and F (1-1 each): OWP 1/2; so F's OOWP is 1/2.
    assert (final["F"].owp, final["F"].oowp) == (F(3, 8), F(1, 2))
    assert (final["F"].owp, final["F"].oowp) == (at_drop["F"].owp, at_drop["F"].oowp)
    assert final["F"].dropped and final["F"].win_pct == F(1, 2)
    # Others' OOWP averages F's frozen OWP: E met F (3/8), B (A 2/3, E 2/3, D 1/4 → 19/36)
    # and A (B 2/3, C 1/2, E 2/3 → 11/18).
    assert final["E"].oowp == (F(3, 8) + F(19, 36) + F(11, 18)) / 3 == F(109, 216)


def test_R_2_R_3_without_renumbering_the_drop_day_2_opponents_final_values_were_used():
    # The drop as an event round (3) reads as Day 2 round 3, the last one: nothing frozen.
    stale = {r.player: r for r in pokemon_standings(SIX, day2_matches(TWO_DAYS, 1), rounds=3)}
    # E ends 2-1 (2/3), D 0-3 (1/4): (2/3 + 1/4) / 2 = 11/24; OOWP over their final OWP.
    assert (stale["F"].owp, stale["F"].oowp) == (F(11, 24), F(7, 12))
