"""Top-cut seating of an MTG playoff (M-SE-1): by final Swiss standings in the standard
bracket (1–8, 4–5, 2–7, 3–6), or, when the event's ``playoff_seating`` option is
``draft``, a top 8 seated at random for a booster draft and paired seat 1 vs 5, 3 vs 7,
2 vs 6, 4 vs 8 (winners of 1/5 and 3/7 meet). The random seats come from the round's
stored seed (I-1), so the draft seating can be reproduced for an appeal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.models import Event

from ..engine import elimination
from ..engine.elimination import draft_playoff_pairings
from ..engine.types import Pairing


def uses_draft_seating(event: Event, cut: int) -> bool:
    """True for a top 8 of an event whose ``playoff_seating`` option is ``draft``."""
    return cut == 8 and (event.options or {}).get("playoff_seating") == "draft"


def top_cut_first_round(event: Event, seeds: Sequence[str], seed: int) -> tuple[Pairing, ...]:
    """The first top-cut round for ``seeds`` (ids in Swiss rank order): the standard
    bracket (P-TC-1, M-SE-1), or the draft playoff seating with ``random.Random(seed)``.
    Tables are in bracket order, so winners of consecutive tables meet next.
    Raises the engine's PairingImpossible as ``elimination.top_cut_pairings``."""
    if not uses_draft_seating(event, len(seeds)):
        return elimination.top_cut_pairings(seeds)
    seats = list(seeds)
    random.Random(seed).shuffle(seats)
    number = {pid: n for n, pid in enumerate(seats, start=1)}
    return tuple(
        Pairing(t, (a, b), f"draft playoff: seat {number[a]} vs seat {number[b]}")
        for t, (a, b) in enumerate(draft_playoff_pairings(seats), start=1)
    )
