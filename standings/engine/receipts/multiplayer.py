"""Tiebreaker receipts of multiplayer pod standings (``mtg-multiplayer``): MWP, OAMP and
OMWP term by term (MP-TB-1, MP-TB-2, MP-TB-3).

Built from ``multiplayer.multiplayer_counting`` and ``multiplayer.opponent_terms``, the
very totals and term lists the standings average: an opponent's OMWP term below the pod
floor ``1 / (2n − 1)`` is raised to it (MP-TB-3), a smaller pod adds a virtual opponent
at exactly the floor (MP-TB-3), byes are left out of MWP and of the opponents (MP-TB-1,
MP-TB-2).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from fractions import Fraction

from ..multiplayer import (
    PodResult,
    _Tally,
    match_points,
    multiplayer_counting,
    opponent_terms,
    points_per_win,
)
from ..types import Entrant
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


def multiplayer_receipts(
    entrants: Sequence[Entrant],
    results: Sequence[PodResult],
    *,
    rounds: int,
    standard: int = 4,
    phantom_in_oamp: bool = False,
    only: Collection[str] | None = None,
) -> dict[str, Receipt]:
    """The receipt of every entrant (or of the ids in ``only``) after round ``rounds``,
    from the same inputs as ``multiplayer.multiplayer_standings``: ``{id: Receipt}`` with
    the columns ``mwp`` (own), ``oamp`` and ``omwp`` (means over the opponents faced and
    the virtual ones). Raises :class:`~standings.engine.errors.StandingsError` as the
    standings do. Implements the receipts of MP-TB-1, MP-TB-2, MP-TB-3.
    """
    tallies, mwp = multiplayer_counting(entrants, results, rounds=rounds, standard=standard)
    ppw = points_per_win(standard)
    counted = sorted((r for r in results if 1 <= r.round <= rounds), key=lambda r: r.round)
    out: dict[str, Receipt] = {}
    for pid in limit((e.id for e in entrants), only):
        t = tallies[pid]
        oamp, omwp = opponent_terms(t, tallies, mwp, ppw, phantom_in_oamp)
        pods = [r for r in counted if pid in r.players]
        terms = _Terms(t, tallies, mwp, ppw, oamp, omwp, rounds)
        lines = [line for pod in pods for line in terms.lines(pod, pid, standard)]
        out[pid] = Receipt(
            player=pid,
            rounds=rounds,
            as_of=rounds,
            record=_record(t),
            own=terms.floored(pid),
            lines=tuple(lines),
            columns=(
                ColumnReceipt("mwp", Combine.OWN, (terms.mwp(pid),), mwp[pid]),
                ColumnReceipt("oamp", Combine.MEAN, terms.oamp, _mean(oamp)),
                ColumnReceipt("omwp", Combine.MEAN, terms.omwp, _mean(omwp)),
            ),
        )
    return out


def _mean(terms: Sequence[int] | Sequence[Fraction]) -> Fraction:
    """The standings' mean (``multiplayer._row``): 0 without terms."""
    total = sum((Fraction(v) for v in terms), Fraction(0))
    return total / len(terms) if terms else Fraction(0)


class _Terms:
    """One player's OAMP and OMWP terms as Terms, handed out line by line in the engine's
    order: opponents as faced, then the virtual opponents from the lists' tails."""

    def __init__(
        self,
        t: _Tally,
        tallies: dict[str, _Tally],
        mwp: dict[str, Fraction],
        ppw: int,
        oamp: list[int],
        omwp: list[Fraction],
        rounds: int,
    ) -> None:
        self.tallies, self.mwps, self.ppw, self.rounds = tallies, mwp, ppw, rounds
        self.floor = Fraction(1, ppw)
        real = len(t.opponents)
        self.oamp = tuple(self._oamp(v, k >= real) for k, v in enumerate(oamp))
        self.omwp = tuple(
            self._virtual(v) if k >= real else self.floored(t.opponents[k], v)
            for k, v in enumerate(omwp)
        )
        self._real = iter(range(real))
        self._phantoms = iter(range(real, len(omwp)))

    def mwp(self, pid: str) -> Term:
        """A player's own MWP (MP-TB-1): match points without the byes' ÷ the points of
        winning every match played; byes left out, 0 without a match played."""
        t = self.tallies[pid]
        byes = (Applied(Adjustment.BYES_LEFT_OUT, ("MP-TB-1",), count=t.byes),) if t.byes else ()
        parts = (Fraction(t.points - t.byes * self.ppw), Fraction(t.played * self.ppw))
        return Term(self.mwps[pid], self.mwps[pid], byes, parts if t.played else None)

    def floored(self, pid: str, value: Fraction | None = None) -> Term:
        """A player's MWP as an opponent's OMWP counts it: at least the floor (MP-TB-3)."""
        own = self.mwp(pid)
        value = max(own.raw, self.floor) if value is None else value
        floor = (Applied(Adjustment.FLOOR, ("MP-TB-3",), self.floor),) if value > own.raw else ()
        return Term(own.raw, value, own.applied + floor, own.parts)

    def _oamp(self, points: int, virtual: bool) -> Term:
        applied = (Applied(Adjustment.VIRTUAL, ("MP-TB-2",), Fraction(0)),) if virtual else ()
        return Term(Fraction(points), Fraction(points), applied)

    def _virtual(self, value: Fraction) -> Term:
        return Term(value, value, (Applied(Adjustment.VIRTUAL, ("MP-TB-3",), self.floor),))

    def lines(self, pod: PodResult, pid: str, standard: int) -> Iterator[RoundLine]:
        """The lines of one pod: a bye or a late-entry loss alone; else one line per
        opponent, then one per virtual opponent of a smaller pod."""
        if pod.is_bye:
            left_out = Applied(Adjustment.LEFT_OUT, ("MP-TB-1", "MP-TB-2"))
            yield RoundLine(pod.round, LineKind.BYE, None, Result.BYE, applied=(left_out,))
            return
        if pod.late_loss:
            yield RoundLine(pod.round, LineKind.LATE_LOSS, None, Result.LOSS)
            return
        result = _result(pod, pid, standard)
        for o in pod.players:
            if o != pid:
                k = next(self._real)
                record = _record(self.tallies[o])
                terms = {"oamp": self.oamp[k], "omwp": self.omwp[k]}
                yield RoundLine(
                    pod.round, LineKind.MATCH, o, result, record, self.rounds, None, terms
                )
        for _ in range(max(0, standard - len(pod.players))):
            k = next(self._phantoms)
            terms = {"omwp": self.omwp[k]}
            if k < len(self.oamp):
                terms["oamp"] = self.oamp[k]
            yield RoundLine(
                pod.round, LineKind.VIRTUAL, None, Result.NONE, "", self.rounds, None, terms
            )


def _record(t: _Tally) -> str:
    """W-L-D as the standings write it (``MultiplayerRow.record``: byes apart)."""
    return f"{t.wins}-{t.losses}-{t.draws}"


def _result(pod: PodResult, pid: str, standard: int) -> Result:
    """Win, a share of a draw, or a loss (a conceded draw scores nothing, MP-PTS-1)."""
    if pod.winner == pid:
        return Result.WIN
    if pod.winner is None and match_points(pod, pid, standard=standard):
        return Result.DRAW
    return Result.LOSS
