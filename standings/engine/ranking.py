"""Pokémon Swiss standings: match points, then the P-TB tiebreakers in order.

Order of comparison (P-TB, I-5, I-6):

1. match points, 3 / 1 / 0 (a bye is a win: 3 points; double and late-entry losses 0);
2. tardiness: late entrants below on-time players with the same points (P-TB-1, I-5);
3. OWP, then OOWP (P-TB-2, P-TB-3, R-1, R-2; see :mod:`.tiebreakers`);
4. head to head, only when exactly two players are still tied and met (P-TB-4);
5. standing of the last opponent, that standing being the one given by steps 1–4; the
   player whose last opponent stands higher ranks higher; no opponent counts as last
   (P-TB-6);
6. a random order drawn from ``random.Random(seed)`` (I-6).

Dropped players stay in the standings (P-TB-7); disqualified entrants are listed last
with ``place=None`` but their results still count for everyone's tiebreakers.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import draw
from ._history import History, build_history
from .tiebreakers import Scaled, _to_fractions, scaled_tiebreakers
from .types import Entrant, MatchRecord, StandingRow, new_row

Key = int  # see rank_indices


def pokemon_standings(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    *,
    rounds: int,
    seed: int = 0,
) -> tuple[StandingRow, ...]:
    """The Swiss standings after round ``rounds``, best first.

    entrants: every player of the pairing group (R-5: a combined Junior+Senior group is one call;
        filter the result by division for the per-division places). ``late`` marks
        tardiness (P-TB-1); ``dropped_after_round`` freezes tiebreakers (R-2).
    matches: results of any rounds; only ``1 <= round <= rounds`` count, PENDING ignored.
    rounds: the Swiss rounds considered (standings after round N).
    seed: seed of the random order of players tied after every tiebreaker (I-6).

    Returns one :class:`StandingRow` per entrant: places 1..n (``None`` for disqualified
    entrants, listed last), record W-L-T with byes counted as wins, match points, and
    win %, OWP, OOWP as exact Fractions 0..1. ``dropped`` is True when the drop happened
    after a round <= ``rounds``. Raises :class:`~standings.engine.errors.StandingsError`
    on unknown players or inconsistent records. Implements P-TB-1…P-TB-7, R-1, R-2, R-6,
    I-5, I-6.
    """
    h = build_history(entrants, matches, rounds)
    scaled = scaled_tiebreakers(h)
    order = rank_indices(h, scaled, seed)
    dq = [e.disqualified for e in entrants]
    placed = [i for i in order if not dq[i]] + [i for i in order if dq[i]]
    return _rows(h, scaled, placed, dq)


def rank_indices(h: History, scaled: Scaled, seed: int) -> list[int]:
    """Player indices of ``h`` in standings order (steps 1–6 of the module docstring)."""
    # The tuple (-points, late, -OWP, -OOWP) packed into one int that orders the same way
    # (each numerator lies in 0..its denominator): ints sort and compare faster.
    wo, woo = scaled.owp_den + 1, scaled.oowp_den + 1
    keys: list[Key] = [
        ((late - 2 * p) * wo - o) * woo - oo
        for p, late, o, oo in zip(h.points, h.late, scaled.owp, scaled.oowp, strict=True)
    ]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    groups = _tied_groups(order, keys)
    if not groups:
        return order
    unresolved = [g for g in groups if not _head_to_head(h, order, g)]
    if unresolved:
        _last_opponent(h, order, unresolved, seed)
    return order


def _tied_groups(order: list[int], keys: list[Key]) -> list[tuple[int, int]]:
    """``(start, stop)`` slices of ``order`` holding two or more equal keys."""
    groups: list[tuple[int, int]] = []
    start = 0
    for pos in range(1, len(order) + 1):
        if pos == len(order) or keys[order[pos]] != keys[order[pos - 1]]:
            if pos - start > 1:
                groups.append((start, pos))
            start = pos
    return groups


def _head_to_head(h: History, order: list[int], group: tuple[int, int]) -> bool:
    """Resolve an exactly-two tie by the matches they played (P-TB-4); True if resolved."""
    start, stop = group
    if stop - start != 2:
        return False
    a, b = order[start], order[start + 1]
    a_wins, b_wins = h.wins_against(a, b), h.wins_against(b, a)
    if a_wins == b_wins:
        return False
    if b_wins > a_wins:
        order[start], order[start + 1] = b, a
    return True


def _last_opponent(h: History, order: list[int], groups: list[tuple[int, int]], seed: int) -> None:
    """Reorder each tied group by its last opponents' standing, then randomly (P-TB-6, I-6)."""
    standing = list(range(len(order)))  # standing[player] from steps 1-4; ties share one
    for pos, i in enumerate(order):
        standing[i] = pos
    for start, stop in groups:
        for pos in range(start, stop):
            standing[order[pos]] = start
    worst = len(order)
    tie_key: list[int] | None = None
    for start, stop in groups:
        block = order[start:stop]
        lasts = [standing[o] if (o := h.last_opponent(i)) >= 0 else worst for i in block]
        if len(set(lasts)) < len(lasts):
            tie_key = tie_key or _random_key(h, seed)
            block_key = [(s, tie_key[i]) for s, i in zip(lasts, block, strict=True)]
        else:
            block_key = [(s, 0) for s in lasts]
        ranked = sorted(range(len(block)), key=block_key.__getitem__)
        order[start:stop] = [block[k] for k in ranked]


def _random_key(h: History, seed: int) -> list[int]:
    """A random rank per player index, reproducible from ``seed`` whatever the input order."""
    rank = draw.lot(h.ids, seed)
    return [rank[pid] for pid in h.ids]


def _rows(h: History, scaled: Scaled, placed: list[int], dq: list[bool]) -> tuple[StandingRow, ...]:
    # Three lists of Fractions, without a Tiebreakers object per player in between.
    win = _to_fractions(scaled.win, scaled.win_den)
    owp = _to_fractions(scaled.owp, scaled.owp_den)
    oowp = _to_fractions(scaled.oowp, scaled.oowp_den)
    ids, points, wins, losses, ties = h.ids, h.points, h.wins, h.losses, h.ties
    drop, late, last = h.drop, h.late, h.rounds
    return tuple(
        [
            new_row(
                None if dq[i] else place,
                ids[i],
                points[i],
                wins[i],
                losses[i],
                ties[i],
                win[i],
                owp[i],
                oowp[i],
                drop[i] <= last,
                late[i],
            )
            for place, i in enumerate(placed, start=1)
        ]
    )
