"""Pokémon tiebreakers: win %, OWP and OOWP with dropped players frozen (P-TB, R-1, R-2).

Semantics (reproduce the official TOM standings of ``2025-dg-nov-cup.tdf`` exactly):

* **Win %** (P-TB-2, R-1, P-TB-5, I-5): (wins + ½ ties) ÷ rounds counted. Rounds counted
  are the player's non-bye results in the rounds considered: wins, ties, losses, late-entry
  losses and double losses. A bye is in neither part. Floor 1/4 always; cap 3/4 for a
  dropped player. With no round counted the value is the floor, 1/4.
* **OWP** (P-TB-2): mean win % of the opponents met (one term per match, byes and
  late-entry losses have no opponent). **OOWP** (P-TB-3): mean OWP of those opponents.
  A player without opponents has OWP = OOWP = 0.
* **Snapshots** (R-2): the tiebreakers "as of round r" use every record up to round r
  only. A player is *dropped as of r* when ``dropped_after_round <= r``; only then is the
  3/4 cap applied. A player who dropped after round d < r has, as of r, the OWP and OOWP of
  the snapshot as of d (frozen); other players' OOWP then averages that frozen OWP.
  Final standings after N rounds are the snapshot as of N, so a dropped player's own
  OWP/OOWP are entirely computed from everyone's records as of their drop round, and
  recursively for opponents who dropped even earlier.

  Found on the real event: Masters players 10 and 18 (both 1-3, dropped after round 4)
  have equal frozen OWP 9/16; the official order (10 above 18) only follows when their
  OOWP averages the opponents' OWP *as of round 4* (31/64 vs 15/32). Averaging the
  opponents' final OWP gives the reverse; not freezing OWP at all puts 10 (OWP 3/5) above
  the 1-4 player 7 (57/100), also contrary to the official order. Counting byes as wins,
  ties as 0, or dividing a dropped player's wins by all Swiss rounds each breaks another
  official place (Seniors / Masters).

Implementation: numerators are integers over common denominators (win % over
``D = 4·lcm(1..k)``, OWP over ``D·L``, OOWP over ``D·L²`` with ``L = lcm(1..k)``, k the most
rounds any player counted), so comparisons are exact and fast; ``Fraction`` only at the
end. Snapshots are computed lazily (memoised) for dropped players only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from ._history import History, build_history
from .types import Entrant, MatchRecord

FLOOR = Fraction(1, 4)
CAP = Fraction(3, 4)


@dataclass(frozen=True, slots=True)
class Tiebreakers:
    """One player's tiebreakers: exact Fractions in 0..1."""

    win_pct: Fraction
    owp: Fraction
    oowp: Fraction


def win_percentage(wins: int, ties: int, rounds_counted: int, *, dropped: bool = False) -> Fraction:
    """A player's own win %: ``(wins + ties/2) / rounds_counted``, floor 1/4, cap 3/4 if dropped.

    ``wins`` exclude byes and ``rounds_counted`` excludes bye rounds (P-TB-5, R-1); late-entry
    losses are counted rounds (I-5). 3 wins of 5 → 3/5; 0 of 5 → 1/4; 1 of 1 then dropped →
    3/4; 3-1-1 → 7/10. With ``rounds_counted == 0`` the floor 1/4. Implements P-TB-2, R-1.
    Raises ValueError for negative counts or more results than rounds counted.
    """
    if min(wins, ties, rounds_counted) < 0 or wins + ties > rounds_counted:
        raise ValueError(f"impossible record: {wins} wins, {ties} ties in {rounds_counted}")
    if rounds_counted == 0:
        return FLOOR
    value = max(Fraction(2 * wins + ties, 2 * rounds_counted), FLOOR)
    return min(value, CAP) if dropped else value


