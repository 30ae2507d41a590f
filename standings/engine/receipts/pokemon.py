"""Tiebreaker receipts of the Pokémon standings (``pokemon``, ``pokemon-2009``): OWP and
OOWP term by term (P-TB-2, P-TB-3, P-TB-5, R-1, R-2, I-5).

Built from :class:`standings.engine.tiebreakers.Counting`, the object the standings
themselves average (``scaled_tiebreakers``): each line's OWP term is the opponent's win %
numerator the standings summed, its OOWP term the opponent's OWP numerator, and each
column's value the standings' own. Nothing here decides a value; it only names what the
engine did: a term above its plain record was raised to the 25 % floor (P-TB-2), one
below was capped at 75 % for a dropped player (P-TB-2), byes are in neither part of a
win % (P-TB-5), a dropped player's columns are as of their drop round (R-2).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from fractions import Fraction

from .._history import History, build_history
from ..tiebreakers import CAP, FLOOR, Counting, Scaled
from ..types import Entrant, MatchRecord
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

_RESULTS = {2: Result.WIN, 1: Result.DRAW, 0: Result.LOSS}
_FLOOR = Applied(Adjustment.FLOOR, ("P-TB-2",), FLOOR)
_CAP = Applied(Adjustment.CAP, ("P-TB-2", "R-2"), CAP)


def pokemon_receipts(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    *,
    rounds: int,
    only: Collection[str] | None = None,
) -> dict[str, Receipt]:
    """The receipt of every entrant (or of the ids in ``only``) after Swiss round
    ``rounds``, from the same inputs as ``ranking.pokemon_standings`` (and the 2009
    ruleset's, whose tiebreakers are the same): ``{id: Receipt}`` with the columns
    ``owp`` and ``oowp``, each the mean of one term per opponent. Raises
    :class:`~standings.engine.errors.StandingsError` as the standings do. Implements the
    receipts of P-TB-2, P-TB-3, P-TB-5, R-1, R-2, I-5.
    """
    h = build_history(entrants, matches, rounds)
    counting = Counting(h)
    scaled = counting.scaled()
    return {pid: _receipt(counting, scaled, h.index[pid]) for pid in limit(h.ids, only)}


def _receipt(c: Counting, scaled: Scaled, i: int) -> Receipt:
    h = c.h
    r = c.as_of(i)
    win_terms, owp_terms = c.win_terms(i), c.owp_terms(i)
    opponents = iter(zip(c.opponents(i), win_terms, owp_terms, strict=True))
    lines: list[RoundLine] = []
    owp: list[Term] = []
    oowp: list[Term] = []
    for rnd, score2, counted, o in h.entries_as_of(i, r):
        if o < 0:
            lines.append(_lonely(rnd, counted))
            continue
        opponent, win_num, owp_num = next(opponents)
        if opponent != o:  # the Counting's opponents are this log's, in this order
            raise AssertionError(f"receipt of {h.ids[i]}: opponents out of order")
        line = _line(c, rnd, _RESULTS[score2], o, r, win_num, owp_num)
        owp.append(line.terms["owp"])
        oowp.append(line.terms["oowp"])
        lines.append(line)
    frozen = (Applied(Adjustment.FROZEN, ("R-2",), round=r),) if r < h.rounds else ()
    return Receipt(
        player=h.ids[i],
        rounds=h.rounds,
        as_of=r,
        record=f"{h.wins[i]}-{h.losses[i]}-{h.ties[i]}",
        own=_win_term(_record(h, i, h.rounds), Fraction(c.win[i], c.win_den)),
        lines=tuple(lines),
        columns=(
            ColumnReceipt(
                "owp", Combine.MEAN, tuple(owp), Fraction(scaled.owp[i], scaled.owp_den),
                applied=frozen,
            ),
            ColumnReceipt(
                "oowp", Combine.MEAN, tuple(oowp), Fraction(scaled.oowp[i], scaled.oowp_den),
                applied=frozen,
            ),
        ),
    )  # fmt: skip


def _lonely(rnd: int, counted: bool) -> RoundLine:
    """A round without an opponent: a bye, left out of every win % (P-TB-5), or a
    late-entry loss, a counted loss with nobody to average (I-5)."""
    if counted:
        return RoundLine(rnd, LineKind.LATE_LOSS, None, Result.LOSS)
    left_out = Applied(Adjustment.LEFT_OUT, ("P-TB-5",))
    return RoundLine(rnd, LineKind.BYE, None, Result.BYE, applied=(left_out,))


def _line(
    c: Counting, rnd: int, result: Result, o: int, r: int, win_num: int, owp_num: int
) -> RoundLine:
    """The line of opponent ``o`` met in round ``rnd``, their figures as of round ``r``:
    the win % term (the engine's ``win_num``) and the OWP term (``owp_num``)."""
    h = c.h
    won, tied, lost, byes = record = _record(h, o, r)
    win = _win_term(record, Fraction(win_num, c.win_den))
    frozen_at = min(r, h.drop[o])
    owp_value = Fraction(owp_num, c.owp_den)
    owp_applied = (Applied(Adjustment.FROZEN, ("R-2",), round=frozen_at),) if frozen_at < r else ()
    applied = (Applied(Adjustment.BYES_LEFT_OUT, ("P-TB-5",), count=byes),) if byes else ()
    return RoundLine(
        round=rnd,
        kind=LineKind.MATCH,
        opponent=h.ids[o],
        result=result,
        record=f"{won}-{lost}-{tied}",
        as_of=r,
        terms={"owp": win, "oowp": Term(owp_value, owp_value, owp_applied)},
        applied=applied,
    )


def _record(h: History, o: int, r: int) -> tuple[int, int, int, int]:
    """Player ``o``'s wins, ties, losses (late-entry and double losses included) and byes
    over rounds <= ``r`` (R-1: a bye is in neither part of the win %)."""
    won = tied = lost = byes = 0
    for _rnd, score2, counted, _opponent in h.entries_as_of(o, r):
        if not counted:
            byes += 1
        elif score2 == 2:
            won += 1
        elif score2 == 1:
            tied += 1
        else:
            lost += 1
    return won, tied, lost, byes


def _win_term(record: tuple[int, int, int, int], value: Fraction) -> Term:
    """A win % term from a :func:`_record`: ``value`` the engine's, ``raw`` (wins + ½
    ties) ÷ rounds counted (R-1); a value above raw was raised to the floor, below it
    capped for a dropped player (P-TB-2)."""
    won, tied, lost, _byes = record
    counted = won + tied + lost
    score = Fraction(2 * won + tied, 2)
    raw = score / counted if counted else Fraction(0)
    applied = (_FLOOR,) if value > raw else (_CAP,) if value < raw else ()
    return Term(raw, value, applied, (score, Fraction(counted)))
