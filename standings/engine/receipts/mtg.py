"""Tiebreaker receipts of the Magic head-to-head standings (``mtg``): OMW, GW and OGW term
by term (M-TB-1…4, R-7, R-8).

Built from ``mtg.mtg_counting``, the totals and percentages the standings themselves
rank by: each line's OMW term is the opponent's floored match-win %, its OGW term their
floored game-win %, and the GW column the player's own floored game-win %. A term above
its plain value was raised to the floor, 0.33 by the MTR and Wizards Event Reporter or
1/3 by melee.gg (M-TB-1, M-TB-2, M-TB-4, R-7); bye rounds have no opponent (M-TB-3);
playoff matches count when the event says so (R-8).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from fractions import Fraction

from ..mtg import MTR_FLOOR, _Tally, _Values, bye_games, late_loss_games, mtg_counting
from ..types import Entrant, MatchRecord, Outcome
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


def mtg_receipts(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    *,
    rounds: int,
    mwp_floor: Fraction = MTR_FLOOR,
    playoffs: Sequence[MatchRecord] = (),
    playoffs_in_tiebreakers: bool = False,
    best_of: int = 3,
    only: Collection[str] | None = None,
) -> dict[str, Receipt]:
    """The receipt of every entrant (or of the ids in ``only``) after Swiss round
    ``rounds``, from the same inputs and options as ``mtg.mtg_standings``: ``{id:
    Receipt}`` with the columns ``omw`` and ``ogw`` (means over the opponents met) and
    ``gw`` (own). Raises :class:`~standings.engine.errors.StandingsError` as the
    standings do. Implements the receipts of M-TB-1…4, R-7, R-8.
    """
    ids = [e.id for e in entrants]
    swiss, tb, values = mtg_counting(
        ids,
        matches,
        rounds=rounds,
        mwp_floor=mwp_floor,
        playoffs=playoffs,
        playoffs_in_tiebreakers=playoffs_in_tiebreakers,
        best_of=best_of,
    )
    read = [m for m in matches if 0 < m.round <= rounds]
    extra = list(playoffs) if playoffs_in_tiebreakers else []
    floor = mwp_floor
    out: dict[str, Receipt] = {}
    for pid in limit(ids, only):
        t = tb[pid]
        met = iter(t.opponents)
        mine = [(m, False) for m in read if pid in m.players]
        mine += [(m, True) for m in extra if pid in m.players]
        lines = [
            line
            for m, playoff in mine
            if (line := _line(m, pid, tb, values, met, floor, best_of, rounds, playoff))
        ]
        if next(met, None) is not None:  # every opponent the engine averaged has a line
            raise AssertionError(f"receipt of {pid}: opponents left without a line")
        played_off = any(playoff for _m, playoff in mine)
        out[pid] = _receipt(pid, swiss[pid], t, values[pid], lines, floor, rounds, played_off)
    return out


def _receipt(
    pid: str,
    swiss: _Tally,
    t: _Tally,
    v: _Values,
    lines: list[RoundLine],
    floor: Fraction,
    rounds: int,
    played_off: bool,
) -> Receipt:
    omw = tuple(line.terms["omw"] for line in lines if "omw" in line.terms)
    ogw = tuple(line.terms["ogw"] for line in lines if "ogw" in line.terms)
    r8 = (Applied(Adjustment.PLAYOFF, ("R-8",)),) if played_off else ()
    default = () if omw else (Applied(Adjustment.DEFAULT, ("M-TB-3", "R-7"), floor),)
    return Receipt(
        player=pid,
        rounds=rounds,
        as_of=rounds,
        record=f"{swiss.wins}-{swiss.losses}-{swiss.draws}",
        own=_mw_term(t, v.mw, floor),
        lines=tuple(lines),
        columns=(
            ColumnReceipt("omw", Combine.MEAN, omw, v.omw, floor, r8 + default),
            ColumnReceipt("gw", Combine.OWN, (_gw_term(t, v, floor, ("M-TB-2", "R-7")),), v.gw),
            ColumnReceipt("ogw", Combine.MEAN, ogw, v.ogw, floor, r8 + default),
        ),
    )  # fmt: skip


def _line(
    m: MatchRecord,
    pid: str,
    tb: dict[str, _Tally],
    values: dict[str, _Values],
    met: Iterator[str],
    floor: Fraction,
    best_of: int,
    rounds: int,
    playoff: bool,
) -> RoundLine | None:
    """The line of one of ``pid``'s matches, read in the engine's order; its opponent is
    the next of ``met`` (the engine's own list). None for a pending match."""
    applied = (Applied(Adjustment.PLAYOFF, ("R-8",)),) if playoff else ()
    if m.outcome == Outcome.PENDING:
        return None
    if m.outcome == Outcome.BYE:
        g = bye_games(best_of)
        left_out = Applied(Adjustment.LEFT_OUT, ("M-TB-3",))
        games = (g.wins_a, g.wins_b, g.draws)
        return RoundLine(m.round, LineKind.BYE, None, Result.BYE, games=games, applied=(left_out,))
    if m.outcome == Outcome.LATE_LOSS:
        g = late_loss_games(best_of)
        games = (g.wins_a, g.wins_b, g.draws)
        return RoundLine(m.round, LineKind.LATE_LOSS, None, Result.LOSS, games=games)
    a, b = m.players
    o = b if a == pid else a
    if next(met, None) != o:
        raise AssertionError(f"receipt of {pid}: opponents out of order")
    t = tb[o]
    terms = {
        "omw": _mw_term(t, values[o].mw, floor),
        "ogw": _gw_term(t, values[o], floor, ("M-TB-4", "R-7")),
    }
    record = f"{t.wins}-{t.losses}-{t.draws}"
    return RoundLine(
        m.round, LineKind.MATCH, o, _result(m, pid), record, rounds, _games(m, pid), terms, applied
    )


def _result(m: MatchRecord, pid: str) -> Result:
    if m.outcome == Outcome.DRAW:
        return Result.DRAW
    return Result.WIN if m.winner == pid else Result.LOSS


def _games(m: MatchRecord, pid: str) -> tuple[int, int, int] | None:
    """The game record from ``pid``'s side, None when the match has none."""
    if m.games is None:
        return None
    a, b, drawn = m.games
    return (a, b, drawn) if m.players[0] == pid else (b, a, drawn)


def _mw_term(t: _Tally, value: Fraction, floor: Fraction) -> Term:
    """Match-win %: match points ÷ (3 × rounds played, byes included), at least the
    floor (M-TB-1, R-7); ``value`` the engine's."""
    raw = Fraction(t.points, 3 * t.rounds) if t.rounds else Fraction(0)
    applied = (Applied(Adjustment.FLOOR, ("M-TB-1", "R-7"), floor),) if value > raw else ()
    return Term(raw, value, applied, (Fraction(t.points), Fraction(3 * t.rounds)))


def _gw_term(t: _Tally, v: _Values, floor: Fraction, rules: tuple[str, ...]) -> Term:
    """Game-win %: game points ÷ (3 × games played), at least the floor (M-TB-2, or
    M-TB-4 as an opponent's); ``v.gw`` the engine's, ``v.gw_unfloored`` the plain one."""
    applied = (Applied(Adjustment.FLOOR, rules, floor),) if v.gw > v.gw_unfloored else ()
    return Term(v.gw_unfloored, v.gw, applied, (Fraction(t.game_points), Fraction(3 * t.games)))
