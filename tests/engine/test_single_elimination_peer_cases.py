"""Single-elimination brackets against other projects' expected layouts (P-SE-1, P-SE-2),
and a worked standalone bracket placed by P-SE-5 and I-2. No database.

``peer_cases.json`` (tournament_pairings_single_elimination) gives, for 8, 11 and 15
players, the byes, the round-1 matches and the slots of round 2 (and 3), seeds 1-based,
``W(x/y)`` = winner of the round-1 match x v y, ``W(x..)`` = winner of the match x plays in.
"""

from __future__ import annotations

import json
import random

import pytest

from pairings.engine.elimination import (
    next_elimination_round,
    random_seeding,
    single_elimination_first_round,
    slot_winners,
)
from pairings.engine.types import Pairing
from standings.engine.placement import single_elimination_places
from standings.engine.types import MatchRecord, Outcome
from tests.paths import DATA

PEER = DATA / "peer_cases.json"
CASES = json.loads(PEER.read_text(encoding="utf-8"))["tournament_pairings_single_elimination"][
    "cases"
]

Slot = int | str  # a seed, or a "W(...)" label for the winner of a match


def seeded(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


def seed(pid: str) -> int:
    return int(pid[1:])


def label(slot: tuple[Slot, ...]) -> Slot:
    """Who comes out of a slot, in the peer notation."""
    if len(slot) == 1:
        return slot[0]
    a, b = slot
    if isinstance(a, int) and isinstance(b, int):
        return f"W({a}/{b})"
    first = a if isinstance(a, int) else b
    return f"W({first}..)"


def round_1_slots(first: tuple[Pairing, ...]) -> list[tuple[Slot, ...]]:
    return [tuple(seed(x) for x in p.players) for p in first]


def next_slots(slots: list[tuple[Slot, ...]]) -> list[tuple[Slot, ...]]:
    """Bracket structure of the next round: winners of slots 2i and 2i + 1 meet."""
    outcomes = [label(s) for s in slots]
    return list(zip(outcomes[::2], outcomes[1::2], strict=True))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['players']}-players")
def test_P_SE_2_byes_and_round_1_match_the_peer_cases(case):
    first = single_elimination_first_round(seeded(case["players"]))
    byes = [seed(p.players[0]) for p in first if p.is_bye]
    assert sorted(byes) == case.get("byes", [])
    assert [list(map(seed, p.players)) for p in first if not p.is_bye] == case["round1"]
    assert [p.table for p in first if not p.is_bye] == list(range(1, len(case["round1"]) + 1))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['players']}-players")
def test_P_SE_2_later_round_slots_match_the_peer_cases(case):
    slots = round_1_slots(single_elimination_first_round(seeded(case["players"])))
    for number in (2, 3):
        slots = next_slots(slots)
        if f"round{number}" in case:
            assert [list(s) for s in slots] == case[f"round{number}"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['players']}-players")
def test_P_SE_2_next_elimination_round_follows_the_same_slots(case):
    ids = seeded(case["players"])
    first = single_elimination_first_round(ids)
    winners = {p.table: min(p.players, key=seed) for p in first if p.table}
    second = next_elimination_round(slot_winners(first, winners), {p: seed(p) for p in ids})
    # The better seed wins every round-1 match: "W(x/y)" is then seed min(x, y).
    expected = [sorted(_winner(x) for x in pair) for pair in case["round2"]]
    assert [[seed(x) for x in p.players] for p in second] == expected
    assert [p.table for p in second] == list(range(1, len(expected) + 1))


def _winner(slot: Slot) -> int:
    if isinstance(slot, int):
        return slot
    return min(int(x) for x in slot[2:-1].split("/"))


def test_P_SE_1_random_seeds_then_the_top_random_seeds_get_the_byes():
    ids = [f"p{i:02d}" for i in range(11)]
    byes_seen: set[str] = set()
    for s in range(30):
        order = random_seeding(ids, rng=random.Random(s))
        first = single_elimination_first_round(order)
        byes = {p.players[0] for p in first if p.is_bye}
        assert byes == set(order[:5])  # 16 - 11 = 5 byes, to seeds 1-5 of the random order
        byes_seen |= byes
    assert byes_seen == set(ids)  # every player can draw a bye


# --- P-SE-5, I-2: a worked 11-player bracket ---------------------------------------------------


def test_P_SE_5_I_2_eleven_player_bracket_placement():
    ids = seeded(11)
    seed_of = {p: seed(p) for p in ids}
    results = {  # round → winners of its tables, in table order
        1: ["s9", "s7", "s11"],  # s8–s9, s7–s10, s6–s11: two upsets
        2: ["s1", "s5", "s2", "s11"],  # s1–s9, s4–s5, s2–s7, s3–s11
        3: ["s1", "s11"],  # s1–s5, s2–s11
        4: ["s1"],  # final s1–s11
    }
    rounds = [single_elimination_first_round(ids)]
    records = [MatchRecord(1, p.players, Outcome.BYE, p.players[0]) for p in rounds[0] if p.is_bye]
    for number, won in results.items():
        current = rounds[-1]
        matches = [p for p in current if not p.is_bye]
        winners = dict(zip((p.table for p in matches), won, strict=True))
        records += [MatchRecord(number, p.players, Outcome.WIN, winners[p.table]) for p in matches]
        advancing = slot_winners(current, winners)
        if len(advancing) > 1:
            rounds.append(next_elimination_round(advancing, seed_of))
    assert [p.players for p in rounds[1]] == [
        ("s1", "s9"),
        ("s4", "s5"),
        ("s2", "s7"),
        ("s3", "s11"),
    ]
    places = single_elimination_places(ids, records)
    # Final: s1 1st, s11 2nd. Semi-final losers: s5 (beaten by s1, 4-0) before s2 (by
    # s11, 3-1). Round 2 losers: s9 (by s1), s3 (by s11), then s4 and s7, both beaten by a
    # 2-1 player: own seed decides (I-2). Round 1 losers: s6 (by s11, 3-1), then s8 and
    # s10, beaten by 1-1 players: own seed again (I-2).
    assert places == ("s1", "s11", "s5", "s2", "s9", "s3", "s4", "s7", "s6", "s8", "s10")
