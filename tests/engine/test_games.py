"""Best-of-3 game records: possible results, the match they stand for, game and match
points (M-MATCH-1, M-PTS-1, M-PTS-2, M-SE-2)."""

from __future__ import annotations

import pytest

from standings.engine.games import (
    BYE_GAMES,
    GameRecord,
    GameRecordError,
    Verdict,
    game_points,
    match_points,
    validate_game_record,
)
from standings.engine.types import Outcome

WIN_A = Verdict(Outcome.WIN, 0)
WIN_B = Verdict(Outcome.WIN, 1)
DRAW = Verdict(Outcome.DRAW)


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (GameRecord(2, 0), WIN_A),
        (GameRecord(2, 1), WIN_A),
        (GameRecord(1, 2), WIN_B),
        (GameRecord(0, 2), WIN_B),
        (GameRecord(1, 0), WIN_A),  # at time after one game: more game wins wins
        (GameRecord(0, 1, 1), WIN_B),
        (GameRecord(1, 0, 2), WIN_A),  # two drawn games do not stop a 1-0 win at time
        (GameRecord(2, 0, 1), WIN_A),  # drawn games do not count toward the 2 needed
        (GameRecord(1, 1, 1), DRAW),  # equal game wins at time: a drawn match
        (GameRecord(1, 1), DRAW),
        (GameRecord(0, 0, 1), DRAW),
        (GameRecord(0, 0, 3), DRAW),  # the intentional draw with no game played
    ],
    ids=str,
)
def test_M_MATCH_1_accepted_records_and_the_match_they_stand_for(
    record: GameRecord, expected: Verdict
) -> None:
    assert validate_game_record(record) == expected


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (GameRecord(3, 0), "nobody wins more than 2 games in a best-of-3"),
        (GameRecord(0, 3), "nobody wins more than 2 games in a best-of-3"),
        (GameRecord(2, 2), "both players cannot reach 2 game wins"),
        (GameRecord(2, 1, 1), "4 games recorded, a best-of-3 match has at most 3"),
        (GameRecord(1, 1, 2), "4 games recorded"),
        (GameRecord(0, 0, 4), "4 games recorded"),
        (GameRecord(0, 0, 0), "no game recorded"),
        (GameRecord(-1, 2), "cannot be negative"),
    ],
    ids=str,
)
def test_M_MATCH_1_impossible_records_are_refused_with_the_reason(
    record: GameRecord, message: str
) -> None:
    with pytest.raises(GameRecordError, match=message):
        validate_game_record(record)


def test_M_MATCH_1_a_reported_winner_with_fewer_game_wins_is_refused() -> None:
    with pytest.raises(GameRecordError, match="player B is reported as the winner with fewer"):
        validate_game_record(GameRecord(2, 1), winner=1)
    with pytest.raises(GameRecordError, match="equal game wins is a drawn match"):
        validate_game_record(GameRecord(1, 1, 1), winner=0)
    assert validate_game_record(GameRecord(1, 2), winner=1) == WIN_B


def test_M_MATCH_1_best_of_five_needs_three_game_wins() -> None:
    assert validate_game_record(GameRecord(3, 2), best_of=5) == WIN_A
    with pytest.raises(GameRecordError, match="nobody wins more than 3 games"):
        validate_game_record(GameRecord(4, 0), best_of=5)
    with pytest.raises(GameRecordError, match="odd number of games"):
        validate_game_record(GameRecord(2, 0), best_of=4)


@pytest.mark.parametrize("record", [GameRecord(1, 1, 1), GameRecord(0, 0, 3), GameRecord(1, 1)])
def test_M_SE_2_a_single_elimination_match_cannot_be_drawn(record: GameRecord) -> None:
    with pytest.raises(GameRecordError, match=r"cannot end in a draw$"):
        validate_game_record(record, elimination=True)


def test_M_SE_2_single_elimination_accepts_a_win_at_time() -> None:
    assert validate_game_record(GameRecord(1, 0, 1), elimination=True) == WIN_A


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (GameRecord(2, 0, 0), (6, 0)),  # MTR App. C: won 2-0-0
        (GameRecord(2, 1, 0), (6, 3)),  # won 2-1-0
        (GameRecord(2, 0, 1), (7, 1)),  # won 2-0-1: a drawn game is 1 point each
        (GameRecord(0, 0, 3), (3, 3)),
        (GameRecord(1, 2, 0), (3, 6)),
    ],
    ids=str,
)
def test_M_PTS_2_game_points_3_per_win_1_per_draw(
    record: GameRecord, expected: tuple[int, int]
) -> None:
    assert game_points(record) == expected


def test_M_PTS_1_match_points_3_per_win_1_per_draw() -> None:
    assert match_points(6, 2, 0) == 18
    assert match_points(4, 2, 2) == 14
    with pytest.raises(ValueError, match="impossible match record"):
        match_points(-1, 0, 0)


def test_M_PTS_1_a_bye_is_a_2_0_win_worth_6_game_points() -> None:
    assert (BYE_GAMES.wins_a, BYE_GAMES.wins_b, BYE_GAMES.draws) == (2, 0, 0)
    assert validate_game_record(BYE_GAMES) == WIN_A
    assert game_points(BYE_GAMES) == (6, 0)
    assert BYE_GAMES.games == 2
