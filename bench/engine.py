"""Benchmark of the pure engines (run on demand: ``.venv/bin/python bench/engine.py``).

For 256, 1,024 and 4,096 players it simulates four Swiss rounds with the engine itself
(random results with a few ties, about 3 % drops, at least one bye), then times the
pairing of round 5 and prints one JSON line per case::

    {"bench": "swiss_pair", "players": 4096, "median_s": ..., "rematches": 0,
     "pair_downs": ..., "pair_downs_min": ...}

``pair_downs_min`` is an independent lower bound, not the engine's own number. Put the
brackets in order and cut between two neighbouring brackets: if an odd number of players
sits above the cut, they cannot all be paired among themselves, so at least one pairing
crosses the cut. A pair-down into the next lower bracket crosses exactly one cut, and a
pairing over several brackets crosses several, so every valid pairing has at least as
many boundary crossings as there are odd cuts. With an odd number of players the bye
player is removed first from the bye bracket (P-SW-5: the lowest bracket holding a
player without a bye), which flips the parity of every cut below that bracket: the bye
"absorbs" the odd cut at the bottom. The bound is reached by pairing down one player per
odd cut into the next bracket, which is possible whenever rematches don't interfere;
the bench asserts the engine reaches it with no rematch and no pair-down skipping a
bracket, i.e. its pair-down count is the exact minimum.

If ``bench/standings_case.py`` (written separately) imports, its ``run(players)`` dict is
printed for every size too. ``bench/pods_case.py`` adds the multiplayer pod pairing of
round 5 (MP-PAIR-1; target 4,096 players ≤ 0.05 s) as a ``pods_pair`` line per size.

Last come the two ratios, measured by ``bench/engine_ratio.py``
against minimal references in this same process (its docstring defines them)::

    {"bench": "swiss_ratio", "players": 4096, ..., "ratio": ...}        (target <= 2)
    {"bench": "standings_ratio", "players": 4096, "rounds": 9, "engine_s": ...}
                                                         (target: engine_s < 0.05)
"""

from __future__ import annotations

import importlib
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairings.engine.swiss import pair_swiss  # noqa: E402
from pairings.engine.types import SwissPlayer, SwissRound  # noqa: E402

SIZES = (256, 1024, 4096)
REPEATS = 21
DROP_RATE = 0.0075  # per round: about 3 % over four rounds
TIE_RATE = 0.02


def round5_state(size: int, seed: int = 2024) -> list[SwissPlayer]:
    """Active players before round 5, after four simulated rounds."""
    rng = random.Random(seed)
    points = dict.fromkeys((f"p{i:05d}" for i in range(size)), 0)
    met: dict[str, set[str]] = {pid: set() for pid in points}
    had_bye: set[str] = set()
    active = sorted(points)
    for number in range(1, 5):
        if number == 4 and not had_bye and len(active) % 2 == 0:
            active.remove(rng.choice(active))  # make sure one bye is in the history
        players = [SwissPlayer(p, points[p], frozenset(met[p]), p in had_bye) for p in active]
        played = pair_swiss(players, rng=random.Random(seed * 100 + number))
        _score(played, points, met, had_bye, rng)
        active = [p for p in active if rng.random() >= DROP_RATE]
    return [SwissPlayer(p, points[p], frozenset(met[p]), p in had_bye) for p in active]


def _score(
    played: SwissRound,
    points: dict[str, int],
    met: dict[str, set[str]],
    had_bye: set[str],
    rng: random.Random,
) -> None:
    for pairing in played.pairings:
        if pairing.is_bye:
            points[pairing.players[0]] += 3
            had_bye.add(pairing.players[0])
            continue
        a, b = pairing.players
        met[a].add(b)
        met[b].add(a)
        if rng.random() < TIE_RATE:
            points[a] += 1
            points[b] += 1
        else:
            points[rng.choice((a, b))] += 3


def pair_downs_min(players: list[SwissPlayer]) -> int:
    """Number of odd cuts once the bye player left the bye bracket (module docstring)."""
    sizes = Counter(p.match_points for p in players)
    if len(players) % 2:
        fresh = [p.match_points for p in players if not p.had_bye]
        sizes[min(fresh) if fresh else min(sizes)] -= 1
    above, odd = 0, 0
    for points in sorted(sizes, reverse=True)[:-1]:
        above += sizes[points]
        odd += above % 2
    return odd


def skipped_brackets(players: list[SwissPlayer], played: SwissRound) -> int:
    """Pair-downs that skip at least one bracket (zero in an optimal ordinary round)."""
    brackets = sorted({p.match_points for p in players}, reverse=True)
    points = {p.id: brackets.index(p.match_points) for p in players}
    return sum(
        abs(points[q.players[0]] - points[q.players[1]]) > 1
        for q in played.pairings
        if not q.is_bye
    )


def bench_swiss(size: int) -> dict[str, object]:
    players = round5_state(size)
    times, results = [], []
    for seed in range(REPEATS):
        start = time.perf_counter()
        results.append(pair_swiss(players, rng=random.Random(seed)))
        times.append(time.perf_counter() - start)
    bound = pair_downs_min(players)
    for played in results:
        assert played.pair_downs == bound, (played.pair_downs, bound)
        assert skipped_brackets(players, played) == 0
    return {
        "bench": "swiss_pair",
        "players": size,
        "active": len(players),
        "median_s": round(statistics.median(times), 5),
        "rematches": max(r.rematches for r in results),
        "pair_downs": results[0].pair_downs,
        "pair_downs_min": bound,
    }


def main() -> None:
    try:
        standings_case = importlib.import_module("bench.standings_case")
    except ImportError as exc:
        if exc.name not in ("bench", "bench.standings_case"):
            raise  # the module exists but is broken: show it
        standings_case = None
    pods_case = importlib.import_module("bench.pods_case")
    for size in SIZES:
        print(json.dumps(bench_swiss(size)), flush=True)
        if standings_case is not None:
            print(json.dumps(standings_case.run(size)), flush=True)
        print(json.dumps(pods_case.run(size)), flush=True)
    # Imported here: engine_ratio itself imports this module's round-5 simulation.
    ratio = importlib.import_module("bench.engine_ratio")
    ratio.main([4096])


if __name__ == "__main__":
    main()
