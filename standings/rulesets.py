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

from .engine.mtg import MTR_FLOOR, mtg_standings
from .engine.placement import top_cut_places
from .engine.pokemon2009 import pokemon2009_standings
from .engine.ranking import pokemon_standings
from .engine.types import Entrant, MatchRecord
from .engine.wins_against import wins_against_standings
from .multiplayer import multiplayer_lines, pod_cut_places


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


def pokemon2009_lines(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], ctx: Context
) -> list[Line]:
    """``pokemon-2009``: 1 point per win, no ties, the P-TB tiebreakers."""
    rows = pokemon2009_standings(entrants, matches, rounds=ctx.rounds, seed=ctx.seed)
    return [Line(r.player, r.match_points, r.record, {"owp": r.owp, "oowp": r.oowp}) for r in rows]


def fraction_option(value: Any, default: Fraction) -> Fraction:
    """An option written as "0.33", "1/3" or a number, as an exact Fraction."""
    return default if value in (None, "") else Fraction(str(value))


def mtg_lines(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], ctx: Context
) -> list[Line]:
    """``mtg``: M-PTS-1, M-TB-1…4; options ``mwp_floor`` (R-7, default 0.33),
    ``playoffs_in_tiebreakers`` (R-8) and ``melee_ranking`` (own GW% unfloored)."""
    rows = mtg_standings(
        entrants,
        matches,
        rounds=ctx.rounds,
        mwp_floor=fraction_option(ctx.options.get("mwp_floor"), MTR_FLOOR),
        playoffs=tuple(ctx.playoff_matches),
        playoffs_in_tiebreakers=bool(ctx.options.get("playoffs_in_tiebreakers", False)),
        melee_ranking=bool(ctx.options.get("melee_ranking", False)),
        seed=ctx.seed,
    )
    return [
        Line(r.player, r.match_points, r.record, {"omw": r.omw, "gw": r.gw, "ogw": r.ogw})
        for r in rows
    ]


def wins_against_lines(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], ctx: Context
) -> list[Line]:
    """``bo3-wins-against``: 1 point per win, W-TB-1 then W-TB-2."""
    rows = wins_against_standings(entrants, matches, rounds=ctx.rounds, seed=ctx.seed)
    return [
        Line(
            r.player,
            r.points,
            r.record,
            {"wins_against": r.wins_against, "game_wins": r.game_wins, "win_pct": r.win_pct},
        )
        for r in rows
    ]


STRATEGIES: dict[str, Strategy] = {
    "pokemon": pokemon_lines,
    "pokemon-2009": pokemon2009_lines,
    "mtg": mtg_lines,
    "bo3-wins-against": wins_against_lines,
    "mtg-multiplayer": multiplayer_lines,
}

# Final order after a top cut, per ruleset (head-to-head brackets unless listed).
CUT_PLACES: dict[str, Callable[[Sequence[str], Sequence[MatchRecord]], tuple[str, ...]]] = {
    "mtg-multiplayer": pod_cut_places,
}


def cut_places_for(
    ruleset: str,
) -> Callable[[Sequence[str], Sequence[MatchRecord]], tuple[str, ...]]:
    """How a ruleset orders the players of a finished or running top cut (P-TC-2, MP-SE)."""
    return CUT_PLACES.get(ruleset, top_cut_places)


def strategy_for(ruleset: str) -> Strategy:
    """The standings strategy of a ruleset; KeyError names a ruleset without one."""
    try:
        return STRATEGIES[ruleset]
    except KeyError:
        raise KeyError(f"standings for the {ruleset!r} ruleset are not available yet") from None
