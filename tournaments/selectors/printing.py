"""What the print pages need: match slips in cut-stack order, pairings by name and by
table, with each player's record before the round (P-POST-1, P-POST-3)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..models import Registration, Round
from ..search import folded
from .public import names_for_public
from .rounds import MatchView, RoundView, TableMarks, _round_views

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
class Slip(TableMarks):
    """One match slip: table, the players with their record (two at a match, 3–5 in seat
    order at a pod), each player's token (for the QR code of their private report link,
    printed on that player's own tear-off strip), and the table's marks (a fixed seat, a
    featured match: ``TableMarks``), so the judge who hands it out sees them."""

    table: int | None
    seats: tuple[SlipSeat, ...]
    seating: str = ""  # Match.seating
    feature_table: str = ""  # the feature table's name, "" when not featured

    @property
    def is_pod(self) -> bool:
        """A multiplayer pod's slip (MP-POD-1): a taller card, a strip per seat."""
        return len(self.seats) > 2


def round_for_print(rnd: Round) -> RoundView:
    """The round with every table and the records before it. 3 queries."""
    return _round_views(rnd.event, [rnd])[0]


def slips_for_print(view: RoundView) -> list[Slip]:
    """One slip per head-to-head table and per pod, in table order (byes need none).
    1 query."""
    matches: list[MatchView] = [m for m in view.tables if m.is_slip or m.is_pod]
    ids = [s.registration_id for m in matches for s in m.seats]
    tokens = dict(Registration.objects.filter(pk__in=ids).values_list("pk", "report_token"))
    return [
        Slip(
            m.table,
            tuple(SlipSeat(s.name, s.record, tokens[s.registration_id]) for s in m.seats),
            m.seating,
            m.feature_table,
        )
        for m in matches
    ]


# What tells two players of the same name apart (selectors.names.shown_name): " #4567",
# " (1990)", " (p12)" after the name. It stays with the given names, not the surname.
TWIN_TAG = re.compile(r"\s+(#\S+|\([^()]*\))$")


def surname_first(name: str) -> tuple[str, str]:
    """``(surname, given names)`` of a name as shown: the last word, then the rest
    ("Tomás de la Cruz Díaz" → ``("Díaz", "Tomás de la Cruz")``; one word → ``(word, "")``;
    a same-name tag stays at the end of the given names: "Ana Ruiz #0017" → ``("Ruiz",
    "Ana #0017")``). "Last, First" names are turned round at entry, so every stored name
    is "First Last". Never raises."""
    tag = TWIN_TAG.search(name)
    words = (name[: tag.start()] if tag else name).split()
    if not words:
        return name.strip(), ""
    given = " ".join(words[:-1] + ([tag.group(1)] if tag else []))
    return words[-1], given


def wall_sort_key(name: str) -> tuple[str, str, str]:
    """The order of the wall list: by surname (the last word), then
    the given names, case and accents ignored (``search.folded``: "Álvarez" sorts with
    "Alvarez", before "Bauer"); the name itself breaks a tie."""
    surname, given = surname_first(name)
    return folded(surname), folded(given), name


@dataclass(frozen=True)
class WallLine(TableMarks):
    """One line of the printed "pairings by name" list: table (None for a bye or a
    late-entry loss, whose ``note`` says so), the player's surname and given names, the
    opponent (a pod's other players, comma-separated; ``""`` without one), and the
    table's marks (a fixed seat, a featured match: ``TableMarks``)."""

    table: int | None
    surname: str
    given: str
    opponent: str
    note: str
    seating: str = ""  # Match.seating
    feature_table: str = ""  # the feature table's name, "" when not featured


def names_for_print(view: RoundView) -> list[WallLine]:
    """Every seated player of the round with table and opponent, sorted by surname
    (:func:`wall_sort_key`), for the wall. No query."""
    entries = sorted(names_for_public([view]), key=lambda e: wall_sort_key(e.name))
    return [
        WallLine(e.table, *surname_first(e.name), e.opponent, e.note, e.seating, e.feature_table)
        for e in entries
    ]
