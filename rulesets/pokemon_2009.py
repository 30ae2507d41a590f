"""``pokemon-2009``: the 2009 Pokémon procedures (seed 000).

1 point per win, no ties; OWP, OOWP (P-TB); round tables P-RT-4 chosen by the announced
structure (Swiss, Swiss plus single elimination, single elimination); age divisions and
flights (the 2009 document describes both), no Championship Points or Day 2.

Round clock (docs/rules.md is silent): 30-minute Swiss rounds as a single game, 50-minute
elimination rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from standings.engine.pokemon2009 import pokemon2009_standings
from standings.engine.types import Entrant, MatchRecord

from .base import DROPS_BELOW_ACTIVE, Context, Features, Line, MatchFormat, Ruleset
from .deck_rules import POKEMON_DECK, POKEMON_EXAMPLE
from .i18n import gettext_noop
from .pokemon import INFRACTIONS, OOWP, OWP, pokemon_receipt_lines


def pokemon2009_lines(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], ctx: Context
) -> list[Line]:
    """1 point per win, no ties, the P-TB tiebreakers."""
    rows = pokemon2009_standings(entrants, matches, rounds=ctx.rounds, seed=ctx.seed)
    return [Line(r.player, r.match_points, r.record, {"owp": r.owp, "oowp": r.oowp}) for r in rows]


def _table(structure: str, options: Mapping[str, Any], two_day: bool) -> str:
    """P-RT-4 has one table per announced structure."""
    if structure in ("swiss", "single-elimination"):
        return f"pokemon-2009-{structure}"
    return "pokemon-2009-swiss-top-cut"


RULESET = Ruleset(
    id="pokemon-2009",
    label=gettext_noop("Pokémon (2009 procedures)"),
    points_win=1,
    points_tie=0,
    points_loss=0,
    draw_word="",
    match_format=MatchFormat.SINGLE_GAME,
    columns=(OWP, OOWP),
    standings=pokemon2009_lines,
    receipts=pokemon_receipt_lines,
    options=(DROPS_BELOW_ACTIVE,),
    round_table="pokemon-2009-swiss-top-cut",
    table_choice=_table,
    features=Features(age_divisions=True, flights=True),
    round_seconds=30 * 60,
    elimination_seconds=50 * 60,
    extra_turns=3,  # W-TIME-2: three more turns after time (the planner allows for them)
    infractions=INFRACTIONS,  # the penalty guidelines' categories
    decklist=POKEMON_DECK,  # 60 cards, 4 of a name but basic Energy
    deck_example=POKEMON_EXAMPLE,  # 4 Pikachu ex
)
