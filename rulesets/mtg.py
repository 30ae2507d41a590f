"""``mtg``: Magic: The Gathering head-to-head (Magic Tournament Rules).

3 / 1 / 0 match points (M-PTS-1); best-of-3 with a game record on every slip
(M-MATCH-1); ordered by OMW %, GW %, OGW % (M-TB-1…4) with the R-7 floor option and the
R-8 playoff option; round table P-RT-5 (5–8 players: three single-elimination rounds);
top 8 or top 4 playoffs seeded by standings or after a draft (M-SE-1). No age
divisions, Championship Points, Day 2 or flights.

Round clock: 50-minute rounds, Swiss and playoffs (the MTR minimum; docs/rules.md is silent).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from standings.engine.mtg import MTR_FLOOR, mtg_standings
from standings.engine.receipts import Receipt, mtg_receipts
from standings.engine.types import Entrant, MatchRecord

from .base import (
    DROPS_BELOW_ACTIVE,
    MATCH_LENGTHS,
    Column,
    Context,
    Line,
    MatchFormat,
    OptionSpec,
    Ruleset,
    fraction_option,
)
from .deck_rules import MAGIC_CONSTRUCTED_DECK, MAGIC_EXAMPLE
from .games import check_games
from .i18n import gettext_noop
from .penalties import Infraction

# the infractions of the Magic Infraction Procedure Guide, with its
# section numbers, as the penalty form offers them.
_GAME_PLAY = gettext_noop("Game play errors")
_TOURNAMENT = gettext_noop("Tournament errors")
_CONDUCT = gettext_noop("Unsporting conduct")
INFRACTIONS = (
    Infraction(gettext_noop("Missed Trigger"), _GAME_PLAY, "2.1"),
    Infraction(gettext_noop("Looking at Extra Cards"), _GAME_PLAY, "2.2"),
    Infraction(gettext_noop("Hidden Card Error"), _GAME_PLAY, "2.3"),
    Infraction(gettext_noop("Mulligan Procedure Error"), _GAME_PLAY, "2.4"),
    Infraction(gettext_noop("Game Rule Violation"), _GAME_PLAY, "2.5"),
    Infraction(gettext_noop("Failure to Maintain Game State"), _GAME_PLAY, "2.6"),
    Infraction(gettext_noop("Tardiness"), _TOURNAMENT, "3.1"),
    Infraction(gettext_noop("Outside Assistance"), _TOURNAMENT, "3.2"),
    Infraction(gettext_noop("Slow Play"), _TOURNAMENT, "3.3"),
    Infraction(gettext_noop("Decklist Problem"), _TOURNAMENT, "3.4"),
    Infraction(gettext_noop("Deck Problem"), _TOURNAMENT, "3.5"),
    Infraction(gettext_noop("Limited Procedure Violation"), _TOURNAMENT, "3.6"),
    Infraction(gettext_noop("Communication Policy Violation"), _TOURNAMENT, "3.7"),
    Infraction(gettext_noop("Marked Cards"), _TOURNAMENT, "3.8"),
    Infraction(gettext_noop("Insufficient Shuffling"), _TOURNAMENT, "3.9"),
    Infraction(gettext_noop("Unsporting Conduct – Minor"), _CONDUCT, "4.1"),
    Infraction(gettext_noop("Unsporting Conduct – Major"), _CONDUCT, "4.2"),
    Infraction(gettext_noop("Improperly Determining a Winner"), _CONDUCT, "4.3"),
    Infraction(gettext_noop("Bribery and Wagering"), _CONDUCT, "4.4"),
    Infraction(gettext_noop("Aggressive Behavior"), _CONDUCT, "4.5"),
    Infraction(gettext_noop("Theft of Tournament Material"), _CONDUCT, "4.6"),
    Infraction(gettext_noop("Stalling"), _CONDUCT, "4.7"),
    Infraction(gettext_noop("Cheating"), _CONDUCT, "4.8"),
)

# The playoff_seating choices as the options form shows them (translated there).
SEATING_WORDS = (gettext_noop("standings"), gettext_noop("draft"))
# The match_length choices likewise.
MATCH_LENGTH_WORDS = (gettext_noop("best-of-3"), gettext_noop("best-of-1"))
# The rules_enforcement_level choices likewise (MTR 1.2).
REL_WORDS = (gettext_noop("regular"), gettext_noop("competitive"), gettext_noop("professional"))

OPTIONS = (
    OptionSpec(
        "mwp_floor",
        gettext_noop("Match-win and game-win % floor"),
        "choice",
        "0.33",
        gettext_noop("0.33 as the MTR and Wizards Event Reporter; 1/3 as melee.gg."),
        ("0.33", "1/3"),
    ),
    OptionSpec(
        "playoffs_in_tiebreakers",
        gettext_noop("Count playoff matches in the final tiebreakers"),
        "bool",
        False,
        gettext_noop("Wizards Event Reporter does; melee.gg does not."),
    ),
    OptionSpec(
        "melee_ranking",
        gettext_noop("Rank as melee.gg"),
        "bool",
        False,
        gettext_noop("Rank by the player's own game-win % without the floor, as melee.gg does."),
    ),
    OptionSpec(
        "playoff_seating",
        gettext_noop("Top 8 playoff pairing"),
        "choice",
        "standings",
        gettext_noop(
            "standings: 1-8, 4-5, 2-7, 3-6 by final Swiss standings; draft: after a random-seat "
            "draft, seat 1 vs 5, 3 vs 7, 2 vs 6, 4 vs 8."
        ),  # M-SE-1
        ("standings", "draft"),
    ),
    OptionSpec(
        "match_length",
        gettext_noop("Match length"),
        "choice",
        "best-of-3",
        gettext_noop(
            "best-of-3: slips record 2-0, 2-1 …, a bye is 2 games won (MTR); best-of-1: "
            "slips record 1-0, 0-1 or a draw, a bye is 1 game won (as melee.gg). Fixed once "
            "a result is recorded."
        ),  # M-MATCH-1, M-PTS-1
        tuple(MATCH_LENGTHS),
        fixed_once_played=True,
    ),
    DROPS_BELOW_ACTIVE,
    OptionSpec(  # Competitive and Professional events collect lists
        "rules_enforcement_level",
        gettext_noop("Rules enforcement level"),
        "choice",
        "regular",
        gettext_noop(
            "Competitive and Professional events collect deck lists from the players by "
            "default (Staff → Deck lists)."
        ),
        REL_WORDS,
    ),
)

COLUMNS = (
    Column(
        "omw",
        gettext_noop("OMW %"),
        "OMW",
        gettext_noop(
            "Opponents' match-win %: the average match-win % of everyone you played (byes "
            "left out; each at least 33 %)."
        ),
    ),
    Column(
        "gw",
        gettext_noop("GW %"),
        "GW",
        gettext_noop("Game-win %: your game points ÷ 3 per game played (at least 33 %)."),
    ),
    Column(
        "ogw",
        gettext_noop("OGW %"),
        "OGW",
        gettext_noop("Opponents' game-win %: the average game-win % of everyone you played."),
    ),
)


def mtg_lines(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], ctx: Context
) -> list[Line]:
    """M-PTS-1, M-TB-1…4; options ``mwp_floor`` (R-7, default 0.33),
    ``playoffs_in_tiebreakers`` (R-8), ``melee_ranking`` (own GW% unfloored) and
    ``match_length`` (a bye's games: 2-0 in best-of-3, 1-0 in best-of-1)."""
    rows = mtg_standings(
        entrants,
        matches,
        melee_ranking=bool(ctx.options.get("melee_ranking", False)),
        seed=ctx.seed,
        **_counted(ctx),
    )
    return [
        Line(r.player, r.match_points, r.record, {"omw": r.omw, "gw": r.gw, "ogw": r.ogw})
        for r in rows
    ]


def _counted(ctx: Context) -> dict[str, Any]:
    """The engine arguments the tiebreakers are counted by, read from the context: one
    place for the standings (:func:`mtg_lines`) and the receipts (:func:`mtg_receipt_lines`)."""
    return {
        "rounds": ctx.rounds,
        "mwp_floor": fraction_option(ctx.options.get("mwp_floor"), MTR_FLOOR),
        "playoffs": tuple(ctx.playoff_matches),
        "playoffs_in_tiebreakers": bool(ctx.options.get("playoffs_in_tiebreakers", False)),
        "best_of": RULESET.best_of(ctx.options),
    }


def mtg_receipt_lines(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    ctx: Context,
    only: Collection[str] | None,
) -> Mapping[str, Receipt]:
    """The tiebreaker receipts of :func:`mtg_lines` with the same inputs:
    OMW, GW, OGW term by term (M-TB-1…4, R-7, R-8)."""
    return mtg_receipts(entrants, matches, only=only, **_counted(ctx))


def _table(structure: str, options: Mapping[str, Any], two_day: bool) -> str:
    """P-RT-5; with a Booster Draft playoff 9–16 players play 4 rounds into a top 8."""
    return "mtg-draft-playoff" if options.get("playoff_seating") == "draft" else "mtg"


RULESET = Ruleset(
    id="mtg",
    label=gettext_noop("Magic: The Gathering, head-to-head"),
    points_win=3,
    points_tie=1,
    points_loss=0,
    draw_word=gettext_noop("Draw"),
    match_format=MatchFormat.BEST_OF_3,
    columns=COLUMNS,
    standings=mtg_lines,
    receipts=mtg_receipt_lines,
    round_table="mtg",
    table_choice=_table,
    options=OPTIONS,
    game_check=check_games,
    round_seconds=50 * 60,
    elimination_seconds=50 * 60,
    infractions=INFRACTIONS,
    decklist=MAGIC_CONSTRUCTED_DECK,  # 60+ main, 15 sideboard, 4 of a name
    deck_example=MAGIC_EXAMPLE,  # 4 Lightning Bolt
)
