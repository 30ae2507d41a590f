"""Multiplayer points and tiebreakers (MP-PTS-1, MP-PTS-2, MP-TB, MP-TB-1, MP-TB-2,
MP-TB-3)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standings.engine.errors import StandingsError
from standings.engine.multiplayer import (
    MultiplayerRow,
    PodGame,
    PodResult,
    game_points,
    match_points,
    multiplayer_standings,
    points_per_win,
)
from standings.engine.types import Entrant
from tests.paths import DATA

WORKED_EXAMPLES = DATA / "worked_examples.json"


def entrants(ids: str | list[str]) -> list[Entrant]:
    return [Entrant(pid) for pid in ids]


def by_player(rows: tuple[MultiplayerRow, ...]) -> dict[str, MultiplayerRow]:
    return {row.player: row for row in rows}


def worked(src: str) -> dict[str, object]:
    data = json.loads(WORKED_EXAMPLES.read_text(encoding="utf-8"))
    return next(ex for ex in data if ex["src"] == src)


# A two-round event of seven players, standard pods of 4 (hand-checked below):
# round 1: ABCD won by A; EFG drawn, G conceded; round 2: AEC won by E; BFDG drawn.
SMALL_EVENT = [
    PodResult(1, ("A", "B", "C", "D"), "A"),
    PodResult(1, ("E", "F", "G"), None, frozenset({"G"})),
    PodResult(2, ("A", "E", "C"), "E"),
    PodResult(2, ("B", "F", "D", "G"), None),
]


# --- MP-PTS-1: match points ---------------------------------------------------------------


def test_MP_PTS_1_worked_example_points_per_win_is_7():
    example = worked("MTG MP addendum Match points")
    assert points_per_win(4) == example["computed"] == 7
    three_pod = PodResult(1, ("a", "b", "c"), "a")
    assert match_points(three_pod, "a") == 7  # also in a 3-player pod
    assert match_points(PodResult(1, ("a",)), "a") == 7  # and for a bye


@pytest.mark.parametrize(("standard", "points"), [(4, 7), (3, 5), (5, 9)])
def test_MP_PTS_1_a_win_is_worth_2n_minus_1(standard, points):
    assert points_per_win(standard) == points


def test_MP_PTS_1_standard_size_below_two_is_rejected():
    with pytest.raises(ValueError):
        points_per_win(1)


def test_MP_PTS_1_drawn_pod_gives_one_point_except_to_conceders_and_penalised():
    drawn = PodResult(1, ("a", "b", "c", "d"), None, frozenset({"c", "d"}))
    assert [match_points(drawn, pid) for pid in "abcd"] == [1, 1, 0, 0]


def test_MP_PTS_1_losers_get_nothing():
    won = PodResult(1, ("a", "b", "c", "d"), "b")
    assert [match_points(won, pid) for pid in "abcd"] == [0, 7, 0, 0]


def test_MP_PTS_1_small_event_records():
    rows = by_player(multiplayer_standings(entrants("ABCDEFG"), SMALL_EVENT, rounds=2))
    assert {pid: (r.match_points, r.record) for pid, r in rows.items()} == {
        "A": (7, "1-1-0"),
        "B": (1, "0-1-1"),
        "C": (0, "0-2-0"),
        "D": (1, "0-1-1"),
        "E": (8, "1-0-1"),
        "F": (2, "0-0-2"),
        "G": (1, "0-1-1"),  # the conceded draw counts as a loss
    }


# --- MP-PTS-2: game points ----------------------------------------------------------------


def test_MP_PTS_2_game_points_per_game():
    result = PodResult(
        1,
        ("a", "b", "c", "d"),
        "a",
        games=(PodGame("a"), PodGame(None), PodGame(None, frozenset({"a", "b", "c"}))),
    )
    assert [game_points(result, pid) for pid in "abcd"] == [9, 2, 2, 1]


def test_MP_PTS_2_best_of_one_game_points_follow_the_match():
    drawn = PodResult(1, ("a", "b", "c"), None, frozenset({"c"}))
    assert [game_points(drawn, pid) for pid in "abc"] == [1, 1, 0]
    assert game_points(PodResult(1, ("a", "b", "c", "d"), "d"), "d") == 7
    assert game_points(PodResult(1, ("a",)), "a") == 7
    assert game_points(PodResult(1, ("a", "b", "c"), "b"), "b", standard=3) == 5


# --- MP-TB-1: match-win percentage --------------------------------------------------------


def test_MP_TB_1_one_win_is_mwp_1_and_win_plus_draw_is_8_points():
    results = [
        PodResult(1, ("a", "b", "c", "d"), "a"),
        PodResult(2, ("a", "b", "c", "d"), None),
    ]
    after_one = by_player(multiplayer_standings(entrants("abcd"), results, rounds=1))
    assert after_one["a"].mwp == 1
    after_two = by_player(multiplayer_standings(entrants("abcd"), results, rounds=2))
    assert (after_two["a"].match_points, after_two["a"].mwp) == (8, Fraction(8, 14))


def test_MP_TB_1_byes_are_taken_out_of_mwp():
    results = [
        PodResult(1, ("a",)),
        PodResult(2, ("a", "b", "c", "d"), "a"),
        PodResult(3, ("a", "b", "c", "d"), "b"),
    ]
    row = by_player(multiplayer_standings(entrants("abcd"), results, rounds=3))["a"]
    assert (row.match_points, row.byes, row.mwp) == (14, 1, Fraction(7, 14))


def test_MP_TB_1_small_event_values():
    rows = by_player(multiplayer_standings(entrants("ABCDEFG"), SMALL_EVENT, rounds=2))
    assert {pid: r.mwp for pid, r in rows.items()} == {
        "A": Fraction(1, 2),
        "B": Fraction(1, 14),
        "C": Fraction(0),
        "D": Fraction(1, 14),
        "E": Fraction(4, 7),
        "F": Fraction(1, 7),
        "G": Fraction(1, 14),
    }


def test_MP_TB_1_no_match_played_gives_mwp_0():
    rows = by_player(multiplayer_standings(entrants("ab"), [PodResult(1, ("a",))], rounds=1))
    assert (rows["a"].mwp, rows["b"].mwp) == (0, 0)
    assert (rows["a"].oamp, rows["a"].omwp) == (0, 0)


# --- MP-TB-2: opponents' average match points ---------------------------------------------


def test_MP_TB_2_small_event_values():
    rows = by_player(multiplayer_standings(entrants("ABCDEFG"), SMALL_EVENT, rounds=2))
    assert rows["A"].oamp == Fraction(1 + 0 + 1 + 8 + 0, 5)  # B, C, D, then E, C
    assert rows["E"].oamp == Fraction(2 + 1 + 7 + 0, 4)  # F, G, then A, C
    assert rows["G"].oamp == Fraction(8 + 2 + 1 + 2 + 1, 5)


def test_MP_TB_2_byes_do_not_count():
    results = [PodResult(1, ("a",)), PodResult(2, ("a", "b", "c", "d"), "b")]
    row = by_player(multiplayer_standings(entrants("abcd"), results, rounds=2))["a"]
    assert row.oamp == Fraction(7 + 0 + 0, 3)


def test_MP_TB_2_phantoms_count_only_when_asked_like_canivete():
    results = [PodResult(1, ("a", "b", "c"), "b")]
    plain = by_player(multiplayer_standings(entrants("abc"), results, rounds=1))["a"]
    ghosts = by_player(
        multiplayer_standings(entrants("abc"), results, rounds=1, phantom_in_oamp=True)
    )["a"]
    assert (plain.oamp, ghosts.oamp) == (Fraction(7, 2), Fraction(7, 3))


# --- MP-TB-3: opponents' match-win percentage ---------------------------------------------


def test_MP_TB_3_worked_example_floor_is_one_seventh():
    example = worked("MTG MP addendum OMWP floor")
    results = [PodResult(1, ("a", "b", "c", "d"), "a")]
    row = by_player(multiplayer_standings(entrants("abcd"), results, rounds=1))["a"]
    assert row.omwp == Fraction(1, 7)  # three opponents at MWP 0, each raised to 1/7
    assert float(row.omwp) == example["computed"]


def test_MP_TB_3_small_event_values_with_phantoms():
    rows = by_player(multiplayer_standings(entrants("ABCDEFG"), SMALL_EVENT, rounds=2))
    floor = Fraction(1, 7)
    # A: B, C, D, E, C and one phantom (round 2 was a 3-pod).
    assert rows["A"].omwp == (4 * floor + Fraction(4, 7) + floor) / 6 == Fraction(3, 14)
    # E: F, G, A, C and two phantoms (two 3-pods).
    assert rows["E"].omwp == (3 * floor + Fraction(1, 2) + 2 * floor) / 6 == Fraction(17, 84)


def test_MP_TB_3_floor_is_one_over_points_per_win_for_pods_of_three():
    results = [PodResult(1, ("a", "b", "c"), "a")]
    row = by_player(multiplayer_standings(entrants("abc"), results, rounds=1, standard=3))["a"]
    assert row.omwp == Fraction(1, 5)


# --- MP-TB: order -------------------------------------------------------------------------


def test_MP_TB_small_event_order():
    rows = multiplayer_standings(entrants("ABCDEFG"), SMALL_EVENT, rounds=2, seed=4)
    order = [row.player for row in rows]
    assert order[:4] == ["E", "A", "F", "G"]  # G above B and D on OAMP (14/5 > 2)
    assert set(order[4:6]) == {"B", "D"} and order[6] == "C"
    assert [row.place for row in rows] == list(range(1, 8))


def test_MP_TB_mwp_breaks_a_tie_on_match_points():
    # p won twice and dropped; q won twice and lost once: 14 points each.
    results = [
        PodResult(1, ("p", "x1", "x2", "x3"), "p"),
        PodResult(1, ("q", "y1", "y2", "y3"), "q"),
        PodResult(2, ("p", "x4", "x5", "x6"), "p"),
        PodResult(2, ("q", "y4", "y5", "y6"), "q"),
        PodResult(3, ("q", "x1", "x2", "x3"), "x1"),
    ]
    people = ["p", "q"] + [f"{c}{k}" for c in "xy" for k in range(1, 7)]
    rows = multiplayer_standings(entrants(people), results, rounds=3)
    assert [(r.player, r.mwp) for r in rows[:2]] == [("p", 1), ("q", Fraction(2, 3))]


def test_MP_TB_3_omwp_with_a_phantom_breaks_a_tie_on_oamp():
    # Round 1: A..E each win a pod. Round 2: X draws with A, B, C; Y with D, E in a pod
    # of 3. X and Y: 1 point, MWP 1/7, OAMP 8; the phantom gives Y the lower OMWP.
    results = [PodResult(1, (w, f"{w}1", f"{w}2", f"{w}3"), w) for w in "ABCDE"] + [
        PodResult(2, ("X", "A", "B", "C"), None),
        PodResult(2, ("Y", "D", "E"), None),
    ]
    people = list("XYABCDE") + [f"{w}{k}" for w in "ABCDE" for k in range(1, 4)]
    rows = by_player(multiplayer_standings(entrants(people), results, rounds=2))
    x, y = rows["X"], rows["Y"]
    assert (
        (x.match_points, x.mwp, x.oamp) == (y.match_points, y.mwp, y.oamp) == (1, Fraction(1, 7), 8)
    )
    assert (x.omwp, y.omwp) == (Fraction(4, 7), Fraction(3, 7))
    assert x.place == y.place - 1


def test_MP_TB_exact_ties_are_ordered_at_random_from_the_seed():
    results = [PodResult(1, ("a", "b", "c", "d"), None)]
    orders = {
        tuple(r.player for r in multiplayer_standings(entrants("abcd"), results, rounds=1, seed=s))
        for s in range(20)
    }
    assert len(orders) > 1
    first = multiplayer_standings(entrants("abcd"), results, rounds=1, seed=3)
    again = multiplayer_standings(entrants("dcba"), results, rounds=1, seed=3)
    assert first == again


def test_MP_TB_disqualified_players_are_listed_last_without_a_place():
    results = [PodResult(1, ("a", "b", "c", "d"), "a")]
    people = [Entrant("a", disqualified=True), Entrant("b"), Entrant("c"), Entrant("d")]
    rows = multiplayer_standings(people, results, rounds=1)
    assert (rows[-1].player, rows[-1].place) == ("a", None)
    assert by_player(rows)["b"].oamp == Fraction(7, 3)  # a's points still count


def test_MP_TB_only_rounds_up_to_the_requested_one_count():
    results = [PodResult(1, ("a", "b", "c"), "a"), PodResult(2, ("a", "b", "c"), "b")]
    people = [Entrant("a"), Entrant("b", dropped_after_round=1), Entrant("c")]
    rows = by_player(multiplayer_standings(people, results, rounds=1))
    assert (rows["a"].match_points, rows["b"].match_points, rows["b"].dropped) == (7, 0, True)


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (PodResult(1, ("a", "zz", "c")), "not an entrant"),
        (PodResult(1, ("a", "b", "c"), "d"), "did not play"),
        (PodResult(1, ("a", "b", "c"), None, frozenset({"d"})), "not a loser"),
        (PodResult(1, ("a", "b", "c"), "a", frozenset({"a"})), "not a loser"),
        (PodResult(1, ("a", "b", "c"), "a", games=(PodGame("d"),)), "did not begin"),
        (
            PodResult(1, ("a", "b", "c"), "a", games=(PodGame("a", frozenset("bc")),)),
            "did not begin",
        ),
    ],
)
def test_MP_PTS_1_inconsistent_results_are_rejected(result, message):
    with pytest.raises(StandingsError, match=message):
        multiplayer_standings(entrants("abcd"), [result], rounds=1)


def test_MP_PTS_1_a_player_seated_twice_in_a_round_is_rejected():
    results = [PodResult(1, ("a", "b", "c"), "a"), PodResult(1, ("a", "d", "e"), "d")]
    with pytest.raises(StandingsError, match="seated twice"):
        multiplayer_standings(entrants("abcde"), results, rounds=1)


# --- properties ---------------------------------------------------------------------------


@st.composite
def events(draw: st.DrawFn) -> tuple[list[str], list[PodResult]]:
    """Random pod events: 3-13 players, 1-4 rounds, random pod sizes 3-4, wins, draws
    with exclusions, byes."""
    ids = [f"p{k:02d}" for k in range(draw(st.integers(3, 13)))]
    results: list[PodResult] = []
    for number in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(ids))
        k = 0
        while k < len(order):
            size = min(draw(st.sampled_from([1, 3, 4, 4])), len(order) - k)
            pod = tuple(order[k : k + size])
            k += size
            winner = draw(st.sampled_from([None, *pod]))
            excluded = (
                frozenset(draw(st.sets(st.sampled_from(pod)))) if winner is None else frozenset()
            )
            results.append(PodResult(number, pod, winner, excluded))
    return ids, results


def reference(
    ids: list[str], results: list[PodResult]
) -> dict[str, tuple[int, Fraction, Fraction, Fraction]]:
    """Straight from docs/rules.md MP-TB-1..3, standard 4, ppw 7."""
    pts = dict.fromkeys(ids, 0)
    byes = dict.fromkeys(ids, 0)
    played = dict.fromkeys(ids, 0)
    opps: dict[str, list[str]] = {pid: [] for pid in ids}
    phantoms = dict.fromkeys(ids, 0)
    for r in results:
        for pid in r.players:
            if len(r.players) == 1:
                pts[pid] += 7
                byes[pid] += 1
                continue
            pts[pid] += (
                7 if r.winner == pid else int(r.winner is None and pid not in r.draw_excluded)
            )
            played[pid] += 1
            opps[pid] += [o for o in r.players if o != pid]
            phantoms[pid] += 4 - len(r.players)
    mwp = {
        p: Fraction(pts[p] - 7 * byes[p], 7 * played[p]) if played[p] else Fraction(0) for p in ids
    }
    out = {}
    for p in ids:
        oamp = Fraction(sum(pts[o] for o in opps[p]), len(opps[p])) if opps[p] else Fraction(0)
        terms = [max(mwp[o], Fraction(1, 7)) for o in opps[p]] + [Fraction(1, 7)] * phantoms[p]
        omwp = sum(terms, Fraction(0)) / len(terms) if terms else Fraction(0)
        out[p] = (pts[p], mwp[p], oamp, omwp)
    return out


@settings(max_examples=150, deadline=None)
@given(events(), st.integers(0, 1000))
def test_MP_TB_order_and_values_match_the_definitions(event, seed):
    ids, results = event
    rounds = max(r.round for r in results)
    rows = multiplayer_standings(entrants(ids), results, rounds=rounds, seed=seed)
    expected = reference(ids, results)
    assert {r.player: (r.match_points, r.mwp, r.oamp, r.omwp) for r in rows} == expected
    keys = [(r.match_points, r.mwp, r.oamp, r.omwp) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert [r.place for r in rows] == list(range(1, len(ids) + 1))
    assert all(0 <= r.mwp <= 1 and 0 <= r.omwp <= 1 for r in rows)


def test_MP_TB_standings_are_reproducible_with_random_results():
    rng = random.Random(7)
    ids = [f"p{k}" for k in range(12)]
    results = []
    for number in (1, 2, 3):
        order = rng.sample(ids, len(ids))
        for k in range(0, 12, 4):
            pod = tuple(order[k : k + 4])
            results.append(PodResult(number, pod, rng.choice([None, *pod])))
    first = multiplayer_standings(entrants(ids), results, rounds=3, seed=9)
    assert first == multiplayer_standings(entrants(ids[::-1]), results[::-1], rounds=3, seed=9)


def test_P_LATE_1_a_late_entry_loss_is_a_round_played_with_no_points():
    late = PodResult(round=1, players=("L",), late_loss=True)
    assert not late.is_bye
    assert match_points(late, "L") == 0 and game_points(late, "L") == 0
    results = [late, PodResult(round=2, players=("L", "a", "b", "c"), winner="L")]
    rows = {r.player: r for r in multiplayer_standings(entrants("Labc"), results, rounds=2)}
    line = rows["L"]
    assert (line.match_points, line.wins, line.losses, line.byes) == (7, 1, 1, 0)
    assert line.mwp == Fraction(7, 14)  # the late loss counts as a match played (I-5)
    assert line.omwp == Fraction(1, 7)  # no opponent and no phantom from the late loss
