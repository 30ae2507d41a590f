"""Final places after single elimination: top cut (P-TC) and standalone (P-SE).

Both functions read the single-elimination matches the same way: rounds are taken in
increasing order; the loser of a decided match is *eliminated in* that round (both
players for a double loss); a match between two players who were already eliminated is a
placement playoff (the 3rd/4th place match, P-SE-6 / P-TC-4) whose winner takes the better
of the two places. Pending matches decide nothing; players never eliminated are "alive"
and rank above everyone eliminated (during the cut, the final standings are provisional).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import StandingsError
from .types import MatchRecord, Outcome

_ALIVE = 1 << 30  # "eliminated in" value of a player still in: later than any round

#: How the 3rd/4th place playoff's ``why`` starts (P-SE-6, P-TC-4): the pairing engine
#: writes it, the standings and the bracket pages read it to tell the playoff from a slot.
THIRD_PLACE_WHY = "3rd/4th place playoff"


@dataclass(frozen=True, slots=True)
class Bracket:
    """What the elimination matches say.

    eliminated_in: player -> round they lost in; eliminator: player -> who beat them
    (absent after a double loss); wins / losses: every player of every match (pending
    included) -> final record, byes and playoffs counted; playoffs: ``(winner, loser)`` of
    each placement playoff.
    """

    eliminated_in: dict[str, int] = field(default_factory=dict)
    eliminator: dict[str, str] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    losses: dict[str, int] = field(default_factory=dict)
    playoffs: tuple[tuple[str, str], ...] = ()


def read_bracket(matches: Sequence[MatchRecord]) -> Bracket:
    """Read single-elimination results (P-SE-3, P-SE-6, P-TC-4) into a :class:`Bracket`.

    Raises :class:`~standings.engine.errors.StandingsError` for a draw (no draws in
    single elimination, M-SE-2), for a win whose winner did not play, or for a match
    involving one already-eliminated player and one still alive.
    """
    bracket = Bracket()
    playoffs: list[tuple[str, str]] = []
    for m in sorted(matches, key=lambda m: m.round):
        for pid in m.players:
            bracket.wins.setdefault(pid, 0)
            bracket.losses.setdefault(pid, 0)
        if m.outcome == Outcome.PENDING:
            continue
        if m.outcome == Outcome.DRAW:
            raise StandingsError(f"round {m.round}: a single-elimination match cannot be a draw")
        if m.outcome == Outcome.BYE:
            bracket.wins[m.players[0]] += 1
            continue
        out = [p for p in m.players if p in bracket.eliminated_in]
        if out and len(out) != len(m.players):
            raise StandingsError(f"round {m.round}: {out[0]!r} was already eliminated")
        _record(bracket, m, playoffs if out else None)
    return Bracket(
        bracket.eliminated_in, bracket.eliminator, bracket.wins, bracket.losses, tuple(playoffs)
    )


def _record(bracket: Bracket, m: MatchRecord, playoffs: list[tuple[str, str]] | None) -> None:
    if m.outcome == Outcome.WIN:
        winner = m.winner
        if winner is None or winner not in m.players or len(m.players) != 2:
            raise StandingsError(f"round {m.round}: winner {winner!r} did not play")
        loser = m.players[1] if winner == m.players[0] else m.players[0]
        bracket.wins[winner] += 1
        bracket.losses[loser] += 1
        if playoffs is not None:
            playoffs.append((winner, loser))
            return
        bracket.eliminated_in[loser] = m.round
        bracket.eliminator[loser] = winner
    else:  # double loss or a late-entry loss: everyone listed loses, and is out
        for pid in m.players:
            bracket.losses[pid] += 1
            if playoffs is None:
                bracket.eliminated_in[pid] = m.round


def _apply_playoffs(order: list[str], playoffs: Sequence[tuple[str, str]]) -> None:
    """Put each playoff winner on the better of the two places the pair holds."""
    for winner, loser in playoffs:
        w, lo = order.index(winner), order.index(loser)
        if w > lo:
            order[w], order[lo] = loser, winner


def top_cut_places(
    swiss_order: Sequence[str], cut_matches: Sequence[MatchRecord]
) -> tuple[str, ...]:
    """Final order of every player after a top cut (Swiss plus single elimination).

    swiss_order: every player of the division in Swiss standings order (1st first).
    cut_matches: the top cut's matches (any rounds, any order); the cut is the set of
        players appearing in them.

    Returns all ids of ``swiss_order``, best first: cut players first (P-TC-2), ordered
    alive first, then by the round they were eliminated in (later is better), ties by
    Swiss rank (P-TC-3, R-4: a top-8 1st seed losing the quarter-final finishes 5th); a
    3rd/4th playoff, if played, orders its two players (P-TC-4). Players outside the cut
    keep their Swiss order below. Raises StandingsError if a cut player is not in
    ``swiss_order`` or the results are inconsistent (see :func:`read_bracket`).
    """
    seed = {pid: k for k, pid in enumerate(swiss_order)}
    bracket = read_bracket(cut_matches)
    cut = {pid for m in cut_matches for pid in m.players}
    unknown = sorted(cut - seed.keys())
    if unknown:
        raise StandingsError(f"top cut player {unknown[0]!r} is not in the Swiss standings")
    ranked = sorted(cut, key=lambda p: (-bracket.eliminated_in.get(p, _ALIVE), seed[p]))
    _apply_playoffs(ranked, bracket.playoffs)
    return tuple(ranked) + tuple(p for p in swiss_order if p not in cut)


def single_elimination_places(
    seeds: Sequence[str], matches: Sequence[MatchRecord]
) -> tuple[str, ...]:
    """Final order of a standalone single-elimination event (P-SE-5, P-SE-6, I-2).

    seeds: every player, 1st seed first. matches: all matches of the bracket, byes
    included as Outcome.BYE records.

    The winner is 1st; everyone else is ranked by the round they were knocked out in
    (later is better), then by the final record of the opponent who knocked them out
    (more wins, then fewer losses; byes and playoffs count: a round-1 loser to the eventual
    winner ranks above all other round-1 losers), then by their own seed (I-2). A 3rd/4th
    playoff, if played, orders its two players (P-SE-6). Players who never appear in a
    match keep their seed order at the end. Raises StandingsError for inconsistent results.
    """
    seed = {pid: k for k, pid in enumerate(seeds)}
    bracket = read_bracket(matches)
    unknown = sorted(bracket.wins.keys() - seed.keys())
    if unknown:
        raise StandingsError(f"player {unknown[0]!r} is not among the seeds")

    def key(p: str) -> tuple[int, int, int, int]:
        by = bracket.eliminator.get(p)
        wins, losses = (bracket.wins[by], bracket.losses[by]) if by else (0, 1 << 30)
        return (-bracket.eliminated_in.get(p, _ALIVE), -wins, losses, seed[p])

    ranked = sorted(bracket.wins.keys(), key=key)
    _apply_playoffs(ranked, bracket.playoffs)
    return tuple(ranked) + tuple(p for p in seeds if p not in bracket.wins)
