"""Final places after a top cut or a standalone single elimination (P-TC, P-SE, R-4, I-2)."""

from __future__ import annotations

import pytest

from standings.engine.errors import StandingsError
from standings.engine.placement import read_bracket, single_elimination_places, top_cut_places
from standings.engine.types import MatchRecord, Outcome

SWISS = tuple(f"s{k}" for k in range(1, 13))  # s1 is the Swiss 1st


def win(r: int, winner: str, loser: str) -> MatchRecord:
    return MatchRecord(r, (winner, loser), Outcome.WIN, winner)


def top8(final_winner: str = "s4") -> list[MatchRecord]:
    """Top 8 after 6 Swiss rounds: the 1st seed loses its quarter-final to the 8th."""
    return [
        win(7, "s8", "s1"),
        win(7, "s4", "s5"),
        win(7, "s2", "s7"),
        win(7, "s3", "s6"),
        win(8, "s4", "s8"),
        win(8, "s2", "s3"),
        win(9, final_winner, "s2" if final_winner == "s4" else "s4"),
    ]


def test_P_TC_3_swiss_first_seed_losing_the_quarter_final_finishes_5th() -> None:
    places = top_cut_places(SWISS, top8())
    assert places[:8] == ("s4", "s2", "s3", "s8", "s1", "s5", "s6", "s7")
    assert places.index("s1") + 1 == 5


def test_P_TC_2_players_outside_the_cut_keep_their_swiss_place() -> None:
    places = top_cut_places(SWISS, top8())
    assert places[8:] == SWISS[8:]
    assert len(places) == len(SWISS)


def test_R_4_semi_final_losers_are_ordered_by_swiss_rank() -> None:
    places = top_cut_places(SWISS, top8(final_winner="s2"))
    assert places[:4] == ("s2", "s4", "s3", "s8")


def test_P_TC_4_third_place_playoff_orders_the_semi_final_losers() -> None:
    matches = [*top8(), win(9, "s8", "s3")]
    assert top_cut_places(SWISS, matches)[:4] == ("s4", "s2", "s8", "s3")


def test_P_TC_3_unfinished_cut_ranks_players_still_in_by_swiss_rank() -> None:
    matches = top8()[:6] + [MatchRecord(9, ("s4", "s2"), Outcome.PENDING)]
    assert top_cut_places(SWISS, matches)[:4] == ("s2", "s4", "s3", "s8")


def test_P_TC_2_no_cut_played_keeps_the_swiss_order() -> None:
    assert top_cut_places(SWISS, []) == SWISS


def test_top_cut_player_missing_from_swiss_order_raises() -> None:
    with pytest.raises(StandingsError, match="'x' is not in the Swiss standings"):
        top_cut_places(SWISS, [win(7, "x", "s1")])


def test_single_elimination_draw_raises() -> None:
    with pytest.raises(StandingsError, match="cannot be a draw"):
        read_bracket([MatchRecord(1, ("a", "b"), Outcome.DRAW)])


def test_match_between_eliminated_and_alive_player_raises() -> None:
    with pytest.raises(StandingsError, match="'b' was already eliminated"):
        read_bracket([win(1, "a", "b"), win(2, "b", "c")])


SEEDS = tuple(f"p{k}" for k in range(1, 9))


def se8() -> list[MatchRecord]:
    """Standalone 8: p1 wins everything; p5 beats p4 then loses to p1 in the semi."""
    return [
        win(1, "p1", "p8"),
        win(1, "p5", "p4"),
        win(1, "p2", "p7"),
        win(1, "p6", "p3"),
        win(2, "p1", "p5"),
        win(2, "p6", "p2"),
        win(3, "p1", "p6"),
    ]


def test_P_SE_5_round_1_loser_to_the_winner_ranks_above_other_round_1_losers() -> None:
    places = single_elimination_places(SEEDS, se8())
    assert places[0] == "p1"
    assert places[1] == "p6"
    # Semi-final losers: p5 lost to p1 (3-0), p2 lost to p6 (2-1).
    assert places[2:4] == ("p5", "p2")
    # Round-1 losers by their eliminator's final record: p8 (p1 3-0), p3 (p6 2-1),
    # then p4 and p7 whose eliminators p5 and p2 both finished 1-1: by own seed (I-2).
    assert places[4:] == ("p8", "p3", "p4", "p7")


def test_P_SE_6_third_place_playoff_overrides_the_eliminator_record() -> None:
    places = single_elimination_places(SEEDS, [*se8(), win(3, "p2", "p5")])
    assert places[2:4] == ("p2", "p5")


def test_P_SE_2_byes_count_as_rounds_won_for_the_eliminator_record() -> None:
    """Six players: seeds 1 and 2 get first-round byes."""
    seeds = SEEDS[:6]
    matches = [
        MatchRecord(1, ("p1",), Outcome.BYE, "p1"),
        MatchRecord(1, ("p2",), Outcome.BYE, "p2"),
        win(1, "p3", "p6"),
        win(1, "p5", "p4"),
        win(2, "p1", "p5"),
        win(2, "p3", "p2"),
        win(3, "p1", "p3"),
    ]
    places = single_elimination_places(seeds, matches)
    # p6 lost to p3 (2-1), p4 to p5 (1-1); p5 lost to p1 (3-0: bye + 2 wins), p2 to p3.
    assert places == ("p1", "p3", "p5", "p2", "p6", "p4")