@dataclass(frozen=True, slots=True)
class Scaled:
    """Integer numerators per player index: ``win/win_den``, ``owp/owp_den``, ``oowp/oowp_den``."""

    win: list[int]
    owp: list[int]
    oowp: list[int]
    win_den: int
    owp_den: int
    oowp_den: int

    def fractions(self) -> list[Tiebreakers]:
        """Exact :class:`Tiebreakers` per player index (Fractions cached by numerator)."""
        return [
            Tiebreakers(w, o, oo)
            for w, o, oo in zip(
                _to_fractions(self.win, self.win_den),
                _to_fractions(self.owp, self.owp_den),
                _to_fractions(self.oowp, self.oowp_den),
                strict=True,
            )
        ]


def _to_fractions(nums: list[int], den: int) -> list[Fraction]:
    cache: dict[int, Fraction] = {}
    out: list[Fraction] = []
    for num in nums:
        f = cache.get(num)
        if f is None:
            f = cache[num] = Fraction(num, den)
        out.append(f)
    return out


class _Snapshots:
    """Memoised tiebreakers as of an earlier round, for R-2 (integer numerators)."""

    def __init__(self, h: History, d: int, ldiv: list[int]) -> None:
        self.h = h
        self.scale = [0] + [d // (2 * k) for k in range(1, len(ldiv))]
        self.floor, self.cap = d // 4, 3 * d // 4
        self.ldiv = ldiv
        # Keyed by ``r * players + x``: one int, no tuple per call.
        self.players = len(h.ids)
        self._win: dict[int, int] = {}
        self._owp: dict[int, int] = {}
        self._oowp: dict[int, int] = {}

    def win(self, x: int, r: int) -> int:
        """Win % numerator of player ``x`` from rounds <= r; capped if dropped by r."""
        key = r * self.players + x
        v = self._win.get(key)
        if v is None:
            s2, n = self.h.record_as_of(x, r)
            v = s2 * self.scale[n] if n else self.floor
            if v < self.floor:
                v = self.floor
            elif v > self.cap and self.h.drop[x] <= r:
                v = self.cap
            self._win[key] = v
        return v

    def win_terms(self, x: int, r: int) -> list[int]:
        """Win % numerators of the opponents ``x`` met in rounds <= r, each as of r, in the
        order met: the terms of ``x``'s OWP as of r (P-TB-2, P-TB-5, R-2)."""
        return [self.win(o, r) for o in self.h.opponents_as_of(x, r)]

    def owp_terms(self, x: int, r: int) -> list[int]:
        """OWP numerators of the opponents ``x`` met in rounds <= r, each as of r (and
        frozen at their own drop round): the terms of ``x``'s OOWP as of r (P-TB-3, R-2)."""
        return [self.owp(o, r) for o in self.h.opponents_as_of(x, r)]

    def mean(self, terms: list[int]) -> int:
        """The mean of ``terms`` (numerators over one denominator) as a numerator over that
        denominator times ``L``; 0 without terms (a player without opponents)."""
        return sum(terms) * self.ldiv[len(terms)] if terms else 0

    def owp(self, x: int, r: int) -> int:
        """OWP numerator of ``x`` as of round r; frozen at the drop round (R-2)."""
        r = min(r, self.h.drop[x])
        key = r * self.players + x
        v = self._owp.get(key)
        if v is None:
            v = self._owp[key] = self.mean(self.win_terms(x, r))
        return v

    def oowp(self, x: int, r: int) -> int:
        """OOWP numerator of ``x`` as of round r; frozen at the drop round (R-2)."""
        r = min(r, self.h.drop[x])
        key = r * self.players + x
        v = self._oowp.get(key)
        if v is None:
            v = self._oowp[key] = self.mean(self.owp_terms(x, r))
        return v


class Counting:
    """What every player's OWP and OOWP are averaged from, after round ``h.rounds``
    (P-TB-2, P-TB-3, P-TB-5, R-1, R-2): the standings (:func:`scaled_tiebreakers`) and
    the tiebreaker receipts (``standings.engine.receipts``) read the same term lists, so
    the two cannot disagree.

    Values are integer numerators: ``win`` (each player's own win %, floored and, for a
    dropped player, capped) over ``win_den``; ``owp`` (filled by :meth:`scaled`) over
    ``owp_den``; OOWP over ``oowp_den``. ``snap`` holds the values as of earlier rounds.
    """

    def __init__(self, h: History) -> None:
        most = max(max(h.counted, default=0), 1)
        big_l = lcm(*range(1, most + 1))
        self.h = h
        self.win_den = 4 * big_l
        self.owp_den = self.win_den * big_l
        self.oowp_den = self.owp_den * big_l
        ldiv = [0] + [big_l // k for k in range(1, most + 1)]
        self.snap = _Snapshots(h, self.win_den, ldiv)
        self.win = _final_win(h, self.snap)
        self.owp: list[int] = []

    def as_of(self, i: int) -> int:
        """The round player ``i``'s OWP and OOWP are taken as of: the round they dropped
        after when that is before the last round (frozen, R-2), else the last round."""
        return min(self.h.drop[i], self.h.rounds)

    def opponents(self, i: int) -> list[int]:
        """Indexes of the opponents behind ``i``'s OWP and OOWP, in the order met: those
        met up to :meth:`as_of` (byes and late-entry losses have none, P-TB-5, I-5)."""
        r = self.as_of(i)
        return self.h.opponents_as_of(i, r) if r < self.h.rounds else self.h.opps[i]

    def win_terms(self, i: int) -> list[int]:
        """The win % numerators averaged into ``i``'s OWP, one per opponent of
        :meth:`opponents`, each as of :meth:`as_of` (P-TB-2, R-1, R-2)."""
        r = self.as_of(i)
        if r < self.h.rounds:
            return self.snap.win_terms(i, r)
        win = self.win
        return [win[o] for o in self.h.opps[i]]

    def owp_terms(self, i: int) -> list[int]:
        """The OWP numerators averaged into ``i``'s OOWP, one per opponent of
        :meth:`opponents` (P-TB-3, R-2). Needs :meth:`scaled` first."""
        r = self.as_of(i)
        if r < self.h.rounds:
            return self.snap.owp_terms(i, r)
        owp = self.owp
        return [owp[o] for o in self.h.opps[i]]

    def scaled(self) -> Scaled:
        """Every player's win %, OWP and OOWP numerators: the means of the term lists."""
        mean, players = self.snap.mean, range(len(self.win))
        self.owp = [mean(self.win_terms(i)) for i in players]
        oowp = [mean(self.owp_terms(i)) for i in players]
        return Scaled(self.win, self.owp, oowp, self.win_den, self.owp_den, self.oowp_den)


def scaled_tiebreakers(h: History) -> Scaled:
    """Win %, OWP and OOWP numerators of every player of ``h`` as of ``h.rounds`` (R-2):
    the means of :class:`Counting`'s term lists.

    Implements P-TB-2, P-TB-3, P-TB-5, P-TB-7, R-1, R-2, I-5; see the module docstring.
    """
    return Counting(h).scaled()


def _final_win(h: History, snap: _Snapshots) -> list[int]:
    scale, floor, cap, last = snap.scale, snap.floor, snap.cap, h.rounds
    win: list[int] = []
    for s2, n, dropped in zip(h.score2, h.counted, h.drop, strict=True):
        v = s2 * scale[n] if n else floor
        if v < floor:
            v = floor
        elif v > cap and dropped <= last:
            v = cap
        win.append(v)
    return win


def pokemon_tiebreakers(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], *, rounds: int
) -> dict[str, Tiebreakers]:
    """Win %, OWP and OOWP (Fractions 0..1) of every entrant after Swiss round ``rounds``.

    ``matches`` may hold any rounds: only ``1 <= round <= rounds`` count, pending matches
    are ignored. Returns ``{entrant id: Tiebreakers}``. Raises
    :class:`~standings.engine.errors.StandingsError` for unknown players, duplicate
    entrant ids or inconsistent match records. Implements P-TB-2, P-TB-3, P-TB-5, R-1, R-2.
    """
    h = build_history(entrants, matches, rounds)
    return dict(zip(h.ids, scaled_tiebreakers(h).fractions(), strict=True))
