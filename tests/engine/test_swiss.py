"""Hand-checked Swiss pairing cases (P-SW-1 … P-SW-8, I-1), pinned seeds, no database."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pairings.engine import _swiss_solve
from pairings.engine.errors import PairingImpossible
from pairings.engine.swiss import pair_swiss
from pairings.engine.types import Pairing, SwissPlayer, SwissRound

SEEDS = range(25)


def player(pid: str, points: int = 0, met: str = "", bye: bool = False) -> SwissPlayer:
    """``met`` lists the opponents already played, space separated."""
    return SwissPlayer(id=pid, match_points=points, opponents=frozenset(met.split()), had_bye=bye)


def pair(players: list[SwissPlayer], seed: int = 0) -> SwissRound:
    return pair_swiss(players, rng=random.Random(seed))


def matches(result: SwissRound) -> set[frozenset[str]]:
    return {frozenset(p.players) for p in result.pairings if not p.is_bye}


def partner(result: SwissRound, pid: str) -> str | None:
    for p in result.pairings:
        if pid in p.players and not p.is_bye:
            return next(x for x in p.players if x != pid)
    return None


def assert_everyone_once(players: list[SwissPlayer], result: SwissRound) -> None:
    seen = Counter(x for p in result.pairings for x in p.players)
    assert seen == Counter(p.id for p in players)


# --- P-SW-1, I-1: round 1 is random, reproducible from the seed --------------------------


def test_P_SW_1_round_1_pairs_everyone_at_random():
    players = [player(f"p{i}") for i in range(8)]
    results = [pair(players, seed) for seed in SEEDS]
    for result in results:
        assert_everyone_once(players, result)
        assert [p.table for p in result.pairings] == [1, 2, 3, 4]
        assert {p.why for p in result.pairings} == {"same record"}
        assert (result.pair_downs, result.rematches) == (0, 0)
    assert len({frozenset(matches(r)) for r in results}) > 10  # 105 possible pairings


def test_I_1_same_seed_gives_the_same_round():
    players = [player(f"p{i}", points=3 * (i % 3), met=f"p{(i + 1) % 9}") for i in range(9)]
    assert pair(players, 42) == pair(players, 42)


def test_I_1_input_order_does_not_change_the_round():
    players = [player(f"p{i}", points=3 * (i % 3), met=f"p{(i + 1) % 9}") for i in range(9)]
    assert pair(players, 7) == pair(list(reversed(players)), 7)


# --- P-SW-2, P-SW-3: brackets, pair-downs -------------------------------------------------


def test_P_SW_2_players_are_paired_within_their_bracket():
    players = [player(f"a{i}", 6) for i in range(4)] + [player(f"b{i}", 3) for i in range(4)]
    players += [player(f"c{i}", 0) for i in range(4)]
    for seed in SEEDS:
        result = pair(players, seed)
        assert result.pair_downs == 0
        assert all(p.players[0][0] == p.players[1][0] for p in result.pairings)


def test_P_SW_3_odd_bracket_pairs_one_player_down_into_the_next_bracket():
    players = [player(f"a{i}", 6) for i in range(3)] + [player(f"b{i}", 3) for i in range(3)]
    players += [player("c0", 0), player("c1", 0)]
    result = pair(players)
    assert result.pair_downs == 1
    assert [(p.table, p.why) for p in result.pairings] == [
        (1, "same record"),
        (2, "paired down from 6 points"),
        (3, "same record"),
        (4, "same record"),
    ]
    down = result.pairings[1]
    assert down.pair_down and down.players[0].startswith("a") and down.players[1].startswith("b")


def test_P_SW_3_a_pair_down_from_a_tie_says_one_point():
    """ "paired down from 1 point", never "1 points"."""
    players = [player("a0", 1), player("b0", 0), player("b1", 0), player("b2", 0)]
    result = pair(players)
    assert [p.why for p in result.pairings] == ["paired down from 1 point", "same record"]


def test_P_SW_3_pair_down_is_never_a_rematch():
    # A floats down alone and has met B and C: only D is a legal opponent.
    players = [player("A", 6, "B C"), player("B", 3, "A"), player("C", 3, "A"), player("D", 3)]
    for seed in SEEDS:
        result = pair(players, seed)
        assert partner(result, "A") == "D"
        assert matches(result) == {frozenset("AD"), frozenset("BC")}
        assert result.rematches == 0


def test_P_SW_3_pair_down_goes_to_the_next_bracket_not_further():
    # 9 / 6 6 / 3: two pair-downs of one bracket each, never 9 against 3.
    players = [player("A", 9), player("B", 6), player("C", 6), player("D", 3)]
    for seed in SEEDS:
        result = pair(players, seed)
        assert partner(result, "A") in {"B", "C"}
        assert partner(result, "D") in {"B", "C"}
        assert [p.why for p in result.pairings] == [
            "paired down from 9 points",
            "paired down from 6 points",
        ]


def test_P_SW_3_the_floater_is_the_one_who_can_pair_down():
    # Only C has not met D, so C must be the player who leaves the 6-point bracket.
    players = [player("A", 6), player("B", 6), player("C", 6), player("D", 3, "A B")]
    players += [player("E", 0), player("F", 0)]
    for seed in SEEDS:
        result = pair(players, seed)
        assert matches(result) == {frozenset("AB"), frozenset("CD"), frozenset("EF")}
        assert result.pair_downs == 1


# --- P-SW-4: rematches --------------------------------------------------------------------


def test_P_SW_4_no_rematch_while_a_rematch_free_pairing_exists():
    players = [player("A", 3, "B"), player("B", 3, "A"), player("C", 3, "D"), player("D", 3, "C")]
    for seed in SEEDS:
        result = pair(players, seed)
        assert result.rematches == 0
        assert not matches(result) & {frozenset("AB"), frozenset("CD")}


def test_P_SW_4_avoiding_a_rematch_comes_before_avoiding_pair_downs():
    players = [player("A", 6, "B"), player("B", 6, "A"), player("C", 0), player("D", 0)]
    result = pair(players)
    assert (result.rematches, result.pair_downs) == (0, 2)
    assert frozenset("AB") not in matches(result)


def test_P_SW_4_unavoidable_rematch_is_flagged():
    result = pair([player("A", 3, "B"), player("B", 0, "A")])
    (only,) = result.pairings
    assert only == Pairing(
        table=1, players=("A", "B"), why="rematch: no alternative", pair_down=True, rematch=True
    )
    assert result.rematches == 1
    assert result.notes == ("No pairing without a rematch exists: 1 rematch, flagged.",)


@pytest.mark.parametrize(
    ("history", "fewest"),
    [
        ({"A": "B C D", "B": "A C D", "C": "A B D", "D": "A B C"}, 2),  # everyone met
        ({"A": "B C D", "B": "A C", "C": "A B", "D": "A"}, 1),  # A met everyone
        ({"A": "B C", "B": "A", "C": "A", "D": ""}, 0),  # A–D is free
    ],
)
def test_P_SW_4_fewest_rematches_when_some_are_unavoidable(history, fewest):
    players = [player(pid, 3, met) for pid, met in history.items()]
    for seed in SEEDS:
        result = pair(players, seed)
        assert result.rematches == fewest
        assert sum(p.rematch for p in result.pairings) == fewest


def test_P_SW_6_opponents_who_dropped_do_not_matter():
    players = [player("A", 3, "gone"), player("B", 3, "gone other")]
    result = pair(players)
    assert matches(result) == {frozenset("AB")} and result.rematches == 0


# --- P-SW-5: byes -------------------------------------------------------------------------


def test_P_SW_5_odd_number_of_players_gives_one_bye_in_the_lowest_bracket():
    players = [player("A", 3), player("B", 3), player("C", 3), player("D", 0), player("E", 0)]
    for seed in SEEDS:
        result = pair(players, seed)
        assert_everyone_once(players, result)
        assert result.bye in {"D", "E"}
        assert result.pair_downs == 1  # the third 3-point player meets the other 0


def test_P_SW_5_bye_is_listed_last_without_a_table():
    players = [player("A", 3), player("B", 0), player("C", 0)]
    result = pair(players)
    assert result.pairings[-1] == Pairing(
        table=None, players=(result.bye,), why="bye: lowest bracket, random"
    )
    assert [p.table for p in result.pairings] == [1, None]


def test_P_SW_5_bye_is_random_among_the_eligible():
    players = [player(f"p{i}") for i in range(7)]
    assert len({pair(players, seed).bye for seed in SEEDS}) > 3


def test_P_SW_5_bye_never_goes_twice_to_the_same_player():
    players = [player("A", 3), player("X", 0, bye=True), player("Y", 0)]
    for seed in SEEDS:
        assert pair(players, seed).bye == "Y"


def test_P_SW_5_bye_moves_up_when_the_whole_lowest_bracket_had_one():
    players = [player("A", 6), player("B", 3), player("C", 3), player("D", 3, bye=True)]
    players += [player("X", 0, bye=True), player("Y", 0, bye=True), player("Z", 3, bye=True)]
    for seed in SEEDS:
        result = pair(players, seed)
        assert result.bye in {"B", "C"}
        assert result.pairings[-1].why == "bye: lowest bracket without a bye, random"
        assert result.notes == (
            "Every player with 0 points already had a bye: the bye moves up to the "
            "3-point bracket.",
        )


def test_P_SW_5_bye_is_a_hard_filter_even_when_it_costs_a_rematch():
    # X is the only player of the lowest bracket without a bye; giving it to A or Y
    # would avoid the A–Y rematch but break P-SW-5.
    players = [player("A", 3, "Y"), player("X", 0), player("Y", 0, "A", bye=True)]
    result = pair(players)
    assert result.bye == "X"
    assert result.rematches == 1


def test_P_SW_5_second_bye_only_when_everyone_already_had_one():
    players = [player("A", 3, bye=True), player("B", 0, bye=True), player("C", 0, bye=True)]
    result = pair(players)
    assert result.bye in {"B", "C"}
    assert result.notes == ("Every player already had a bye: one player gets a second bye.",)


def test_P_SW_5_no_player_gets_two_byes_over_a_whole_event():
    # 7 players, 7 rounds, random results: seven different players get the seven byes.
    rng = random.Random(3)
    points = dict.fromkeys("ABCDEFG", 0)
    met: dict[str, set[str]] = {p: set() for p in points}
    byes: list[str] = []
    for _ in range(7):
        players = [SwissPlayer(p, points[p], frozenset(met[p]), p in byes) for p in points]
        result = pair_swiss(players, rng=random.Random(rng.random()))
        assert result.bye is not None
        byes.append(result.bye)
        points[result.bye] += 3
        for a, b in (p.players for p in result.pairings if not p.is_bye):
            met[a].add(b)
            met[b].add(a)
            points[rng.choice((a, b))] += 3
    assert sorted(byes) == list("ABCDEFG")


# --- P-SW-7: fewest and shortest pair-downs ----------------------------------------------


def test_P_SW_7_fewest_pair_downs_then_shortest():
    # A and B (6) met: both must leave their bracket. Cheapest: one meets C (5, a tie
    # bracket), the other pairs down to 3; then the 3-point bracket stays even.
    players = [player("A", 6, "B"), player("B", 6, "A"), player("C", 5)]
    players += [player("D", 3), player("E", 3), player("F", 3)]
    for seed in SEEDS:
        result = pair(players, seed)
        assert result.rematches == 0
        assert partner(result, "C") in {"A", "B"}
        assert result.pair_downs == 2
        assert sorted(p.why for p in result.pairings) == [
            "paired down from 6 points; rematch avoided",
            "paired down from 6 points; rematch avoided",
            "same record",
        ]


def test_P_SW_7_odd_event_the_bye_absorbs_the_odd_bottom_bracket():
    # Brackets of 2, 2 and 3 players: the odd bottom bracket gives one player the bye,
    # so nobody has to pair down.
    players = [player("A", 6), player("B", 6), player("C", 3), player("D", 3)]
    players += [player("E", 0), player("F", 0), player("G", 0)]
    for seed in SEEDS:
        result = pair(players, seed)
        assert result.pair_downs == 0
        assert result.bye in {"E", "F", "G"}


# --- P-SW-8: tables -----------------------------------------------------------------------


def test_P_SW_8_tables_follow_bracket_order_and_higher_player_first():
    players = [player(f"a{i}", 9) for i in range(3)] + [player(f"b{i}", 6) for i in range(3)]
    players += [player(f"c{i}", 3) for i in range(2)] + [player("d0", 0)]
    points = {p.id: p.match_points for p in players}
    for seed in SEEDS:
        result = pair(players, seed)
        tables = [p for p in result.pairings if not p.is_bye]
        assert [p.table for p in tables] == list(range(1, len(tables) + 1))
        keys = [(points[p.players[0]], points[p.players[1]]) for p in tables]
        assert keys == sorted(keys, reverse=True)
        assert all(high >= low for high, low in keys)
        assert result.pairings[-1].is_bye


# --- errors, and a large round ------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([], "at least two players, got 0"),
        ([player("A")], "at least two players, got 1"),
        ([player("A"), player("B"), player("A", 3)], "Player listed twice: A."),
    ],
)
def test_impossible_input_raises_pairing_impossible(players, message):
    with pytest.raises(PairingImpossible, match=message):
        pair(players)


def test_P_SW_7_large_round_reaches_the_parity_bound_without_rematches():
    # 1,024 players after four rounds of the engine: every odd cut crossed exactly once.
    rng = random.Random(11)
    points = dict.fromkeys((f"p{i:04d}" for i in range(1024)), 0)
    met: dict[str, set[str]] = {p: set() for p in points}
    for number in range(5):
        players = [SwissPlayer(p, points[p], frozenset(met[p])) for p in points]
        result = pair_swiss(players, rng=random.Random(number))
        sizes = Counter(points.values())
        above = odd_cuts = 0
        for pts in sorted(sizes, reverse=True)[:-1]:
            above += sizes[pts]
            odd_cuts += above % 2
        assert (result.rematches, result.pair_downs) == (0, odd_cuts)
        for a, b in (p.players for p in result.pairings):
            met[a].add(b)
            met[b].add(a)
            points[rng.choice((a, b))] += 3


def test_P_SW_4_large_event_repairs_a_stuck_bottom_bracket():
    # 197 fresh players at 3 points and three 0-point players who all met each other:
    # the greedy pass gets stuck at the bottom; the repair pairs each of X, Y, Z with a
    # 3-point player (three pair-downs, proven optimal by the sharper bound).
    players = [player(f"p{i:03d}", 3) for i in range(197)]
    players += [player("X", 0, "Y Z"), player("Y", 0, "X Z"), player("Z", 0, "X Y")]
    assert len(players) > _swiss_solve.EXACT_LIMIT
    result = pair(players)
    assert_everyone_once(players, result)
    assert (result.rematches, result.pair_downs, result.proven_optimal) == (0, 3, True)
    assert all(partner(result, pid).startswith("p") for pid in "XYZ")
