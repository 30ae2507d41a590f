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
    winner: bool = False  # P-AGE-3: the division's highest-placed player, final standings
    columns: tuple[tuple[str, str], ...] = ()  # (heading, value) instead of OWP / OOWP


def pod_columns(row: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """MP-TB-1…3 for display: MWP and OMWP as percentages, OAMP in match points."""
    tb = row.get("tiebreakers", {})
    oamp = tb.get("oamp")
    shown = "" if oamp is None else str(Decimal(str(oamp)).quantize(Decimal("0.01"), ROUND_HALF_UP))
    return (("MWP", percent(tb.get("mwp"))), ("OAMP", shown), ("OMWP", percent(tb.get("omwp"))))


def standings_for_public(data: dict[str, Any]) -> list[tuple[str, list[StandingLine]]]:
    """The Standings JSON (INTERFACES.md) as ``[(division label, lines)]`` with OWP and
    OOWP as percentages with two decimals (P-TB-8). In final standings the 1st of each
    division is marked its winner (P-AGE-3: also in a pod shared with other divisions,
    R-5). No query."""
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
                bool(data.get("final")) and row.get("place") == 1,
                pod_columns(row) if data.get("ruleset") == "mtg-multiplayer" else (),
            )
            for row in rows
        ]
        out.append((labels.get(code, code.title()), lines))
    return out
