"""Best-of-1 Magic: the ``match_length`` option of ``mtg``, the game
records a best-of-1 match can hold, and a bye counted as one game won of one, as melee.gg
publishes it (M-MATCH-1, M-PTS-1, M-PTS-2, M-TB-2, M-TB-4, R-7). No database."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rulesets import clean_options, get_ruleset
from rulesets.games import check_games
from standings.engine.games import GameRecord, GameRecordError
from standings.engine.mtg import MELEE_FLOOR, bye_games, late_loss_games, mtg_standings
from standings.engine.types import Entrant, MatchRecord, Outcome

MTG = get_ruleset("mtg")
BO1 = {"match_length": "best-of-1"}


def won(r: int, a: str, b: str) -> MatchRecord:
    return MatchRecord(r, (a, b), Outcome.WIN, a, (1, 0, 0))


def drawn(r: int, a: str, b: str) -> MatchRecord:
    return MatchRecord(r, (a, b), Outcome.DRAW, None, (0, 0, 1))


def bye(r: int, a: str) -> MatchRecord:
    return MatchRecord(r, (a,), Outcome.BYE)


# A generated best-of-1 event: five players, three rounds, a bye every round.
EVENT = [
    won(1, "A", "B"), won(1, "C", "D"), bye(1, "E"),
    won(2, "A", "C"), drawn(2, "E", "B"), bye(2, "D"),
    won(3, "E", "A"), won(3, "D", "B"), bye(3, "C"),
]  # fmt: skip
PLAYERS = [Entrant(p) for p in "ABCDE"]


def melee(best_of: int) -> dict[str, object]:
    rows = mtg_standings(
        PLAYERS, EVENT, rounds=3, mwp_floor=MELEE_FLOOR, melee_ranking=True, best_of=best_of
    )
    return {r.player: r for r in rows}


def test_match_length_is_an_mtg_option_best_of_3_by_default():
    spec = {o.name: o for o in MTG.options}["match_length"]
    assert (spec.default, spec.choices, spec.fixed_once_played) == (
        "best-of-3",
        ("best-of-3", "best-of-1"),
        True,
    )
    assert MTG.best_of({}) == 3 and MTG.best_of(BO1) == 1
    assert clean_options("mtg", BO1, own_only=True) == BO1
    with pytest.raises(ValueError, match="is not one of"):
        clean_options("mtg", {"match_length": "best-of-5"})
    # A ruleset without the option plays best-of-3 whatever a file carries.
    assert get_ruleset("bo3-wins-against").best_of(BO1) == 3


def test_M_PTS_1_a_best_of_1_bye_is_one_game_won_and_a_late_loss_one_lost():
    assert (bye_games(1), late_loss_games(1)) == (GameRecord(1, 0, 0), GameRecord(0, 1, 0))
    assert (bye_games(3), late_loss_games(3)) == (GameRecord(2, 0, 0), GameRecord(0, 2, 0))


@pytest.mark.parametrize(
    ("games", "verdict"),
    [((1, 0, 0), ("win", 0)), ((0, 1, 0), ("win", 1)), ((0, 0, 1), ("draw", None))],
)
def test_M_MATCH_1_best_of_1_records(games, verdict):
    assert MTG.game_verdict(games, elimination=False, options=BO1) == verdict
    assert check_games(games, False, 1) == verdict


@pytest.mark.parametrize(
    ("games", "why"),
    [
        ((2, 0, 0), "nobody wins more than 1 games in a best-of-1"),
        ((1, 1, 0), "both players cannot reach 1"),
        ((1, 0, 1), "2 games recorded, a best-of-1 match has at most 1"),
        ((0, 0, 3), "3 games recorded"),
    ],
)
def test_M_MATCH_1_a_second_game_is_refused_in_best_of_1(games, why):
    with pytest.raises(GameRecordError, match=why):
        MTG.game_verdict(games, elimination=False, options=BO1)
    assert MTG.game_verdict(games, elimination=False, options={})  # a best-of-3 record


def test_M_TB_2_melee_game_win_values_of_a_best_of_1_event_with_byes():
    rows = melee(best_of=1)
    # GW% (melee's GWP, unfloored): game points ÷ 3 per game, a bye 3 points of 1 game.
    # E: bye 3/1, draw 1/1, won 3/1 → 7/9; C and D: won, lost, bye → 6/9; A: 2-1 → 6/9;
    # B: lost, drew, lost → 1/9 (floored to 1/3 for everyone's OGW).
    gw = {p: r.gw_unfloored for p, r in rows.items()}
    assert gw == {"A": F(2, 3), "B": F(1, 9), "C": F(2, 3), "D": F(2, 3), "E": F(7, 9)}
    # OGW (OGWP) averages the opponents' floored GW%, byes left out:
    # A met B (1/3), C (2/3), E (7/9) → 16/27; B met A, E, D → 19/27; C met D, A → 2/3;
    # D met C, B → 1/2; E met B, A → 1/2.
    ogw = {p: r.ogw for p, r in rows.items()}
    assert ogw == {"A": F(16, 27), "B": F(19, 27), "C": F(2, 3), "D": F(1, 2), "E": F(1, 2)}
    assert [r for r in rows] == ["E", "C", "A", "D", "B"]  # points, OMW, GWP, OGWP


def test_M_TB_2_counting_a_best_of_1_bye_as_2_0_gives_other_game_win_values():
    # The MTR's best-of-3 bye (6 game points over 2 games) would give E 10/12 and C 9/12:
    # every opponent of a player with a bye would show another OGWP than melee.gg.
    bo3 = melee(best_of=3)
    assert (bo3["E"].gw_unfloored, bo3["C"].gw_unfloored) == (F(5, 6), F(3, 4))
    assert bo3["A"].ogw != melee(best_of=1)["A"].ogw
