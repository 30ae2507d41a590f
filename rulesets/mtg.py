"""``mtg``: Magic: The Gathering head-to-head (Magic Tournament Rules).

3 / 1 / 0 match points (M-PTS-1); best-of-3 with a game record on every slip
(M-MATCH-1); ordered by OMW %, GW %, OGW % (M-TB-1…4) with the R-7 floor option and the
R-8 playoff option; round table P-RT-5 (5–8 players: three single-elimination rounds);
top 8 or top 4 playoffs seeded by standings or after a draft (M-SE-1). No age
divisions, Championship Points, Day 2 or flights.

Round clock: 50-minute rounds, Swiss and playoffs (the MTR minimum; RULES.md is silent).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from standings.engine.mtg import MTR_FLOOR, mtg_standings
from standings.engine.types import Entrant, MatchRecord

from .base import (
    Column,
    Context,
    Line,
    MatchFormat,
    OptionSpec,
    Ruleset,
    fraction_option,
)
from .games import check_games
from .i18n import gettext_noop

# The playoff_seating choices as the options form shows them (translated there).
SEATING_WORDS = (gettext_noop("standings"), gettext_noop("draft"))

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
    round_table="mtg",
    table_choice=_table,
    options=OPTIONS,
    game_check=check_games,
    round_seconds=50 * 60,
    elimination_seconds=50 * 60,
)
