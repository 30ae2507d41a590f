"""The ``pokemon-2009`` ruleset: 2009 Pokémon procedures, 1 point per win, no ties.

The tiebreakers are the P-TB ones of :mod:`.ranking` (tardiness, OWP, OOWP, head to
head, standing of the last opponent, then the seeded random order of I-6), with the win %
of :mod:`.tiebreakers` (wins ÷ rounds counted, byes in neither part, floor 25 %, cap 75 %
for a dropped player; R-1 and R-2 as for the 2019 procedures).

Reuse, not a copy: without ties, match points are 3 × wins under 3/1/0 and 1 × wins under
1/0, so both point scales order every player identically; the 2019 engine ranks the
players and only the displayed match points change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .errors import StandingsError
from .ranking import pokemon_standings
from .types import Entrant, MatchRecord, Outcome, StandingRow

#: Match points per win (a bye is a win); a loss scores 0 and there are no ties.
POINTS_PER_WIN = 1


def pokemon2009_standings(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    *,
    rounds: int,
    seed: int = 0,
) -> tuple[StandingRow, ...]:
    """Swiss standings under the 2009 procedures after round ``rounds``, best first.

    Inputs as :func:`~standings.engine.ranking.pokemon_standings`. Returns its rows with
    ``match_points`` = wins (byes included) × 1. Raises
    :class:`~standings.engine.errors.StandingsError` for a tie in a counted round (the
    2009 procedures have none), and for everything ``pokemon_standings`` refuses.
    Implements the ``pokemon-2009`` ruleset with P-TB-1…P-TB-7, R-1, R-2, I-6.
    """
    for m in matches:
        if m.outcome == Outcome.DRAW and 0 < m.round <= rounds:
            raise StandingsError(
                f"round {m.round}: {' vs '.join(m.players)} is a tie; the pokemon-2009 "
                "ruleset has no ties (1 point per win, 0 per loss)"
            )
    rows = pokemon_standings(entrants, matches, rounds=rounds, seed=seed)
    return tuple(replace(row, match_points=POINTS_PER_WIN * row.wins) for row in rows)
