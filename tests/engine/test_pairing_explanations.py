"""Pairing explanations: "rematch avoided" (P-SW-4) and the round notes (P-SW-5, P-SW-7).

Definition (``pairings.engine.swiss`` docstring): a table is marked when one of its
players has a previous opponent in this round with that player's own match points.
"""

from __future__ import annotations

import random

from pairings.engine.swiss import pair_swiss
from pairings.engine.types import SwissPlayer


def player(pid: str, points: int = 0, met: str = "", bye: bool = False) -> SwissPlayer:
    return SwissPlayer(pid, points, frozenset(met), bye)


def whys(players: list[SwissPlayer], seed: int = 0) -> dict[frozenset[str], str]:
    result = pair_swiss(players, rng=random.Random(seed))
    return {frozenset(p.players): p.why for p in result.pairings}


def test_P_SW_4_same_bracket_rematch_skipped_marks_both_tables():
    # A and B (3 points) met in round 1; C and D also have 3; E and F have 0 and never met.
    players = [player("A", 3, "B"), player("B", 3, "A"), player("C", 3), player("D", 3)]
    players += [player("E", 0), player("F", 0)]
    for seed in range(20):
        got = whys(players, seed)
        top = {k: v for k, v in got.items() if k & {"A", "B"}}
        assert sorted(top.values()) == ["same record; rematch avoided"] * 2
        assert got[frozenset("EF")] == "same record"


def test_P_SW_4_pair_down_to_avoid_a_rematch_is_marked():
    # A and B (6) met: one meets C (3), the other D; the pair-downs avoid the rematch.
    players = [player("A", 6, "B"), player("B", 6, "A"), player("C", 3), player("D", 3)]
    got = whys(players)
    assert sorted(got.values()) == ["paired down from 6 points; rematch avoided"] * 2


def test_P_SW_4_opponent_in_another_bracket_is_not_marked():
    # A met C, but C is in another bracket: nothing was skipped.
    players = [player("A", 3, "C"), player("B", 3), player("C", 0, "A"), player("D", 0)]
    got = whys(players)
    assert got == {frozenset("AB"): "same record", frozenset("CD"): "same record"}


def test_P_SW_4_round_one_and_unavoidable_rematch_are_never_marked():
    assert set(whys([player(x) for x in "ABCD"]).values()) == {"same record"}
    result = pair_swiss([player("A", 3, "B"), player("B", 0, "A")], rng=random.Random(1))
    assert [p.why for p in result.pairings] == ["rematch: no alternative"]
    assert result.notes == ("No pairing without a rematch exists: 1 rematch, flagged.",)
