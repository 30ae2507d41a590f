"""Magic match results without game records: the MTG standings count
such a match exactly for match points, MW% and OMW, and GW% and OGW from the games that
are known (M-PTS-1, M-TB-1…4). No database."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import pytest

from standings.engine.errors import StandingsError
from standings.engine.mtg import mtg_standings
from standings.engine.types import Entrant, MatchRecord, Outcome

PLAYERS = [Entrant(p) for p in "ABCD"]
GAMES = [
    MatchRecord(1, ("A", "B"), Outcome.WIN, "A", (2, 1, 0)),
    MatchRecord(1, ("C", "D"), Outcome.DRAW, None, (1, 1, 1)),
    MatchRecord(2, ("A", "C"), Outcome.WIN, "C", (0, 2, 0)),
    MatchRecord(2, ("B", "D"), Outcome.WIN, "B", (2, 0, 0)),
]
# Round 2 as a public source publishes it: the results, not the games.
RESULTS_ONLY = [*GAMES[:2], *(replace(m, games=None) for m in GAMES[2:])]


def rows(matches):
    return {r.player: r for r in mtg_standings(PLAYERS, matches, rounds=2)}


def test_M_TB_3_match_points_and_omw_are_exact_without_game_records():
    full, partial = rows(GAMES), rows(RESULTS_ONLY)
    for p in "ABCD":
        assert (partial[p].match_points, partial[p].record, partial[p].mw, partial[p].omw) == (
            full[p].match_points,
            full[p].record,
            full[p].mw,
            full[p].omw,
        )
    assert [r for r in partial] == ["C", "A", "B", "D"]  # 4 points, then 3, 3, 1 on OMW


def test_M_TB_2_game_win_counts_only_the_games_known():
    partial = rows(RESULTS_ONLY)
    # A: round 1 won 2-1 (6 game points of 3 games) and round 2 unknown → 6/9.
    assert (partial["A"].game_points, partial["A"].games, partial["A"].gw) == (6, 3, F(2, 3))
    # C: round 1 drew 1-1-1 (4 of 3 games) → 4/9; with round 2 (2-0) it was 10/15.
    assert partial["C"].gw == F(4, 9) and rows(GAMES)["C"].gw == F(2, 3)
    # OGW averages those GW%: A met B (round 1 lost 1-2 → 3/9, above the 0.33 floor;
    # round 2 unknown) and C (4/9) → 7/18.
    assert partial["A"].ogw == (F(1, 3) + F(4, 9)) / 2 == F(7, 18)
    assert {p: r.unrecorded for p, r in partial.items()} == {"A": 1, "B": 1, "C": 1, "D": 1}
    assert all(r.unrecorded == 0 for r in rows(GAMES).values())


def test_M_SE_2_a_drawn_playoff_without_games_is_still_refused():
    playoff = MatchRecord(3, ("A", "C"), Outcome.DRAW, None, None)
    with pytest.raises(StandingsError, match="cannot end in a draw"):
        mtg_standings(PLAYERS, GAMES, rounds=2, playoffs=[playoff])
