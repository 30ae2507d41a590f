"""Indexed Swiss history for the Pokémon tiebreakers (private to ``standings.engine``).

Players are numbered 0..n-1 in entrant order. Per player we keep running totals over the
counted rounds, the opponents met, and a small log of entries so any player's record *as
of* an earlier round can be rebuilt in O(rounds) (R-2 snapshots).

A log entry is one int packing ``(round, score2, counted, opponent + 1)`` from the high
bits to the low ones, the opponent field just wide enough for the entrants
(:meth:`History.entry`): an int is not tracked by the garbage collector, so logging 2
entries per match costs no collection passes (4-tuples did, and were most of the time of
4,096 × 9), and for up to thousands of players and rounds an entry fits in one machine
word, where Python's int operations are fastest.

``score2`` is twice the win-% numerator: 2 per win, 1 per tie, 0 per loss (R-1). Byes add
neither score nor a counted round (P-TB-5); late-entry losses and double losses are counted
rounds with score 0 (I-5, R-6). Pending matches are skipped. Match points, ``score2`` and
``counted`` follow from the wins, losses, ties and byes, so they are computed once at the
end (:meth:`History.finish`) instead of per match.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import StandingsError
from .types import Entrant, MatchRecord, Outcome

#: ``drop`` value of a player who never dropped: after every round.
NOT_DROPPED = 1 << 30


class History:
    """Totals and logs of every entrant over rounds 1..``rounds`` (mutable while built)."""

    __slots__ = (
        "ids",
        "index",
        "rounds",
        "drop",
        "late",
        "points",
        "wins",
        "losses",
        "ties",
        "byes",
        "score2",
        "counted",
        "opps",
        "log",
        "opponent_mask",
        "score_shift",
        "round_shift",
        "won",
        "tied",
        "lost",
    )

    def __init__(self, entrants: Sequence[Entrant], rounds: int) -> None:
        n = len(entrants)
        self.ids = [e.id for e in entrants]
        self.index = {pid: i for i, pid in enumerate(self.ids)}
        if len(self.index) != n:
            raise StandingsError("two entrants share the same id")
        self.rounds = rounds
        self.drop = [
            NOT_DROPPED if e.dropped_after_round is None else e.dropped_after_round
            for e in entrants
        ]
        self.late = [e.late for e in entrants]
        self.wins = [0] * n
        self.losses = [0] * n
        self.ties = [0] * n
        self.byes = [0] * n
        self.points: list[int] = []
        self.score2: list[int] = []
        self.counted: list[int] = []
        self.opps: list[list[int]] = [[] for _ in range(n)]
        self.log: list[list[int]] = [[] for _ in range(n)]
        # Entry layout: round | score2 (2 bits) | counted (1 bit) | opponent + 1 (0..n).
        width = n.bit_length()
        self.opponent_mask = (1 << width) - 1
        self.score_shift = width + 1
        self.round_shift = width + 3
        self.lost = 1 << width  # counted, score 0
        self.tied = self.lost + (1 << self.score_shift)
        self.won = self.lost + (2 << self.score_shift)

    def entry(self, rnd: int, result: int, opponent: int) -> int:
        """One log entry: ``result`` is ``won``, ``tied``, ``lost`` or 0 (a bye: not a
        counted round); ``opponent`` an index or -1."""
        return (rnd << self.round_shift) + result + opponent + 1

    def finish(self) -> None:
        """Match points (3 per win or bye, 1 per tie), ``score2`` and rounds counted (byes
        excluded, P-TB-5) from the totals; called once every match is added."""
        wins, ties, byes = self.wins, self.ties, self.byes
        self.points = [3 * w + t for w, t in zip(wins, ties, strict=True)]
        self.score2 = [2 * (w - b) + t for w, t, b in zip(wins, ties, byes, strict=True)]
        self.counted = [
            w - b + t + lo for w, t, b, lo in zip(wins, ties, byes, self.losses, strict=True)
        ]

    def last_opponent(self, i: int) -> int:
        """Index of the opponent of ``i``'s latest counted round with one, or -1 (P-TB-6)."""
        best_round, best = 0, -1
        mask, shift = self.opponent_mask, self.round_shift
        for e in self.log[i]:
            if e & mask and e >> shift >= best_round:
                best_round, best = e >> shift, (e & mask) - 1
        return best

    def wins_against(self, a: int, b: int) -> int:
        """Matches ``a`` won against ``b`` in the counted rounds (P-TB-4)."""
        won, result = self.won + b + 1, (1 << self.round_shift) - 1
        return sum(1 for e in self.log[a] if e & result == won)

    def record_as_of(self, i: int, r: int) -> tuple[int, int]:
        """``(score2, rounds counted)`` of player ``i`` over rounds <= ``r`` (R-2)."""
        s2 = n = 0
        limit = (r + 1) << self.round_shift  # entries of rounds <= r are below it
        score, counted = self.score_shift, self.score_shift - 1
        for e in self.log[i]:
            if e < limit:
                s2 += e >> score & 3
                n += e >> counted & 1
        return s2, n

    def opponents_as_of(self, i: int, r: int) -> list[int]:
        """Indexes of the opponents ``i`` met in rounds <= ``r``, in log order (R-2)."""
        limit, mask = (r + 1) << self.round_shift, self.opponent_mask
        return [(e & mask) - 1 for e in self.log[i] if e < limit and e & mask]

    def entries_as_of(self, i: int, r: int) -> list[tuple[int, int, bool, int]]:
        """Player ``i``'s log over rounds <= ``r``, in log order, decoded: ``(round,
        score2, counted, opponent index or -1)``; a bye is ``(round, 0, False, -1)``, a
        late-entry loss ``(round, 0, True, -1)`` (the tiebreaker receipts read it)."""
        limit, mask = (r + 1) << self.round_shift, self.opponent_mask
        score, counted = self.score_shift, self.score_shift - 1
        return [
            (e >> self.round_shift, e >> score & 3, bool(e >> counted & 1), (e & mask) - 1)
            for e in self.log[i]
            if e < limit
        ]

    def _idx(self, pid: str, m: MatchRecord) -> int:
        try:
            return self.index[pid]
        except KeyError:
            raise StandingsError(f"round {m.round}: {pid!r} is not an entrant") from None

    def _pair(self, m: MatchRecord) -> tuple[int, int]:
        if len(m.players) != 2:
            raise StandingsError(f"round {m.round}: a {m.outcome} needs two players")
        return self._idx(m.players[0], m), self._idx(m.players[1], m)

    def _met(self, a: int, b: int, r: int, won_a: int, won_b: int) -> None:
        self.opps[a].append(b)
        self.opps[b].append(a)
        self.log[a].append(self.entry(r, won_a, b))
        self.log[b].append(self.entry(r, won_b, a))

    def add(self, m: MatchRecord) -> None:
        """Record one match of a counted round (P-TB-2, P-TB-5, R-1, R-6, I-5).

        Raises StandingsError for unknown players or a result that does not fit the
        number of players (a win whose winner is not one of the two players…).
        """
        oc = m.outcome
        if oc == Outcome.WIN:
            a, b = self._pair(m)
            if m.winner == m.players[1]:
                a, b = b, a
            elif m.winner != m.players[0]:
                raise StandingsError(f"round {m.round}: winner {m.winner!r} did not play")
            self.wins[a] += 1
            self.losses[b] += 1
            self._met(a, b, m.round, self.won, self.lost)
        elif oc == Outcome.DRAW:
            a, b = self._pair(m)
            self.ties[a] += 1
            self.ties[b] += 1
            self._met(a, b, m.round, self.tied, self.tied)
        elif oc == Outcome.DOUBLE_LOSS:
            a, b = self._pair(m)
            self.losses[a] += 1
            self.losses[b] += 1
            self._met(a, b, m.round, self.lost, self.lost)
        elif oc != Outcome.PENDING:
            self._single(m)

    def _single(self, m: MatchRecord) -> None:
        if len(m.players) != 1:
            raise StandingsError(f"round {m.round}: a {m.outcome} has exactly one player")
        a = self._idx(m.players[0], m)
        if m.outcome == Outcome.BYE:
            # A bye is 3 match points and a win in the record, invisible to win % (P-TB-5).
            self.wins[a] += 1
            self.byes[a] += 1
            self.log[a].append(self.entry(m.round, 0, -1))
        elif m.outcome == Outcome.LATE_LOSS:  # a real round for win % (I-5)
            self.losses[a] += 1
            self.log[a].append(self.entry(m.round, self.lost, -1))
        else:
            raise StandingsError(f"round {m.round}: unknown outcome {m.outcome!r}")


