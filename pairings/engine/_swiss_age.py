"""Age-modified Swiss (P-AGE-3, I-4, R-5): the quality order and its solver (private).

In an age-modified pairing group several divisions are paired together, and the division takes
precedence over the record. The quality of one pairing is the tuple :data:`AgeLevels`:

1. rematch (P-SW-4 still comes first);
2. 1 when the two players are of different divisions (I-4: same division, any record,
   beats other division, same record);
3. bracket boundaries crossed: counted over the brackets of the *division* for two players
   of one division (their own Swiss, P-SW-3 "next lower bracket"), over the brackets of
   the whole group for players of different divisions;
4. distance in match points, 5. squared distance, 6. pairing between different records
   (as in ``_swiss_model``).

So: same division and same record > same division, nearest record > other division, same
record > other division, nearest record. The bye stays a hard filter on the group (P-SW-5).

Solver: an age-modified group is small in practice (it exists because a division has 1-5
players), so it is solved exactly (blossom) up to ``AGE_EXACT_LIMIT`` nodes (about 0.2 s).
A larger group is paired division by division with the ordinary engine, the player left
over by each odd division is paired across divisions exactly, and the round is reported
as not proven optimal.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from ._lexmatch import Levels, lexicographic_matching
from ._swiss_model import Pair, Problem, build_problem
from ._swiss_solve import solve

AGE_EXACT_LIMIT = 320
WIDTH = 6
_ZERO: Levels = (0,) * WIDTH


class AgeLevels:
    """Callable giving the :mod:`_swiss_age` levels of a pairing of two nodes of ``problem``
    (``None`` for a bye the filter forbids), and the per-pairing maxima for encoding."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.division = [p.division for p in problem.players]
        if problem.bye >= 0:
            self.division.append("")
        self.local = _division_brackets(problem, self.division)
        span = problem.bracket_points[0] - problem.bracket_points[-1]
        self.maxima = (1, 1, len(problem.bracket_points) - 1, span, span * span, 1)

    def __call__(self, a: int, b: int) -> Levels | None:
        p = self.problem
        if p.bye in (a, b):
            return _ZERO if p.compatible(a, b) else None
        d = abs(p.points[a] - p.points[b])
        same = self.division[a] == self.division[b]
        brackets = self.local if same else p.bracket
        crossed = abs(brackets[a] - brackets[b])
        return (int(p.is_rematch(a, b)), int(not same), crossed, d, d * d, int(d > 0))


def _division_brackets(problem: Problem, division: list[str]) -> list[int]:
    """Index of each node's bracket among the brackets of its own division."""
    points_by_division: dict[str, set[int]] = {}
    for node, name in enumerate(division):
        points_by_division.setdefault(name, set()).add(problem.points[node])
    index = {
        name: {pts: k for k, pts in enumerate(sorted(points, reverse=True))}
        for name, points in points_by_division.items()
    }
    return [index[name][problem.points[node]] for node, name in enumerate(division)]


def solve_age(problem: Problem, levels: AgeLevels, rng: random.Random) -> tuple[list[Pair], bool]:
    """A perfect matching of the nodes under the age-modified order, and whether it is
    proven optimal (always, up to ``AGE_EXACT_LIMIT`` nodes)."""
    if problem.size <= AGE_EXACT_LIMIT:
        return lexicographic_matching(range(problem.size), levels, levels.maxima, rng), True
    return _by_division(problem, levels, rng), False


def _by_division(problem: Problem, levels: AgeLevels, rng: random.Random) -> list[Pair]:
    """Large groups: the bye first (preferring a division of odd size, which it makes even),
    then every division with the ordinary engine; the players left over cross divisions."""
    nodes = [n for n in range(problem.size) if n != problem.bye]
    pairs: list[Pair] = []
    if problem.bye >= 0:
        sizes = Counter(levels.division[n] for n in nodes)
        eligible = sorted(problem.bye_ok)
        odd = [n for n in eligible if sizes[levels.division[n]] % 2]
        taker = rng.choice(odd or eligible)
        pairs.append((taker, problem.bye))
        nodes.remove(taker)
    groups: dict[str, list[int]] = {}
    for n in nodes:
        groups.setdefault(levels.division[n], []).append(n)
    left: list[int] = []
    for name in sorted(groups):
        inner, rest = _within(problem, groups[name], rng)
        pairs += inner
        left += rest
    return pairs + lexicographic_matching(left, levels, levels.maxima, rng) if left else pairs


def _within(
    problem: Problem, members: list[int], rng: random.Random
) -> tuple[list[Pair], list[int]]:
    """Ordinary Swiss inside one division; with an odd count the engine's bye token marks the
    player who leaves the division (nobody's bye history matters for that: cleared)."""
    if len(members) == 1:
        return [], members
    node_of = {problem.ids[n]: n for n in members}
    sub = build_problem([replace(problem.players[n], had_bye=False) for n in members], rng)
    sub_pairs, _ = solve(sub, rng)
    pairs: list[Pair] = []
    left: list[int] = []
    for a, b in sub_pairs:
        if sub.bye in (a, b):
            left.append(node_of[sub.ids[b if a == sub.bye else a]])
        else:
            pairs.append((node_of[sub.ids[a]], node_of[sub.ids[b]]))
    return pairs, left
