"""Indexed Swiss history for the Pokémon tiebreakers (private to ``standings.engine``).

Players are numbered 0..n-1 in entrant order. Per player we keep running totals over the
counted rounds and a small log of ``(round, score2, counted, opponent)`` entries so any
player's record *as of* an earlier round can be rebuilt in O(rounds) (R-2 snapshots).

``score2`` is twice the win-% numerator: 2 per win, 1 per tie, 0 per loss (R-1). Byes add
neither score nor a counted round (P-TB-5); late-entry losses and double losses are counted
rounds with score 0 (I-5, R-6). Pending matches are skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import StandingsError
from .types import Entrant, MatchRecord, Outcome

#: ``drop`` value of a player who never dropped: after every round.
NOT_DROPPED = 1 << 30

Entry = tuple[int, int, int, int]  # (round, score2, counted 0/1, opponent index or -1)


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
        self.points = [0] * n
        self.wins = [0] * n
        self.losses = [0] * n
        self.ties = [0] * n
        self.byes = [0] * n
        self.score2 = [0] * n
        self.counted = [0] * n
        self.opps: list[list[int]] = [[] for _ in range(n)]
        self.log: list[list[Entry]] = [[] for _ in range(n)]

    def last_opponent(self, i: int) -> int:
        """Index of the opponent of ``i``'s latest counted round with one, or -1 (P-TB-6)."""
        best_round, best = 0, -1
        for r, _, _, opp in self.log[i]:
            if opp >= 0 and r >= best_round:
                best_round, best = r, opp
        return best

    def _idx(self, pid: str, m: MatchRecord) -> int:
        try:
            return self.index[pid]
        except KeyError:
            raise StandingsError(f"round {m.round}: {pid!r} is not an entrant") from None

    def _pair(self, m: MatchRecord) -> tuple[int, int]:
        if len(m.players) != 2:
            raise StandingsError(f"round {m.round}: a {m.outcome} needs two players")
        return self._idx(m.players[0], m), self._idx(m.players[1], m)

    def _met(self, a: int, b: int, r: int, s2a: int, s2b: int) -> None:
        self.score2[a] += s2a
        self.score2[b] += s2b
        self.counted[a] += 1
        self.counted[b] += 1
        self.opps[a].append(b)
        self.opps[b].append(a)
        self.log[a].append((r, s2a, 1, b))
        self.log[b].append((r, s2b, 1, a))

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
            self.points[a] += 3
            self.wins[a] += 1
            self.losses[b] += 1
            self._met(a, b, m.round, 2, 0)
        elif oc == Outcome.DRAW:
            a, b = self._pair(m)
            self.points[a] += 1
            self.points[b] += 1
            self.ties[a] += 1
            self.ties[b] += 1
            self._met(a, b, m.round, 1, 1)
        elif oc == Outcome.DOUBLE_LOSS:
            a, b = self._pair(m)
            self.losses[a] += 1
            self.losses[b] += 1
            self._met(a, b, m.round, 0, 0)
        elif oc != Outcome.PENDING:
            self._single(m)

    def _single(self, m: MatchRecord) -> None:
        if len(m.players) != 1:
            raise StandingsError(f"round {m.round}: a {m.outcome} has exactly one player")
        a = self._idx(m.players[0], m)
        if m.outcome == Outcome.BYE:
            # A bye is 3 match points and a win in the record, invisible to win % (P-TB-5).
            self.points[a] += 3
            self.wins[a] += 1
            self.byes[a] += 1
            self.log[a].append((m.round, 0, 0, -1))
        elif m.outcome == Outcome.LATE_LOSS:  # a real round for win % (I-5)
            self.losses[a] += 1
            self.counted[a] += 1
            self.log[a].append((m.round, 0, 1, -1))
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
    index, log, opps, points, wins = h.index, h.log, h.opps, h.points, h.wins
    losses, score2, counted = h.losses, h.score2, h.counted
    win = Outcome.WIN
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
        a = index.get(winner, -1)
        b = index.get(loser, -1)
        if a < 0 or b < 0:
            h.add(m)  # raises: unknown player
        points[a] += 3
        wins[a] += 1
        losses[b] += 1
        score2[a] += 2
        counted[a] += 1
        counted[b] += 1
        opps[a].append(b)
        opps[b].append(a)
        log[a].append((r, 2, 1, b))
        log[b].append((r, 0, 1, a))
    return h
