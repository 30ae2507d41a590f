"""The engines' fast paths build the same values as the plain ones."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from pairings.engine._swiss_model import build_problem
from pairings.engine._swiss_solve import solve
from pairings.engine.swiss import describe, explain_record, pair_swiss
from pairings.engine.types import PAIRING_SLOTS, Pairing, SwissPlayer
from standings.engine._history import build_history
from standings.engine.types import Entrant, MatchRecord, Outcome, StandingRow, new_row


def test_new_row_builds_an_equal_frozen_standing_row():
    values = (3, "p1", 7, 2, 1, 1, Fraction(5, 8), Fraction(1, 2), Fraction(9, 16), True, False)
    row = new_row(*values)
    assert row == StandingRow(*values)
    assert row.record == "2-1-1"
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.place = 1  # type: ignore[misc]


def test_pairing_slots_build_an_equal_frozen_pairing():
    table = object.__new__(Pairing)
    for set_field, value in zip(
        PAIRING_SLOTS, (4, ("a", "b"), "same record", False, True), strict=True
    ):
        set_field(table, value)
    assert table == Pairing(4, ("a", "b"), "same record", False, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.why = "x"  # type: ignore[misc]


def test_history_log_entries_read_back_by_round():
    """Rounds given out of order; a bye, a late-entry loss, a tie and a double loss."""
    entrants = [Entrant(p) for p in ("a", "b", "c", "d")]
    matches = [
        MatchRecord(3, ("a", "c"), Outcome.DRAW),
        MatchRecord(1, ("a", "b"), Outcome.WIN, "b"),
        MatchRecord(1, ("d",), Outcome.LATE_LOSS),
        MatchRecord(2, ("a",), Outcome.BYE),
        MatchRecord(2, ("b", "c"), Outcome.DOUBLE_LOSS),
        MatchRecord(4, ("a", "b"), Outcome.WIN, "a"),
        MatchRecord(5, ("a", "d"), Outcome.WIN, "a"),  # beyond the rounds counted
    ]
    h = build_history(entrants, matches, 4)
    a, b, c, d = range(4)
    assert (h.points, h.wins, h.losses, h.ties) == (
        [7, 3, 1, 0],
        [2, 1, 0, 0],
        [1, 2, 1, 1],
        [1, 0, 1, 0],
    )
    assert (h.score2, h.counted) == ([3, 2, 1, 0], [3, 3, 2, 1])
    assert h.opps == [[c, b, b], [a, c, a], [a, b], []]
    assert [h.record_as_of(a, r) for r in range(5)] == [(0, 0), (0, 1), (0, 1), (1, 2), (3, 3)]
    assert h.record_as_of(d, 1) == (0, 1)
    assert h.opponents_as_of(a, 2) == [b]
    assert h.opponents_as_of(a, 3) == [c, b]
    assert [h.last_opponent(i) for i in range(4)] == [b, a, a, -1]
    assert (h.wins_against(a, b), h.wins_against(b, a), h.wins_against(a, c)) == (1, 1, 0)


@pytest.mark.parametrize("seed", range(6))
def test_the_round_equals_describing_the_solved_pairs(seed):
    """pair_swiss's flat fast path gives the tables ``describe`` gives for ``solve``."""
    rng = random.Random(seed)
    ids = [f"p{i:02d}" for i in range(41)]
    met = {p: set() for p in ids}
    for _ in range(60):
        x, y = rng.sample(ids, 2)
        met[x].add(y)
        met[y].add(x)
    players = [
        SwissPlayer(p, rng.choice([0, 3, 3, 6, 9]), frozenset(met[p]), rng.random() < 0.2)
        for p in ids
    ]
    played = pair_swiss(players, rng=random.Random(seed))
    problem = build_problem(players, random.Random(seed))
    pairs, _ = solve(problem, random.Random(seed))
    assert played.pairings == describe(problem, pairs, explain_record)
