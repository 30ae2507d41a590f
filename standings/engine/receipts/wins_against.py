"""Tiebreaker receipts of the ``bo3-wins-against`` standings: wins against, game wins and
win % term by term (W-TB-1, W-TB-2).

Built from ``wins_against.wins_against_counting`` and ``wins_against.beaten_wins``, the
totals and terms the standings add up: each match won adds the beaten opponent's final
wins (W-TB-1, a bye adds none), each match and bye its game wins (W-TB-2: a bye counts
``bye_game_wins``), and the win % is the player's wins ÷ matches played, byes included.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from fractions import Fraction

from ..types import Entrant, MatchRecord, Outcome
from ..wins_against import _Tally, beaten_wins, wins_against_counting
from .types import (
    Adjustment,
    Applied,
    ColumnReceipt,
    Combine,
    LineKind,
    Receipt,
    Result,
    RoundLine,
    Term,
    limit,
)


def wins_against_receipts(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    *,
    rounds: int,
    bye_game_wins: int = 2,
    only: Collection[str] | None = None,
) -> dict[str, Receipt]:
    """The receipt of every entrant (or of the ids in ``only``) after round ``rounds``,
    from the same inputs as ``wins_against.wins_against_standings``: ``{id: Receipt}``
    with the columns ``wins_against`` (sum over the matches won), ``game_wins`` (sum over
    every match and bye) and ``win_pct`` (own). Raises
    :class:`~standings.engine.errors.StandingsError` as the standings do. Implements the
    receipts of W-TB-1, W-TB-2.
    """
    ids = [e.id for e in entrants]
    tallies = wins_against_counting(ids, matches, rounds=rounds, bye_game_wins=bye_game_wins)
    counted = [m for m in matches if 0 < m.round <= rounds and m.outcome != Outcome.PENDING]
    out: dict[str, Receipt] = {}
    for pid in limit(ids, only):
        t = tallies[pid]
        against = iter(beaten_wins(tallies, t))
        lines = [
            _line(m, pid, tallies, against, bye_game_wins, rounds)
            for m in counted
            if pid in m.players
        ]
        played = t.wins + t.losses
        win_pct = Fraction(t.wins, played) if played else Fraction(0)
        parts = (Fraction(t.wins), Fraction(played)) if played else None
        out[pid] = Receipt(
            player=pid,
            rounds=rounds,
            as_of=rounds,
            record=f"{t.wins}-{t.losses}-0",
            own=None,
            lines=tuple(lines),
            columns=(
                _summed("wins_against", lines, Fraction(sum(beaten_wins(tallies, t)))),
                _summed("game_wins", lines, Fraction(t.game_wins)),
                ColumnReceipt("win_pct", Combine.OWN, (Term(win_pct, win_pct, (), parts),), win_pct),
            ),
        )  # fmt: skip
    return out


def _summed(key: str, lines: list[RoundLine], value: Fraction) -> ColumnReceipt:
    terms = tuple(line.terms[key] for line in lines if key in line.terms)
    return ColumnReceipt(key, Combine.SUM, terms, value)


def _line(
    m: MatchRecord,
    pid: str,
    tallies: dict[str, _Tally],
    against: Iterator[int],
    bye_game_wins: int,
    rounds: int,
) -> RoundLine:
    """One match or bye of ``pid``: the game wins it adds, and for a match won the beaten
    opponent's final wins (the next of ``against``, the engine's terms in order)."""
    if m.outcome == Outcome.BYE:
        games = Fraction(bye_game_wins)
        none = Applied(Adjustment.LEFT_OUT, ("W-TB-1",))
        terms = {
            "game_wins": Term(games, games, (Applied(Adjustment.DEFAULT, ("W-TB-2",), games),))
        }
        return RoundLine(m.round, LineKind.BYE, None, Result.BYE, terms=terms, applied=(none,))
    if m.outcome == Outcome.LATE_LOSS:
        return RoundLine(m.round, LineKind.LATE_LOSS, None, Result.LOSS, terms=_games(0))
    (opponent,) = [p for p in m.players if p != pid]
    record = _record(tallies[opponent])
    if m.outcome == Outcome.DOUBLE_LOSS:
        return RoundLine(
            m.round, LineKind.MATCH, opponent, Result.LOSS, record, rounds, terms=_games(0)
        )
    mine, theirs = (m.games or (0, 0, 0))[:2]
    if m.players[0] != pid:
        mine, theirs = theirs, mine
    terms = _games(mine)
    result = Result.WIN if m.winner == pid else Result.LOSS
    if result is Result.WIN:
        beaten = Fraction(next(against))
        terms["wins_against"] = Term(beaten, beaten)
    return RoundLine(
        m.round, LineKind.MATCH, opponent, result, record, rounds, (mine, theirs, 0), terms
    )


def _games(won: int) -> dict[str, Term]:
    return {"game_wins": Term(Fraction(won), Fraction(won))}


def _record(t: _Tally) -> str:
    return f"{t.wins}-{t.losses}-0"
