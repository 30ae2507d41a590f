"""A stored standings snapshot (the Standings JSON of INTERFACES.md) as page rows:
percentages rounded for display only (P-TB-8). No query."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from ..models import DivisionCode


def percent(value: float | str | None) -> str:
    """A 0–1 fraction as a percentage with two decimals, half up (P-TB-8): 0.6125 → 61.25 %."""
    if value is None:
        return ""
    quantum = (Decimal(str(value)) * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{quantum}%"


@dataclass(frozen=True)
class StandingLine:
    place: int | None
    name: str
    record: str
    match_points: int
    owp: str
    oowp: str
    dropped: bool
    top_cut: bool


def standings_for_public(data: dict[str, Any]) -> list[tuple[str, list[StandingLine]]]:
    """The Standings JSON (INTERFACES.md) as ``[(division label, lines)]`` with OWP and
    OOWP as percentages with two decimals (P-TB-8). No query."""
    labels = dict(DivisionCode.choices)
    out = []
    for code, rows in data.get("divisions", {}).items():
        lines = [
            StandingLine(
                row.get("place"),
                row.get("name", row.get("player", "")),
                row.get("record", ""),
                row.get("match_points", 0),
                percent(row.get("tiebreakers", {}).get("owp")),
                percent(row.get("tiebreakers", {}).get("oowp")),
                bool(row.get("dropped")),
                bool(row.get("top_cut")),
            )
            for row in rows
        ]
        out.append((labels.get(code, code.title()), lines))
    return out
