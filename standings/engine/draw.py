"""The random order of players tied after every tiebreaker (I-6, I-1): one draw for every
ruleset's standings engine.

The players are put in *natural* id order first — the shorter id first, then
alphabetically, so registration ids ``"9"``, ``"10"`` keep their numeric order — and
shuffled with ``random.Random(seed)``. The draw therefore depends only on the seed and on
the players' relative order, not on the id values: an event exported and imported again
(``export_event`` writes players by registration id; an import numbers them anew in that
order) draws the same order for the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable


def natural(pid: str) -> tuple[int, str]:
    """Sort key of an id: numeric order for digit strings of any length."""
    return (len(pid), pid)


def lot(ids: Iterable[str], seed: int) -> dict[str, int]:
    """``{id: rank in the draw}`` (0 first) for the players ``ids``, from ``seed``."""
    order = sorted(ids, key=natural)
    random.Random(seed).shuffle(order)
    return {pid: k for k, pid in enumerate(order)}
