"""``pokemon``: Play! Pokémon TCG/VG, 2019 procedures (the default ruleset).

3 / 1 / 0 match points; match results only (best-of-1 or best-of-3, no game record);
ordered by OWP then OOWP (P-TB-1…7, R-1, R-2); round tables P-RT-1 (one day), P-RT-2
(two days); every Pokémon procedure: age divisions, Championship Points, Day 2, flights.

Round clock (docs/rules.md is silent; Play! Pokémon practice): Swiss rounds 50 minutes, top
cut rounds 75 minutes; staff add time per table or pause the clock.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from standings.engine.ranking import pokemon_standings
from standings.engine.receipts import Receipt, pokemon_receipts
from standings.engine.types import Entrant, MatchRecord

from .base import DROPS_BELOW_ACTIVE, Column, Context, Features, Line, MatchFormat, Ruleset
from .deck_rules import POKEMON_DECK, POKEMON_EXAMPLE
from .i18n import gettext_noop
from .penalties import Infraction

OWP = Column(
    "owp",
    gettext_noop("OWP"),
    "OWP",
    gettext_noop(
        "Opponents' win %: the average win % of everyone you played (byes left out; each "
        "at least 25 %, at most 75 % for a player who dropped)."
    ),
)
OOWP = Column(
    "oowp",
    gettext_noop("OOWP"),
    "OOWP",
    gettext_noop("Opponents' opponents' win %: the average OWP of everyone you played."),
)


# the infraction categories of the Play! Pokémon penalty guidelines
# (Tournament Rules Handbook, "Rules Violations & Penalties"), as the penalty form offers
# them. No section numbers: they move between revisions of the handbook.
_PROCEDURAL = gettext_noop("Procedural errors")
_GAMEPLAY = gettext_noop("Gameplay errors")
_CONDUCT = gettext_noop("Unsporting conduct")
INFRACTIONS = (
    Infraction(gettext_noop("Tardiness"), _PROCEDURAL),
    Infraction(gettext_noop("Procedural Error – Minor"), _PROCEDURAL),
    Infraction(gettext_noop("Procedural Error – Major"), _PROCEDURAL),
    Infraction(gettext_noop("Deck/Decklist Problems"), _PROCEDURAL),
    Infraction(gettext_noop("Marked Cards"), _PROCEDURAL),
    Infraction(gettext_noop("Slow Play"), _PROCEDURAL),
    Infraction(gettext_noop("Gameplay Error – Minor"), _GAMEPLAY),
    Infraction(gettext_noop("Gameplay Error – Major"), _GAMEPLAY),
    Infraction(gettext_noop("Unsporting Conduct – Minor"), _CONDUCT),
    Infraction(gettext_noop("Unsporting Conduct – Major"), _CONDUCT),
    Infraction(gettext_noop("Unsporting Conduct – Severe"), _CONDUCT),
    Infraction(gettext_noop("Stalling"), _CONDUCT),
    Infraction(gettext_noop("Cheating"), _CONDUCT),
)


def pokemon_lines(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], ctx: Context
) -> list[Line]:
    """P-TB-1…7 with R-1, R-2: 3/1/0 points, OWP, OOWP (Fractions 0–1)."""
    rows = pokemon_standings(entrants, matches, rounds=ctx.rounds, seed=ctx.seed)
    return [
        Line(r.player, 3 * r.wins + r.ties, r.record, {"owp": r.owp, "oowp": r.oowp}) for r in rows
    ]


def pokemon_receipt_lines(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    ctx: Context,
    only: Collection[str] | None,
) -> Mapping[str, Receipt]:
    """The tiebreaker receipts of :func:`pokemon_lines` (and of the 2009 ruleset's, whose
    tiebreakers are the same) with the same inputs: OWP and OOWP term
    by term (P-TB-2, P-TB-3, P-TB-5, R-1, R-2, I-5)."""
    return pokemon_receipts(entrants, matches, rounds=ctx.rounds, only=only)


def _table(structure: str, options: Mapping[str, Any], two_day: bool) -> str:
    """P-RT-1 for one day, P-RT-2 when the organiser chooses two days."""
    return "pokemon-tcg-two-day" if two_day else "pokemon-tcg"


RULESET = Ruleset(
    id="pokemon",
    label=gettext_noop("Play! Pokémon (2019 procedures)"),
    points_win=3,
    points_tie=1,
    points_loss=0,
    draw_word=gettext_noop("Tie"),
    match_format=MatchFormat.SINGLE_GAME,
    columns=(OWP, OOWP),
    standings=pokemon_lines,
    receipts=pokemon_receipt_lines,
    round_table="pokemon-tcg",
    table_choice=_table,
    options=(DROPS_BELOW_ACTIVE,),  # as Limitless
    features=Features(
        age_divisions=True, championship_points=True, day2=True, flights=True, tom_files=True
    ),
    round_seconds=50 * 60,
    elimination_seconds=75 * 60,
    extra_turns=3,  # W-TIME-2: three more turns after time (the planner allows for them)
    infractions=INFRACTIONS,
    decklist=POKEMON_DECK,  # 60 cards, 4 of a name but basic Energy
    deck_example=POKEMON_EXAMPLE,  # 4 Pikachu ex
)
