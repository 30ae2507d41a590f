"""What the print pages need: match slips in cut-stack order, pairings by name and by
table, with each player's record before the round (P-POST-1, P-POST-3)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..models import Registration, Round
from .public import NameEntry, names_for_public
from .rounds import MatchView, RoundView, _round_views

T = TypeVar("T")


def cut_stack(items: Sequence[T], per_sheet: int) -> list[list[T]]:
    """Arrange ``items`` on sheets of ``per_sheet`` so that, once the printed stack is
    cut into ``per_sheet`` piles and the piles are put one on another, the items come
    in their original order: item ``i`` goes to sheet ``i % sheets``, position
    ``i // sheets``. No query."""
    if not items:
        return []
    sheets = math.ceil(len(items) / per_sheet)
    out: list[list[T]] = [[] for _ in range(sheets)]
    for i, item in enumerate(items):
        out[i % sheets].append(item)
    return out


@dataclass(frozen=True)
class SlipSeat:
    name: str
    record: str
    token: str


@dataclass(frozen=True)
class Slip:
    """One match slip: table, the two players with their record, each player's token
    (for the QR code of their private report link)."""

    table: int | None
    seats: tuple[SlipSeat, ...]


def round_for_print(rnd: Round) -> RoundView:
    """The round with every table and the records before it. 3 queries."""
    return _round_views(rnd.event, [rnd])[0]


def slips_for_print(view: RoundView) -> list[Slip]:
    """One slip per head-to-head table, in table order (byes need none). 1 query."""
    matches: list[MatchView] = [m for m in view.tables if m.is_slip]
    ids = [s.registration_id for m in matches for s in m.seats]
    tokens = dict(Registration.objects.filter(pk__in=ids).values_list("pk", "report_token"))
    return [
        Slip(m.table, tuple(SlipSeat(s.name, s.record, tokens[s.registration_id]) for s in m.seats))
        for m in matches
    ]


def names_for_print(view: RoundView) -> list[NameEntry]:
    """Every seated player of the round, alphabetical (no query)."""
    return names_for_public([view])
