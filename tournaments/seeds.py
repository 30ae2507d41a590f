"""A bracket's seeds read back from its first round, for files that carry none (event
JSON, TOM) and for events paired before seeds were stored (migration 0018).

Seeds are stored when a cut is taken (``tournaments.models.CutSeed``); a file holds only
the rounds. The first round says them: the pairing wrote each match's seeds in its
explanation ("top cut: seed 1 vs seed 8", "bye: seed 3", a pod cut's "top cut: seeds 1,
8, 9, 16"); where it did not (a draft playoff's seats, a TOM file), the tables are in
bracket order (P-TC-1, P-SE-1) and the players without a number get the top seeds in
table order, as byes go to the top seeds (P-SE-2, MP-SE-1).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from pairings.engine.elimination import bracket_order

# ASCII digits only: "top cut: seeds 1, 8, 9, 16"
_POD_SEEDS = re.compile(r"seeds ((?:[0-9]+, )*[0-9]+)")
_SEED = re.compile(r"seed ([0-9]+)")  # "seed 1 vs seed 8", "bye: seed 3"


class FirstRoundSeat(NamedTuple):
    """One seat of a bracket's first round: the player, their match's table (None for a
    bye), seat number (1 first) and the match's explanation."""

    player: int
    table: int | None
    seat: int
    why: str


def _listed(why: str) -> list[int]:
    pod = _POD_SEEDS.search(why)
    return [int(n) for n in (pod.group(1).split(", ") if pod else _SEED.findall(why))]


def first_round_seeds(seats: Sequence[FirstRoundSeat]) -> dict[int, int]:
    """``{player: seed}`` from a bracket's first round ``seats`` (in table order, byes
    last, then seat order), as the module notes say. Empty for no seat."""
    seed_of: dict[int, int] = {}
    unnumbered: list[int] = []
    for s in seats:
        listed = _listed(s.why)
        if s.seat <= len(listed):
            seed_of[s.player] = listed[s.seat - 1]
        else:
            unnumbered.append(s.player)
    complete = len(set(seed_of.values())) == len(seed_of)
    if not complete or any(s.table is not None for s in seats if s.player in unnumbered):
        played = [s.player for s in seats if s.table is not None]
        size = 1 << max(len(played) - 1, 0).bit_length()
        seed_of = dict(zip(played, bracket_order(size), strict=False))
        unnumbered = [s.player for s in seats if s.table is None]
    taken = set(seed_of.values())
    free = (n for n in range(1, len(seats) + 1 + len(taken)) if n not in taken)
    for player in unnumbered:  # byes go to the top seeds (P-SE-2, MP-SE-1)
        seed_of[player] = next(free)
    return seed_of
