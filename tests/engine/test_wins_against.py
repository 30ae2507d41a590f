"""The ``bo3-wins-against`` ruleset of seed 002: standings (W-SW-1, W-TB-1, W-TB-2), the
event structure (W-SW-1, W-SE-1, W-SE-2, P-RT-7) and time called (W-TIME-1, W-TIME-2)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from pairings.engine.elimination import (
    random_seeding,
    single_elimination_first_round,
    top_cut_pairings,
)
from pairings.engine.swiss import pair_swiss
from pairings.engine.types import SwissPlayer
from standings.engine.errors import StandingsError
from standings.engine.types import Entrant, MatchRecord, Outcome
from standings.engine.wins_against import (
    SUDDEN_DEATH_TURNS,
    MatchState,
    NextStep,
    Resolution,
    Structure,
    TimeCallError,
    WinsAgainstRow,
    recommended_structure,
    standalone_structure,
    sudden_death_winner,
    time_called,
    wins_against_standings,
)


def won(r: int, winner: str, loser: str, games: str = "2-0") -> MatchRecord:
    w, lo = (int(x) for x in games.split("-"))
    return MatchRecord(r, (winner, loser), Outcome.WIN, winner, (w, lo, 0))


def bye(r: int, a: str) -> MatchRecord:
    return MatchRecord(r, (a,), Outcome.BYE, a)


def people(ids: str, **dropped: int) -> list[Entrant]:
    return [Entrant(p, dropped_after_round=dropped.get(p)) for p in ids.split()]


def table(rows: tuple[WinsAgainstRow, ...]) -> dict[str, WinsAgainstRow]:
    return {r.player: r for r in rows}


# --- standings -----------------------------------------------------------------------------

FIVE = [
    won(1, "a", "b"),
    won(1, "c", "d", "2-1"),
    bye(1, "e"),
    won(2, "a", "c", "2-1"),
    won(2, "e", "b"),
    bye(2, "d"),
    won(3, "e", "a", "2-1"),
    won(3, "d", "c"),
    bye(3, "b"),
]


def test_W_TB_1_wins_against_sums_the_final_wins_of_the_opponents_beaten() -> None:
    rows = wins_against_standings(people("a b c d e"), FIVE, rounds=3)
    by = table(rows)
    # Final wins: e 3 (bye, b, a), a 2 (b, c), d 2 (bye, c), c 1 (d), b 1 (bye).
    assert {p: r.wins for p, r in by.items()} == {"a": 2, "b": 1, "c": 1, "d": 2, "e": 3}
    assert {p: r.wins_against for p, r in by.items()} == {"a": 2, "b": 0, "c": 2, "d": 1, "e": 3}
    assert [r.player for r in rows] == ["e", "a", "d", "c", "b"]


def test_W_TB_1_beating_a_player_who_ended_with_3_wins_gives_3_and_a_bye_gives_0() -> None:
    matches = [won(1, "x", "y"), won(2, "x", "z"), won(3, "x", "z"), won(4, "w", "x"), bye(4, "y")]
    by = table(wins_against_standings(people("w x y z"), matches, rounds=4))
    assert by["x"].wins == 3
    assert by["w"].wins_against == 3
    assert by["y"].wins_against == 0  # the bye is a win worth 0


def test_W_SW_1_a_bye_is_a_win_worth_1_point() -> None:
    by = table(wins_against_standings(people("a b c d e"), FIVE, rounds=3))
    assert (by["b"].points, by["b"].byes, by["b"].record) == (1, 1, "1-2-0")
    assert by["b"].win_pct == F(1, 3)


def test_W_TB_2_game_wins_break_a_wins_against_tie() -> None:
    matches = [won(1, "a", "b", "2-1"), won(1, "c", "d", "2-0")]
    rows = wins_against_standings(people("a b c d"), matches, rounds=1)
    by = table(rows)
    assert (by["b"].wins_against, by["d"].wins_against) == (0, 0)
    assert (by["b"].game_wins, by["d"].game_wins) == (1, 0)
    assert [r.player for r in rows][2:] == ["b", "d"]


def test_W_TB_2_then_the_highest_win_percentage() -> None:
    # p dropped after a 2-0 win (1/1); q won 2-0 and lost 0-2 (1/2); same wins against.
    matches = [won(1, "p", "x"), won(1, "q", "y"), won(2, "z", "q", "2-0")]
    by = table(wins_against_standings(people("p q x y z", p=1), matches, rounds=2))
    assert (by["p"].wins_against, by["q"].wins_against) == (0, 0)
    assert (by["p"].game_wins, by["q"].game_wins) == (2, 2)
    assert (by["p"].win_pct, by["q"].win_pct) == (F(1), F(1, 2))
    assert by["p"].dropped and not by["q"].dropped
    assert (by["p"].place or 0) < (by["q"].place or 0)


def test_W_TB_2_then_the_organiser_decides_reproducibly_from_the_seed() -> None:
    entrants = people("a b c d")
    matches = [won(1, "a", "b", "2-1"), won(1, "c", "d", "2-1")]
    tops = {
        tuple(r.player for r in wins_against_standings(entrants, matches, rounds=1, seed=s)[:2])
        for s in range(10)
    }
    assert tops == {("a", "c"), ("c", "a")}
    once = wins_against_standings(entrants, matches, rounds=1, seed=4)
    assert once == wins_against_standings(entrants[::-1], matches, rounds=1, seed=4)


def test_W_TB_2_a_bye_counts_two_game_wins_unless_the_organiser_changes_it() -> None:
    assert table(wins_against_standings(people("a"), [bye(1, "a")], rounds=1))["a"].game_wins == 2
    rows = wins_against_standings(people("a"), [bye(1, "a")], rounds=1, bye_game_wins=0)
    assert rows[0].game_wins == 0


def test_no_drawn_match_in_this_ruleset() -> None:
    draw = MatchRecord(1, ("a", "b"), Outcome.DRAW, None, (1, 1, 1))
    with pytest.raises(StandingsError, match=r"no drawn matches .* sudden death \(W-TIME-1\)"):
        wins_against_standings(people("a b"), [draw], rounds=1)


def test_inconsistent_results_are_refused() -> None:
    entrants = people("a b")
    with pytest.raises(StandingsError, match="the game record"):
        wins_against_standings(entrants, [MatchRecord(1, ("a", "b"), Outcome.WIN, "a")], rounds=1)
    with pytest.raises(StandingsError, match="reported as the winner with fewer game wins"):
        wins_against_standings(entrants, [won(1, "a", "b", "1-2")], rounds=1)
    with pytest.raises(StandingsError, match="'q' is not an entrant"):
        wins_against_standings(entrants, [won(1, "a", "q")], rounds=1)


def test_losses_pending_and_disqualified() -> None:
    entrants = [Entrant("a", disqualified=True), Entrant("b"), Entrant("c")]
    matches = [
        won(1, "a", "b"),
        MatchRecord(1, ("c",), Outcome.LATE_LOSS),
        MatchRecord(2, ("b", "c"), Outcome.DOUBLE_LOSS),
        MatchRecord(3, ("b", "c"), Outcome.PENDING),
    ]
    rows = wins_against_standings(entrants, matches, rounds=3)
    assert [(r.player, r.place, r.record) for r in rows][-1] == ("a", None, "1-0-0")
    assert table(rows)["c"].record == "0-2-0"


# --- W-SW-1 pairing, structure (W-SE-1, W-SE-2, P-RT-7) ----------------------------------------


def test_W_SW_1_pairs_players_with_the_same_wins_and_the_bye_goes_to_the_fewest_wins() -> None:
    players = [
        SwissPlayer("a", 2),
        SwissPlayer("b", 2),
        SwissPlayer("c", 1),
        SwissPlayer("d", 1),
        SwissPlayer("e", 0),
    ]
    paired = pair_swiss(players, rng=random.Random(1))
    assert {frozenset(p.players) for p in paired.pairings if not p.is_bye} == {
        frozenset("ab"),
        frozenset("cd"),
    }
    assert paired.bye == "e"


def test_W_SW_1_no_second_bye_and_no_rematch() -> None:
    players = [
        SwissPlayer("a", 2, frozenset("b")),
        SwissPlayer("b", 2, frozenset("a")),
        SwissPlayer("c", 1),
        SwissPlayer("d", 1),
        SwissPlayer("e", 0, had_bye=True),
    ]
    paired = pair_swiss(players, rng=random.Random(7))
    assert paired.bye in {"c", "d"}
    assert paired.rematches == 0


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (5, Structure(3, 0, 0)),
        (8, Structure(3, 0, 0)),
        (9, Structure(4, 4, 2)),
        (32, Structure(5, 4, 2)),
        (33, Structure(6, 8, 3)),
        (128, Structure(7, 8, 3)),
        (129, Structure(8, 16, 4)),
        (512, Structure(9, 16, 4)),
    ],
)
def test_W_SE_1_swiss_into_single_elimination_from_9_players(
    players: int, expected: Structure
) -> None:
    assert recommended_structure(players) == expected


def test_W_SE_1_the_top_seed_meets_the_lowest_and_top_seeds_meet_late() -> None:
    seeds = [f"s{k}" for k in range(1, 17)]
    first = [p.players for p in top_cut_pairings(seeds)]
    assert first[0] == ("s1", "s16")
    assert first[:4] == [("s1", "s16"), ("s8", "s9"), ("s4", "s13"), ("s5", "s12")]
    with pytest.raises(ValueError, match="at least 5 players"):
        recommended_structure(4)
    with pytest.raises(ValueError, match="ends at 512"):
        recommended_structure(513)


def test_W_SE_2_standalone_single_elimination_from_4_players_byes_in_round_1() -> None:
    assert standalone_structure(4) == Structure(0, 0, 2, 0)
    assert standalone_structure(5) == Structure(0, 0, 3, 3)
    assert standalone_structure(16) == Structure(0, 0, 4, 0)
    with pytest.raises(ValueError, match="at least 4 players"):
        standalone_structure(3)


def test_W_SE_2_byes_go_to_the_top_seeds_if_seeded_otherwise_at_random() -> None:
    seeded = ["s1", "s2", "s3", "s4", "s5"]
    byes = [p.players[0] for p in single_elimination_first_round(seeded) if p.is_bye]
    assert byes == ["s1", "s2", "s3"]
    chosen = set()
    for seed in range(6):
        order = random_seeding(seeded, rng=random.Random(seed))
        chosen.add(
            frozenset(p.players[0] for p in single_elimination_first_round(order) if p.is_bye)
        )
    assert len(chosen) > 1  # random seeding: the byes land on different players


# --- W-TIME-1, W-TIME-2 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "step", "game", "winner", "then"),
    [
        (MatchState(1, (0, 0)), NextStep.SUDDEN_DEATH, 1, None, "its winner wins the match"),
        (MatchState(2, (1, 0), True), NextStep.MATCH_OVER, None, 0, "game-1 winner wins"),
        (MatchState(2, (0, 1), True), NextStep.MATCH_OVER, None, 1, "player B wins"),
        (
            MatchState(2, (1, 0)),
            NextStep.SUDDEN_DEATH,
            2,
            None,
            "at 1-1 game 3 starts as an immediate",
        ),
        (
            MatchState(3, (1, 1), True),
            NextStep.IMMEDIATE_SUDDEN_DEATH,
            3,
            None,
            "game 3 starts in sudden",
        ),
        (MatchState(3, (1, 1)), NextStep.SUDDEN_DEATH, 3, None, "game 3 goes to sudden death"),
        (MatchState(3, (2, 0), True), NextStep.MATCH_OVER, None, 0, "already won 2-0"),
        (MatchState(4, (1, 2), True), NextStep.MATCH_OVER, None, 1, "already won 2-1"),
        (MatchState(1, (0, 0), True), NextStep.IMMEDIATE_SUDDEN_DEATH, 1, None, "game 1 starts"),
    ],
    ids=lambda v: str(v) if isinstance(v, MatchState) else None,
)
def test_W_TIME_1_time_called_resolves_by_the_state_of_the_match(
    state: MatchState, step: NextStep, game: int | None, winner: int | None, then: str
) -> None:
    resolution = time_called(state)
    assert (resolution.step, resolution.game, resolution.winner) == (step, game, winner)
    assert resolution.sudden_death == (step != NextStep.MATCH_OVER)
    assert then in resolution.text


def test_W_TIME_1_game_2_sudden_death_then_game_3_or_the_match() -> None:
    assert time_called(MatchState(2, (1, 0))).step == NextStep.SUDDEN_DEATH
    trailer_won: Resolution = time_called(MatchState(3, (1, 1), between_games=True))
    assert trailer_won.step == NextStep.IMMEDIATE_SUDDEN_DEATH
    leader_won = time_called(MatchState(3, (2, 0), between_games=True))
    assert (leader_won.step, leader_won.winner) == (NextStep.MATCH_OVER, 0)


@pytest.mark.parametrize(
    ("state", "message"),
    [
        (MatchState(2, (0, 0)), "the current game is game 1, not game 2"),
        (MatchState(1, (3, 0)), "impossible in a best-of-3"),
        (MatchState(5, (2, 2), True), "impossible in a best-of-3"),
        (MatchState(3, (2, 0)), "the match is over"),
    ],
)
def test_W_TIME_1_impossible_states_are_refused(state: MatchState, message: str) -> None:
    with pytest.raises(TimeCallError, match=message):
        time_called(state)


def test_W_TIME_2_sudden_death_three_turns_then_health_then_until_it_changes() -> None:
    assert SUDDEN_DEATH_TURNS == 3
    assert "3 more turns, the current one included" in time_called(MatchState(1, (0, 0))).text
    assert sudden_death_winner(12, 7) == 0
    assert sudden_death_winner(3, 9) == 1
    assert sudden_death_winner(5, 5) is None  # play on until a health value changes
