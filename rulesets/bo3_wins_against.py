"""``bo3-wins-against``: the 1v1 best-of-3 card game of seed 002.

1 point per win, no drawn matches (time is resolved by sudden death, W-TIME-1/2, with
the time-called helper); a game record on every slip; ordered by wins against, then
game wins, then win % (W-TB-1, W-TB-2); round table P-RT-7; standalone single
elimination for 4+ players (W-SE-2).

Round clock (docs/rules.md is silent): 50-minute rounds.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from standings.engine.receipts import Receipt, wins_against_receipts
from standings.engine.types import Entrant, MatchRecord
from standings.engine.wins_against import wins_against_standings

from .base import DROPS_BELOW_ACTIVE, Column, Context, Line, MatchFormat, Ruleset, as_integer
from .games import check_games
from .i18n import gettext_noop

COLUMNS = (
    Column(
        "wins_against",
        gettext_noop("Wins against"),
        "WA",
        gettext_noop(
            "For every match you won, the final number of wins of the opponent you beat, "
            "added up (a bye adds 0)."
        ),
        as_integer,
    ),
    Column(
        "game_wins",
        gettext_noop("Game wins"),
        "GW",
        gettext_noop("Games you won, in all your matches."),
        as_integer,
    ),
    Column(
        "win_pct",
        gettext_noop("Win %"),
        "Win %",
        gettext_noop("Matches won ÷ matches played, byes included."),
    ),
)


def wins_against_lines(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], ctx: Context
) -> list[Line]:
    """1 point per win, W-TB-1 then W-TB-2."""
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


def wins_against_receipt_lines(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    ctx: Context,
    only: Collection[str] | None,
) -> Mapping[str, Receipt]:
    """The tiebreaker receipts of :func:`wins_against_lines` with the same inputs (issue
    24, item 2): wins against, game wins and win % term by term (W-TB-1, W-TB-2)."""
    return wins_against_receipts(entrants, matches, rounds=ctx.rounds, only=only)


RULESET = Ruleset(
    id="bo3-wins-against",
    label=gettext_noop("Best-of-3, wins-against tiebreaker"),
    points_win=1,
    points_tie=0,
    points_loss=0,
    draw_word="",
    match_format=MatchFormat.BEST_OF_3,
    columns=COLUMNS,
    standings=wins_against_lines,
    receipts=wins_against_receipt_lines,
    options=(DROPS_BELOW_ACTIVE,),
    round_table="bo3-wins-against",
    game_check=check_games,
    time_called=True,
    round_seconds=50 * 60,
    elimination_seconds=50 * 60,
    extra_turns=3,  # W-TIME-2: three more turns after time (the planner allows for them)
)