def build_history(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], rounds: int
) -> History:
    """A :class:`History` of the matches with ``1 <= round <= rounds``; pending skipped.

    Raises StandingsError (see :meth:`History.add`) and for negative ``rounds``.
    """
    if rounds < 0:
        raise StandingsError(f"rounds must be 0 or more, got {rounds}")
    h = History(entrants, rounds)
    index, log, opps, wins, losses = h.index, h.log, h.opps, h.wins, h.losses
    win, shift, won, lost = Outcome.WIN, h.round_shift, h.won + 1, h.lost + 1  # + 1: opponent
    for m in matches:
        r = m.round
        if not 0 < r <= rounds:
            continue
        # Fast path for the common decided match; everything else goes through add().
        # ``is not``: an outcome that is not the enum member itself takes the slow path.
        if m.outcome is not win:
            h.add(m)
            continue
        players = m.players
        if len(players) != 2:
            h.add(m)  # raises: a win needs two players
            continue
        winner, loser = players
        if m.winner != winner:
            if m.winner != loser:
                h.add(m)  # raises: the winner did not play
                continue
            winner, loser = loser, winner
        try:
            a = index[winner]
            b = index[loser]
        except KeyError:
            h.add(m)  # raises: unknown player
            raise
        wins[a] += 1
        losses[b] += 1
        opps[a].append(b)
        opps[b].append(a)
        r <<= shift
        log[a].append(r + won + b)
        log[b].append(r + lost + a)
    h.finish()
    return h
