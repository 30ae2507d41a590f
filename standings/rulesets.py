"""Standings strategies per ruleset: one small function each, chosen from a table.

A strategy turns a pod's entrants and Swiss matches into standings lines in order; the
service then places them per division and applies the top cut. Views and the service
never test ``event.ruleset == ...``: they look the strategy up here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .engine.ranking import pokemon_standings
from .engine.types import Entrant, MatchRecord


@dataclass(frozen=True)
class Line:
    """One player's Swiss standing, ruleset-neutral.

    tiebreakers: the keys INTERFACES.md lists for the ruleset, exact Fractions 0–1 (or
    plain integers, e.g. wins against).
    """

    player: str
    match_points: int
    record: str
    tiebreakers: Mapping[str, Fraction | int]


@dataclass(frozen=True)
class Context:
    """What a strategy needs besides the results: rounds counted, I-6 seed, event
    options (INTERFACES.md ``options``) and the elimination matches (R-8)."""

    rounds: int
    seed: int
    options: Mapping[str, Any]
    playoff_matches: Sequence[MatchRecord] = ()


Strategy = Callable[[Sequence[Entrant], Sequence[MatchRecord], Context], list[Line]]


def pokemon_lines(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], ctx: Context
) -> list[Line]:
    """P-TB-1…7 with R-1, R-2 (the ``pokemon`` ruleset): 3/1/0 points, OWP, OOWP."""
    rows = pokemon_standings(entrants, matches, rounds=ctx.rounds, seed=ctx.seed)
    return [
        Line(r.player, 3 * r.wins + r.ties, r.record, {"owp": r.owp, "oowp": r.oowp}) for r in rows
    ]


STRATEGIES: dict[str, Strategy] = {"pokemon": pokemon_lines}


def strategy_for(ruleset: str) -> Strategy:
    """The standings strategy of a ruleset; KeyError names a ruleset without one."""
    try:
        return STRATEGIES[ruleset]
    except KeyError:
        raise KeyError(f"standings for the {ruleset!r} ruleset are not available yet") from None
