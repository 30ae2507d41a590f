"""Pokémon Swiss standings and tiebreakers (P-TB-1…P-TB-7, R-1, R-2, R-6, I-5, I-6).

Hand-checked cases use small builders; the property tests compare the fast integer engine
with a plain Fraction reference written straight from the rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standings.engine.errors import StandingsError
from standings.engine.ranking import pokemon_standings
from standings.engine.tiebreakers import pokemon_tiebreakers, win_percentage
from standings.engine.types import Entrant, MatchRecord, Outcome, StandingRow


def win(r: int, winner: str, loser: str) -> MatchRecord:
    return MatchRecord(r, (winner, loser), Outcome.WIN, winner)


def tie(r: int, a: str, b: str) -> MatchRecord:
    return MatchRecord(r, (a, b), Outcome.DRAW)


def bye(r: int, a: str) -> MatchRecord:
    return MatchRecord(r, (a,), Outcome.BYE, a)


def late_loss(r: int, a: str) -> MatchRecord:
    return MatchRecord(r, (a,), Outcome.LATE_LOSS)


def entrants(ids: str, *, late: str = "", dropped: dict[str, int] | None = None) -> list[Entrant]:
    drops = dropped or {}
    return [
        Entrant(p, late=p in late.split(), dropped_after_round=drops.get(p)) for p in ids.split()
    ]


def table(rows: Sequence[StandingRow]) -> dict[str, StandingRow]:
    return {row.player: row for row in rows}


def order(rows: Sequence[StandingRow]) -> list[str]:
    return [row.player for row in rows]


# --- own win % (P-TB-2, R-1, P-TB-5, I-5) --------------------------------------------


@pytest.mark.parametrize(
    ("wins", "ties", "counted", "dropped", "expected"),
    [
        (3, 0, 5, False, F(3, 5)),  # P-TB-2: 3 wins of 5 -> 60 %
        (0, 0, 5, False, F(1, 4)),  # P-TB-2: 0 of 5 -> floor 25 %
        (0, 0, 1, True, F(1, 4)),  # lost R1 then dropped -> 25 %
        (1, 0, 1, True, F(3, 4)),  # won R1 then dropped -> capped 75 %
        (3, 1, 5, False, F(7, 10)),  # 3-1-1 counts 70 %
        (1, 0, 2, False, F(1, 2)),  # 2-1 with a bye among the wins counts 1-1
        (5, 0, 5, False, F(1)),  # no cap for a player who completed the event
        (0, 0, 0, False, F(1, 4)),  # nothing counted yet: the floor
    ],
)
def test_P_TB_2_R_1_win_percentage_worked_examples(
    wins: int, ties: int, counted: int, dropped: bool, expected: F
) -> None:
    assert win_percentage(wins, ties, counted, dropped=dropped) == expected


def test_P_TB_2_win_percentage_rejects_impossible_record() -> None:
    with pytest.raises(ValueError, match="impossible record"):
        win_percentage(3, 1, 3)


def test_P_TB_2_three_wins_of_five_is_60_and_none_is_25() -> None:
    matches = [win(1, "P", "A"), win(2, "P", "B"), win(3, "P", "C")]
    matches += [win(4, "D", "P"), win(5, "E", "P")]
    matches += [win(r, o, "Z") for r, o in enumerate("ABCDE", start=1)]
    rows = table(pokemon_standings(entrants("P A B C D E Z"), matches, rounds=5))
    assert rows["P"].win_pct == F(3, 5)
    assert rows["Z"].win_pct == F(1, 4)
    assert rows["P"].record == "3-2-0"


def test_P_TB_2_dropped_player_lost_r1_counts_25() -> None:
    matches = [win(1, "Q", "P"), win(2, "Q", "S")]
    rows = table(pokemon_standings(entrants("P Q S", dropped={"P": 1}), matches, rounds=2))
    assert rows["P"].win_pct == F(1, 4)
    assert rows["P"].dropped is True
    assert rows["Q"].owp == (F(1, 4) + F(1, 4)) / 2


def test_P_TB_2_dropped_player_capped_at_75() -> None:
    matches = [win(1, "P", "Q"), win(2, "Q", "S"), win(3, "Q", "T")]
    rows = table(pokemon_standings(entrants("P Q S T", dropped={"P": 1}), matches, rounds=3))
    assert rows["P"].win_pct == F(3, 4)
    # Q's only opponents: P (capped 3/4), S and T (0 of 1 -> 1/4 each).
    assert rows["Q"].owp == (F(3, 4) + F(1, 4) + F(1, 4)) / 3


def test_R_1_tie_counts_half_a_3_1_1_opponent_counts_70() -> None:
    """Z (late: four late-entry losses) meets only Y, who finishes 3-1-1."""
    matches = [win(1, "Y", "A"), win(2, "Y", "B"), win(3, "Y", "C"), win(4, "D", "Y")]
    matches += [tie(5, "Y", "Z")] + [late_loss(r, "Z") for r in range(1, 5)]
    rows = table(pokemon_standings(entrants("Y A B C D Z", late="Z"), matches, rounds=5))
    assert rows["Y"].win_pct == F(7, 10)
    assert rows["Y"].record == "3-1-1"
    assert rows["Z"].owp == F(7, 10)
    assert rows["Z"].win_pct == F(1, 4)  # (0 + 1/2) / 5 = 1/10, floored


def test_R_1_P_TB_5_bye_win_is_excluded_a_2_1_opponent_counts_50() -> None:
    """Y: bye, loss to B, win over Z -> 2-1 in the record, 1-1 = 50 % for Z's OWP."""
    matches = [bye(1, "Y"), win(2, "B", "Y"), win(3, "Y", "Z")]
    matches += [late_loss(1, "Z"), late_loss(2, "Z")]
    rows = table(pokemon_standings(entrants("Y B Z", late="Z"), matches, rounds=3))
    assert rows["Y"].record == "2-1-0"
    assert rows["Y"].match_points == 6
    assert rows["Y"].win_pct == F(1, 2)
    assert rows["Z"].owp == F(1, 2)


