"""Exact reference for Swiss pairing quality (private; for tests, never for pairing).

Written apart from the solvers on purpose: it enumerates every perfect matching (with
memoisation over the set of players still unpaired), so it is exponential and refuses
more than ``MAX_PLAYERS`` players. It scores pairings exactly like the engine promises
(see ``_swiss_model``): fewest rematches, then fewest bracket boundaries crossed, then
the shortest total distance, the smallest sum of squared distances, and the fewest
pairings between different match points (P-SW-3, P-SW-4, P-SW-5, P-SW-7).

:func:`score_age_pair` is the age-modified order of ``_swiss_age`` (P-AGE-3, I-4): a
level "other division" after the rematch, bracket boundaries counted inside the
division for two players of one division.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from .types import SwissPlayer

MAX_PLAYERS = 14

Score = tuple[int, ...]
Scorer = Callable[[Sequence[SwissPlayer], SwissPlayer, SwissPlayer], Score]


def bye_candidates(players: Sequence[SwissPlayer]) -> frozenset[str]:
    """Ids that may get the bye (P-SW-5 as a hard filter): players without a bye in the
    lowest bracket that has one; if every player had a bye, the lowest bracket."""
    if len(players) % 2 == 0:
        return frozenset()
    for points in sorted({p.match_points for p in players}):
        fresh = {p.id for p in players if p.match_points == points and not p.had_bye}
        if fresh:
            return frozenset(fresh)
    lowest = min(p.match_points for p in players)
    return frozenset(p.id for p in players if p.match_points == lowest)


def score_pair(players: Sequence[SwissPlayer], a: SwissPlayer, b: SwissPlayer) -> Score:
    """The score of one pairing of two players."""
    brackets = sorted({p.match_points for p in players}, reverse=True)
    crossed = abs(brackets.index(a.match_points) - brackets.index(b.match_points))
    d = abs(a.match_points - b.match_points)
    rematch = a.id in b.opponents or b.id in a.opponents
    return (int(rematch), crossed, d, d * d, int(d > 0))


def score_age_pair(players: Sequence[SwissPlayer], a: SwissPlayer, b: SwissPlayer) -> Score:
    """The age-modified score of one pairing (P-AGE-3, I-4)."""
    same = a.division == b.division
    group = [p for p in players if p.division == a.division] if same else list(players)
    brackets = sorted({p.match_points for p in group}, reverse=True)
    crossed = abs(brackets.index(a.match_points) - brackets.index(b.match_points))
    d = abs(a.match_points - b.match_points)
    rematch = a.id in b.opponents or b.id in a.opponents
    return (int(rematch), int(not same), crossed, d, d * d, int(d > 0))


def best_score(players: Sequence[SwissPlayer], scorer: Scorer = score_pair) -> Score:
    """Lexicographically smallest total score over every valid pairing of ``players``."""
    if len(players) > MAX_PLAYERS:
        raise ValueError(f"the reference is exponential; at most {MAX_PLAYERS} players")
    people = list(players)
    byes = bye_candidates(people)
    scores = [[scorer(people, a, b) for b in people] for a in people]
    zero: Score = (0,) * len(scores[0][0]) if people else ()

    @cache
    def best(mask: int) -> Score | None:
        if mask == 0:
            return zero
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        options: list[Score] = []
        if len(people) % 2 and people[i].id in byes and rest.bit_count() % 2 == 0:
            tail = best(rest)
            if tail is not None:
                options.append(tail)
        for j in range(i + 1, len(people)):
            if rest >> j & 1:
                tail = best(rest & ~(1 << j))
                if tail is not None:
                    head = scores[i][j]
                    options.append(_add(head, tail))
        return min(options, default=None)

    result = best((1 << len(people)) - 1)
    assert result is not None  # a bye candidate always exists and any two may meet
    return result


def _add(x: Score, y: Score) -> Score:
    return tuple(a + b for a, b in zip(x, y, strict=True))


def min_rematches(players: Sequence[SwissPlayer]) -> int:
    """Fewest rematches any valid pairing needs (P-SW-4)."""
    return best_score(players)[0]


def min_pair_downs(players: Sequence[SwissPlayer]) -> int:
    """Pair-downs (pairings between different match points) of the best pairing (P-SW-7).

    Because a pair-down that skips a bracket counts once per boundary crossed, this is
    the number of boundaries that must be crossed whenever no rematch forces a skip.
    """
    return best_score(players)[4]
