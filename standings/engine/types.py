"""Input and output shapes of the standings engines (frozen dataclasses, exact Fractions)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from fractions import Fraction


class Outcome(StrEnum):
    """What happened in one match (the match slip's result)."""

    WIN = "win"  # ``winner`` holds the winner's id
    DRAW = "draw"  # a tie: 1 match point each (Pokémon)
    DOUBLE_LOSS = "double-loss"  # both players get a loss
    BYE = "bye"  # one player, counts as a win for points, excluded from win % (P-TB-5)
    LATE_LOSS = "loss"  # one player, automatic loss of a late entrant (P-LATE-1, I-5)
    PENDING = "pending"  # not reported yet


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match of one round. ``players`` holds one id (bye / late loss) or two.

    games: optional best-of-3 game record ``(wins of players[0], wins of players[1],
    drawn games)`` for the rulesets that need it (``mtg``, ``bo3-wins-against``).
    """

    round: int
    players: tuple[str, ...]
    outcome: Outcome
    winner: str | None = None
    games: tuple[int, int, int] | None = None
    conceded: frozenset[str] = frozenset()  # pods: no share of a draw (MP-PTS-1)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the standings see them.

    late: entered late (tardy, P-TB-1).
    dropped_after_round: last round the player took part in, or None (R-2 freezing).
    disqualified: keeps results for opponents' tiebreakers but receives no place.
    """

    id: str
    late: bool = False
    dropped_after_round: int | None = None
    disqualified: bool = False


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the Swiss standings, in final order.

    place: 1-based, or None for a disqualified player.
    win_pct / owp / oowp: exact Fractions in 0..1 (P-TB-2, P-TB-3, R-1, R-2).
    """

    place: int | None
    player: str
    match_points: int
    wins: int
    losses: int
    ties: int
    win_pct: Fraction
    owp: Fraction
    oowp: Fraction
    dropped: bool = False
    late: bool = False

    @property
    def record(self) -> str:
        return f"{self.wins}-{self.losses}-{self.ties}"


_ROW_FIELDS = (
    "place",
    "player",
    "match_points",
    "wins",
    "losses",
    "ties",
    "win_pct",
    "owp",
    "oowp",
    "dropped",
    "late",
)
if tuple(f.name for f in fields(StandingRow)) != _ROW_FIELDS:  # keep new_row complete
    raise TypeError("new_row must set every field of StandingRow")
(
    _set_place,
    _set_player,
    _set_points,
    _set_wins,
    _set_losses,
    _set_ties,
    _set_win_pct,
    _set_owp,
    _set_oowp,
    _set_dropped,
    _set_late,
) = (StandingRow.__dict__[name].__set__ for name in _ROW_FIELDS)


def new_row(
    place: int | None,
    player: str,
    match_points: int,
    wins: int,
    losses: int,
    ties: int,
    win_pct: Fraction,
    owp: Fraction,
    oowp: Fraction,
    dropped: bool,
    late: bool,
) -> StandingRow:
    """``StandingRow(...)`` with every field given in order, built in half the time.

    A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__``;
    this sets the slots directly, which matters for 4,096 rows. The result is
    an ordinary, equal ``StandingRow``.
    """
    row = object.__new__(StandingRow)
    _set_place(row, place)
    _set_player(row, player)
    _set_points(row, match_points)
    _set_wins(row, wins)
    _set_losses(row, losses)
    _set_ties(row, ties)
    _set_win_pct(row, win_pct)
    _set_owp(row, owp)
    _set_oowp(row, oowp)
    _set_dropped(row, dropped)
    _set_late(row, late)
    return row