def test_P_TB_5_bye_is_not_an_opponent() -> None:
    matches = [bye(1, "A"), win(2, "A", "B")]
    rows = table(pokemon_standings(entrants("A B"), matches, rounds=2))
    assert rows["A"].owp == F(1, 4)  # only B, 0 of 1 -> floor; the bye adds nothing
    assert rows["A"].win_pct == F(1)


def test_I_5_late_entry_losses_are_real_rounds_and_P_TB_1_late_ranks_below() -> None:
    """L (late) and O tie on 3 points; L has the better OWP but ranks below O."""
    matches = [win(1, "A", "O"), win(1, "B", "C"), late_loss(1, "L")]
    matches += [win(2, "L", "A"), win(2, "O", "C"), bye(2, "B")]
    rows = pokemon_standings(entrants("A B C O L", late="L"), matches, rounds=2)
    by_id = table(rows)
    assert by_id["L"].win_pct == F(1, 2)
    assert by_id["L"].owp == F(1, 2) > by_id["O"].owp == F(3, 8)
    assert order(rows) == ["B", "A", "O", "L", "C"]
    assert by_id["L"].late is True


# --- OOWP and frozen dropped players (P-TB-3, R-2) -----------------------------------


def _r2_case() -> tuple[list[Entrant], list[MatchRecord]]:
    """P beats Q in round 1 and drops; Q then wins twice."""
    matches = [win(1, "P", "Q"), win(1, "S", "T"), win(2, "Q", "S"), bye(2, "T")]
    matches += [win(3, "Q", "T"), bye(3, "S")]
    return entrants("P Q S T", dropped={"P": 1}), matches


def test_P_TB_3_R_2_dropped_player_frozen_as_of_drop_round() -> None:
    rows = table(pokemon_standings(*_r2_case(), rounds=3))
    p = rows["P"]
    assert (p.win_pct, p.owp, p.oowp) == (F(3, 4), F(1, 4), F(3, 4))
    # Not frozen, P's OWP would be Q's final 2/3 and its OOWP Q's final OWP 1/2.


def test_P_TB_3_R_2_others_oowp_uses_the_frozen_owp() -> None:
    rows = table(pokemon_standings(*_r2_case(), rounds=3))
    assert rows["Q"].win_pct == F(2, 3)
    assert (rows["Q"].owp, rows["S"].owp, rows["T"].owp) == (F(1, 2), F(11, 24), F(7, 12))
    # Q's OOWP averages P's frozen OWP 1/4 (41/72 with P's unfrozen 2/3).
    assert rows["Q"].oowp == (F(1, 4) + F(11, 24) + F(7, 12)) / 3 == F(31, 72)
    assert (rows["S"].oowp, rows["T"].oowp) == (F(13, 24), F(23, 48))


def test_P_TB_7_dropped_player_stays_ranked_by_the_same_rules() -> None:
    rows = pokemon_standings(*_r2_case(), rounds=3)
    assert [(r.place, r.player, r.match_points) for r in rows] == [
        (1, "Q", 6),
        (2, "S", 6),
        (3, "T", 3),
        (4, "P", 3),
    ]
    assert [r.dropped for r in rows] == [False, False, False, True]


