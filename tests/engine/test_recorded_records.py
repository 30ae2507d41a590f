"""Official records counted as recorded: the standings engines count a game
record the live rules refuse (a 3-0 in a best-of-3, a best-of-5 final's 3-2) the way the
official software did, and refuse only a record that contradicts its result."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from standings.engine.errors import StandingsError
from standings.engine.games import GameRecord, GameRecordError, Verdict, recorded_verdict
from standings.engine.mtg import mtg_standings
from standings.engine.types import Entrant, MatchRecord, Outcome
from standings.engine.wins_against import wins_against_standings


@pytest.mark.parametrize(
    ("record", "elimination", "verdict"),
    [
        (GameRecord(3, 0), False, Verdict(Outcome.WIN, 0)),
        (GameRecord(2, 3), True, Verdict(Outcome.WIN, 1)),
        (GameRecord(2, 2), False, Verdict(Outcome.DRAW)),
        (GameRecord(0, 0), False, Verdict(Outcome.DRAW)),
    ],
)
def test_recorded_verdict_counts_more_game_wins_as_the_win(record, elimination, verdict):
    assert recorded_verdict(record, elimination=elimination) == verdict


@pytest.mark.parametrize(
    ("record", "elimination", "winner", "message"),
    [
        (GameRecord(-1, 2), False, None, "cannot be negative"),
        (GameRecord(2, 2), True, None, "cannot end in a draw"),
        (GameRecord(3, 0), False, 1, "player B is reported as the winner with fewer"),
        (GameRecord(1, 1), False, 0, "equal game wins is a drawn match"),
    ],
)
def test_recorded_verdict_refuses_what_contradicts_itself(record, elimination, winner, message):
    with pytest.raises(GameRecordError, match=message):
        recorded_verdict(record, elimination=elimination, winner=winner)


def test_mtg_counts_an_official_3_0_as_recorded():
    people = [Entrant("a"), Entrant("b")]
    rows = {
        r.player: r
        for r in mtg_standings(
            people, [MatchRecord(1, ("a", "b"), Outcome.WIN, "a", (3, 0, 0))], rounds=1
        )
    }
    assert (rows["a"].game_points, rows["a"].games, rows["a"].gw) == (9, 3, F(1))
    assert (rows["b"].game_points, rows["b"].games, rows["b"].gw_unfloored) == (0, 3, F(0))
    with pytest.raises(StandingsError, match="fewer game wins"):
        mtg_standings(people, [MatchRecord(1, ("a", "b"), Outcome.WIN, "b", (3, 0, 0))], rounds=1)


def test_wins_against_counts_an_official_3_0_as_recorded():
    people = [Entrant("a"), Entrant("b")]
    rows = wins_against_standings(
        people, [MatchRecord(1, ("a", "b"), Outcome.WIN, "a", (3, 0, 0))], rounds=1
    )
    assert [(r.player, r.game_wins) for r in rows] == [("a", 3), ("b", 0)]
