"""A stored standings snapshot (the Standings JSON of docs/interfaces.md) as page rows, with
the tiebreaker columns the event's ruleset declares (``rulesets.Column``): percentages
rounded for display only (P-TB-8). No query."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesets import RULESETS, Column, get_ruleset

from ..models import DivisionCode


@dataclass(frozen=True)
class StandingLine:
    """One row of a standings table. values: the ruleset's tiebreaker columns, as text,
    in the order of :attr:`StandingsTable.columns`. player: the row's player id (the
    Standings JSON ``player``), which finds the player's tiebreaker receipt."""

    place: int | None
    name: str
    record: str
    match_points: int
    values: tuple[str, ...]
    dropped: bool
    top_cut: bool
    winner: bool = False  # P-AGE-3: the division's highest-placed player, final standings
    player: str = ""  # the receipt link of the public standings


@dataclass(frozen=True)
class StandingsTable:
    """One division's standings: its label, the columns and the lines in order."""

    label: str
    columns: tuple[Column, ...]
    lines: tuple[StandingLine, ...]


def columns_for(data: dict[str, Any]) -> tuple[Column, ...]:
    """The tiebreaker columns of the snapshot's ruleset (none for an unknown id)."""
    ruleset_id = data.get("ruleset", "")
    return get_ruleset(ruleset_id).columns if ruleset_id in RULESETS else ()


def _line(row: dict[str, Any], columns: tuple[Column, ...], final: bool) -> StandingLine:
    tiebreakers = row.get("tiebreakers", {})
    return StandingLine(
        row.get("place"),
        row.get("shown_name") or row.get("name", row.get("player", "")),
        row.get("record", ""),
        row.get("match_points", 0),
        tuple(c.show(tiebreakers.get(c.key)) for c in columns),
        bool(row.get("dropped")),
        bool(row.get("top_cut")),
        final and row.get("place") == 1,
        str(row.get("player", "")),
    )


def standings_for_public(data: dict[str, Any]) -> list[StandingsTable]:
    """The Standings JSON (docs/interfaces.md) as one :class:`StandingsTable` per division,
    with the ruleset's columns formatted by the ruleset (P-TB-8: percentages with two
    decimals). In final standings the 1st of each division is marked its winner
    (P-AGE-3: also in a pairing group shared with other divisions, R-5). No query."""
    labels = dict(DivisionCode.choices)
    columns = columns_for(data)
    final = bool(data.get("final"))
    return [
        StandingsTable(
            labels.get(code, code.title()),
            columns,
            tuple(_line(row, columns, final) for row in rows),
        )
        for code, rows in data.get("divisions", {}).items()
    ]
