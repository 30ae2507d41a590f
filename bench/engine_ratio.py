"""Engines against a minimal reference measured in the same process, as a ratio.

Run on demand: ``.venv/bin/python bench/engine_ratio.py [players ...]`` (default 4,096).
Prints one JSON line per case and size::

    {"bench": "swiss_ratio", "players": 4096, "engine_s": ..., "reference_s": ...,
     "ratio": ..., "pair_downs": ..., "reference_pair_downs": ...}
    {"bench": "standings_ratio", "players": 4096, "rounds": 9, "engine_s": ...,
     "reference_s": ..., "ratio": ...}

Targets: Swiss pairing ratio at or under 2; standings of 4,096 × 9
rounds under 0.05 s.

* Swiss reference (:func:`reference_swiss`): what a hand-written pairer must do at least.
  Brackets by match points, a seeded shuffle within each, then greedy top to bottom:
  floaters from the bracket above first, each player paired with the first waiting player
  they have not met; leftovers float down. The bye goes to a shuffled player of the lowest
  bracket holding a player without a bye. Only when greedy leaves a player stuck or
  crosses more bracket boundaries than the parity bound of ``bench/engine.py`` does it
  repair exactly (rustworkx blossom over the whole event, costs: rematch, then crossings).
  Its answer is bare id pairs in bracket order: no explanations, no dataclasses. Its
  pair-down count is printed next to the engine's (they must be equal).
* Standings reference (:func:`reference_standings`): one pass summing match points per
  player over the matches, then one sort by points: the least any standings must do.

Both are timed on the very same input as the engine: the median of interleaved runs, in
CPU time of this process (``time.process_time``), so that other work on a shared machine
does not count; the garbage collector stays on, as in production. ``bench/engine.py``
prints these lines too.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import pair_downs_min, round5_state  # noqa: E402
from bench.standings_case import ROUNDS, build_case  # noqa: E402
from pairings.engine._matching import min_cost_perfect_matching  # noqa: E402
from pairings.engine.swiss import pair_swiss  # noqa: E402
from pairings.engine.types import SwissPlayer  # noqa: E402
from standings.engine.ranking import pokemon_standings  # noqa: E402
from standings.engine.types import Entrant, MatchRecord, Outcome  # noqa: E402

REPEATS = 41
EXACT_LIMIT = 320  # whole-event blossom repair beyond this is too slow to be a reference


def reference_swiss(
    players: Sequence[SwissPlayer], rng: random.Random
) -> tuple[list[tuple[str, ...]], int]:
    """Greedy bracket by bracket with exact repair; ``(pairs in bracket order, pair-downs)``."""
    brackets: dict[int, list[SwissPlayer]] = {}
    for p in sorted(players, key=lambda p: p.id):
        brackets.setdefault(p.match_points, []).append(p)
    ordered = [brackets[pts] for pts in sorted(brackets, reverse=True)]
    for group in ordered:
        rng.shuffle(group)
    bye: list[tuple[str, ...]] = []
    if len(players) % 2:
        fresh = [g for g in ordered if any(not p.had_bye for p in g)]
        group = fresh[-1] if fresh else ordered[-1]
        taker = next((p for p in group if not p.had_bye), group[0])
        group.remove(taker)
        bye.append((taker.id,))
    pairs: list[tuple[SwissPlayer, SwissPlayer]] = []
    floaters: list[SwissPlayer] = []
    for group in ordered:
        at_start = len(pairs)
        pool: list[SwissPlayer] = []
        for x in floaters + group:
            for at, y in enumerate(pool):
                if x.id not in y.opponents and y.id not in x.opponents:
                    pairs.append((y, x))
                    del pool[at]
                    break
            else:
                pool.append(x)
        _swap(pool, pairs, at_start)
        floaters = pool
    downs = sum(a.match_points != b.match_points for a, b in pairs)
    if floaters or downs != pair_downs_min(list(players)):
        if len(players) > EXACT_LIMIT:
            raise RuntimeError("the reference needs a repair too large for the blossom")
        return _exact_repair([p for g in ordered for p in g]) + bye, downs
    return [(a.id, b.id) for a, b in pairs] + bye, downs


def _met(a: SwissPlayer, b: SwissPlayer) -> bool:
    return a.id in b.opponents or b.id in a.opponents


def _swap(
    pool: list[SwissPlayer], pairs: list[tuple[SwissPlayer, SwissPlayer]], start: int
) -> None:
    """Unstick two waiting players y, z by splitting a pair (u, v) of this bracket."""
    while len(pool) >= 2 + len(pool) % 2:
        found = next(
            (
                (at, u, v, y, z)
                for i, y in enumerate(pool)
                for z in pool[i + 1 :]
                for at in range(start, len(pairs))
                for u, v in (pairs[at], pairs[at][::-1])
                if not _met(u, y) and not _met(v, z)
            ),
            None,
        )
        if found is None:
            return
        at, u, v, y, z = found
        pairs[at] = (u, y)
        pairs.append((v, z))
        pool.remove(y)
        pool.remove(z)


def _exact_repair(nodes: list[SwissPlayer]) -> list[tuple[str, ...]]:
    """The whole event by blossom: rematches first, then bracket boundaries crossed."""
    brackets = sorted({p.match_points for p in nodes}, reverse=True)
    level = {pts: k for k, pts in enumerate(brackets)}
    big = len(nodes) * len(brackets) + 1

    def cost(i: int, j: int) -> int:
        a, b = nodes[i], nodes[j]
        rematch = a.id in b.opponents or b.id in a.opponents
        return big * rematch + abs(level[a.match_points] - level[b.match_points])

    found = min_cost_perfect_matching(len(nodes), cost)
    return [(nodes[i].id, nodes[j].id) for i, j in found]


def reference_standings(entrants: Sequence[Entrant], matches: Sequence[MatchRecord]) -> list[str]:
    """Match points per player in one pass over the matches, then sorted (ids, best first)."""
    points = {e.id: 0 for e in entrants}
    for m in matches:
        if m.outcome is Outcome.WIN and m.winner is not None:
            points[m.winner] += 3
        elif m.outcome is Outcome.BYE:
            points[m.players[0]] += 3
        elif m.outcome is Outcome.DRAW:
            for pid in m.players:
                points[pid] += 1
    return sorted(points, key=points.__getitem__, reverse=True)


def _interleaved(
    engine: Callable[[int], object], reference: Callable[[int], object]
) -> tuple[float, float]:
    """Median seconds of each, alternating runs so machine load hits both alike."""
    a: list[float] = []
    b: list[float] = []
    clock = time.process_time
    for k in range(REPEATS):
        start = clock()
        engine(k)
        a.append(clock() - start)
        start = clock()
        reference(k)
        b.append(clock() - start)
    return statistics.median(a), statistics.median(b)


def swiss_ratio(size: int) -> dict[str, object]:
    players = round5_state(size)
    engine_s, reference_s = _interleaved(
        lambda k: pair_swiss(players, rng=random.Random(k)),
        lambda k: reference_swiss(players, random.Random(k)),
    )
    return {
        "bench": "swiss_ratio",
        "players": size,
        "active": len(players),
        "engine_s": round(engine_s, 5),
        "reference_s": round(reference_s, 5),
        "ratio": round(engine_s / reference_s, 2),
        "pair_downs": pair_swiss(players, rng=random.Random(0)).pair_downs,
        "reference_pair_downs": reference_swiss(players, random.Random(0))[1],
        "pair_downs_min": pair_downs_min(players),
    }


def standings_ratio(size: int) -> dict[str, object]:
    entrants, matches = build_case(size)
    engine_s, reference_s = _interleaved(
        lambda k: pokemon_standings(entrants, matches, rounds=ROUNDS, seed=1),
        lambda k: reference_standings(entrants, matches),
    )
    return {
        "bench": "standings_ratio",
        "players": size,
        "rounds": ROUNDS,
        "engine_s": round(engine_s, 5),
        "reference_s": round(reference_s, 5),
        "ratio": round(engine_s / reference_s, 2),
    }


def main(sizes: Sequence[int]) -> None:
    for size in sizes:
        print(json.dumps(swiss_ratio(size)), flush=True)
        print(json.dumps(standings_ratio(size)), flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [4096])