def test_rounds_argument_gives_the_standings_after_that_round() -> None:
    rows = pokemon_standings(*_r2_case(), rounds=1)
    assert order(rows) == ["S", "P", "T", "Q"]
    by_id = table(rows)
    assert (by_id["P"].owp, by_id["P"].oowp) == (F(1, 4), F(3, 4))
    assert (by_id["S"].owp, by_id["S"].oowp) == (F(1, 4), F(1))


def test_pending_matches_are_ignored() -> None:
    people, matches = _r2_case()
    pending = MatchRecord(3, ("P", "T"), Outcome.PENDING)
    assert pokemon_standings(people, [*matches, pending], rounds=3) == pokemon_standings(
        people, matches, rounds=3
    )


def test_R_6_double_loss_is_a_loss_for_both_and_a_counted_round() -> None:
    matches = [MatchRecord(1, ("A", "B"), Outcome.DOUBLE_LOSS), win(2, "A", "C")]
    rows = table(pokemon_standings(entrants("A B C"), matches, rounds=2))
    assert (rows["A"].match_points, rows["A"].record) == (3, "1-1-0")
    assert (rows["B"].match_points, rows["B"].record) == (0, "0-1-0")
    assert rows["A"].win_pct == F(1, 2)
    assert rows["B"].owp == F(1, 2)  # the double loss still makes A and B opponents


# --- head to head, last opponent, random (P-TB-4, P-TB-6, I-6) -----------------------


def _cycle_case() -> list[MatchRecord]:
    """Round robin of four: A and C finish 2-1 and B and D 1-2 with equal OWP and OOWP."""
    return [
        win(1, "A", "B"),
        win(1, "C", "D"),
        win(2, "A", "C"),
        win(2, "B", "D"),
        win(3, "D", "A"),
        win(3, "C", "B"),
    ]


def test_P_TB_4_head_to_head_breaks_an_exact_tie_of_two() -> None:
    rows = pokemon_standings(entrants("C A D B"), _cycle_case(), rounds=3)
    by_id = table(rows)
    assert (by_id["A"].owp, by_id["A"].oowp) == (by_id["C"].owp, by_id["C"].oowp)
    assert (by_id["B"].owp, by_id["B"].oowp) == (by_id["D"].owp, by_id["D"].oowp)
    assert order(rows) == ["A", "C", "B", "D"]


def test_P_TB_6_standing_of_last_opponent() -> None:
    """A and C: 1-1 against the same two opponents, in the opposite order, never met."""
    matches = [win(1, "A", "X"), win(1, "Y", "C"), win(2, "Y", "A"), win(2, "C", "X")]
    rows = pokemon_standings(entrants("C A X Y"), matches, rounds=2)
    by_id = table(rows)
    assert (by_id["A"].owp, by_id["A"].oowp) == (by_id["C"].owp, by_id["C"].oowp)
    # A's last opponent Y is 1st, C's last opponent X is 4th.
    assert order(rows) == ["Y", "A", "C", "X"]


def test_I_6_exact_tie_is_random_from_the_seed_and_reproducible() -> None:
    """Two separate 1-0 players whose last opponents are tied too."""
    matches = [win(1, "A", "B"), win(1, "C", "D")]
    people = entrants("A B C D")
    orders = {tuple(order(pokemon_standings(people, matches, rounds=1, seed=s))) for s in range(16)}
    assert orders == {
        ("A", "C", "B", "D"),
        ("A", "C", "D", "B"),
        ("C", "A", "B", "D"),
        ("C", "A", "D", "B"),
    }
    first = pokemon_standings(people, matches, rounds=1, seed=7)
    assert pokemon_standings(list(reversed(people)), matches[::-1], rounds=1, seed=7) == first


def test_disqualified_entrant_has_no_place_but_counts_for_opponents() -> None:
    people = [Entrant("A"), Entrant("B", disqualified=True), Entrant("C")]
    matches = [win(1, "B", "A"), win(2, "B", "C"), win(3, "A", "C")]
    rows = pokemon_standings(people, matches, rounds=3)
    assert [(r.place, r.player) for r in rows] == [(1, "A"), (2, "C"), (None, "B")]
    assert table(rows)["A"].owp == (F(1) + F(1, 4)) / 2


@pytest.mark.parametrize(
    ("matches", "message"),
    [
        ([win(1, "A", "Nobody")], "'Nobody' is not an entrant"),
        ([MatchRecord(1, ("A", "B"), Outcome.WIN, "C")], "winner 'C' did not play"),
        ([MatchRecord(1, ("A",), Outcome.DRAW)], "needs two players"),
        ([MatchRecord(1, ("A", "B"), Outcome.BYE, "A")], "exactly one player"),
    ],
)
def test_inconsistent_records_raise_standings_error(
    matches: list[MatchRecord], message: str
) -> None:
    with pytest.raises(StandingsError, match=message):
        pokemon_standings(entrants("A B C"), matches, rounds=1)


