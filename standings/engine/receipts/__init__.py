"""Tiebreaker receipts: how the standings engine counted each player's
tiebreaker columns, opponent by opponent, with every floor, cap, freeze and virtual
opponent named by its rule ID.

One builder per standings engine, each reading the same counting step as the standings
(``tiebreakers.Counting``, ``mtg.mtg_counting``, ``multiplayer.multiplayer_counting``,
``wins_against.wins_against_counting``) from the same inputs, so a receipt and the
standings cannot disagree: every column's terms add up to the standings' value
(:meth:`~.types.ColumnReceipt.total`). :func:`~.types.changes` compares a receipt with the
one of the round before.
"""

from .mtg import mtg_receipts
from .multiplayer import multiplayer_receipts
from .pokemon import pokemon_receipts
from .types import (
    Adjustment,
    Applied,
    ColumnChange,
    ColumnReceipt,
    Combine,
    LineKind,
    Receipt,
    Result,
    RoundLine,
    Term,
    TermChange,
    changes,
)
from .wins_against import wins_against_receipts

__all__ = [
    "Adjustment",
    "Applied",
    "ColumnChange",
    "ColumnReceipt",
    "Combine",
    "LineKind",
    "Receipt",
    "Result",
    "RoundLine",
    "Term",
    "TermChange",
    "changes",
    "mtg_receipts",
    "multiplayer_receipts",
    "pokemon_receipts",
    "wins_against_receipts",
]