def test_duplicate_entrant_ids_raise() -> None:
    with pytest.raises(StandingsError, match="same id"):
        pokemon_standings([Entrant("A"), Entrant("A")], [], rounds=1)


# --- properties against a plain reference ---------------------------------------------


KINDS = [Outcome.WIN, Outcome.DRAW, Outcome.DOUBLE_LOSS, Outcome.PENDING]


def _random_event(rng: random.Random) -> tuple[list[Entrant], list[MatchRecord], int]:
    n, rounds = rng.randint(2, 11), rng.randint(1, 5)
    ids = [f"p{k}" for k in range(n)]
    late = {p: rng.randint(2, rounds) for p in ids if rounds > 1 and rng.random() < 0.15}
    drops = {p: rng.randint(1, rounds) for p in ids if rng.random() < 0.25}
    matches: list[MatchRecord] = []
    for r in range(1, rounds + 1):
        active = [p for p in ids if drops.get(p, rounds) >= r]  # dropped after r-1: gone
        matches += [late_loss(r, p) for p in active if late.get(p, 0) > r]
        active = [p for p in active if late.get(p, 0) <= r]
        rng.shuffle(active)
        if len(active) % 2:
            matches.append(bye(r, active.pop()))
        for a, b in zip(active[::2], active[1::2], strict=True):
            kind = rng.choices(KINDS, [70, 20, 5, 5])[0]
            matches.append(MatchRecord(r, (a, b), kind, a if kind is Outcome.WIN else None))
    people = [Entrant(p, late=p in late, dropped_after_round=drops.get(p)) for p in ids]
    return people, matches, rounds


def _reference(
    people: list[Entrant], matches: list[MatchRecord], rounds: int
) -> dict[str, tuple[F, F, F]]:
    """Straight from the rules, recursive and slow: (win %, OWP, OOWP) per player."""
    drop = {e.id: e.dropped_after_round for e in people}
    done = [m for m in matches if m.outcome != Outcome.PENDING and m.round <= rounds]

    def wp(p: str, r: int) -> F:
        mine = [m for m in done if p in m.players and m.round <= r and m.outcome != Outcome.BYE]
        wins = sum(1 for m in mine if m.outcome == Outcome.WIN and m.winner == p)
        ties = sum(1 for m in mine if m.outcome == Outcome.DRAW)
        d = drop[p]
        return win_percentage(wins, ties, len(mine), dropped=d is not None and d <= r)

    def opps(p: str, r: int) -> list[str]:
        return [q for m in done if p in m.players and m.round <= r for q in m.players if q != p]

    def frozen(p: str, r: int) -> int:
        d = drop[p]
        return min(r, d) if d is not None else r

    def owp(p: str, r: int) -> F:
        r = frozen(p, r)
        o = opps(p, r)
        return sum((wp(q, r) for q in o), F(0)) / len(o) if o else F(0)

    def oowp(p: str, r: int) -> F:
        r = frozen(p, r)
        o = opps(p, r)
        return sum((owp(q, r) for q in o), F(0)) / len(o) if o else F(0)

    return {e.id: (wp(e.id, rounds), owp(e.id, rounds), oowp(e.id, rounds)) for e in people}


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_R_2_fast_engine_matches_the_plain_reference(seed: int) -> None:
    people, matches, rounds = _random_event(random.Random(seed))
    got = pokemon_tiebreakers(people, matches, rounds=rounds)
    want = _reference(people, matches, rounds)
    assert {p: (t.win_pct, t.owp, t.oowp) for p, t in got.items()} == want


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=99))
def test_standings_are_a_total_order_independent_of_input_order(seed: int, tb_seed: int) -> None:
    rng = random.Random(seed)
    people, matches, rounds = _random_event(rng)
    rows = pokemon_standings(people, matches, rounds=rounds, seed=tb_seed)
    assert [r.place for r in rows] == list(range(1, len(people) + 1))
    keys = [(-r.match_points, r.late, -r.owp, -r.oowp) for r in rows]
    assert keys == sorted(keys)
    assert all(F(1, 4) <= r.win_pct <= (F(3, 4) if r.dropped else 1) for r in rows)
    assert all(r.match_points == 3 * r.wins + r.ties for r in rows)
    rng.shuffle(people)
    rng.shuffle(matches)
    assert pokemon_standings(people, matches, rounds=rounds, seed=tb_seed) == rows
