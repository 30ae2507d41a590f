"""Benchmark: Swiss pod pairing of round 5 (target: 4,096 players ≤ 0.05 s median).

Builds a deterministic round-5 state with the engines themselves: four rounds paired by
``pair_pods`` (standard pods of 4), random results (about 8 % drawn pods, now and then
a player in a drawn pod who conceded), about 1 % drops per round so smaller pods appear,
and standings by ``multiplayer_standings`` to give every player a rank. Then it times
``pair_pods`` on that state (``REPETITIONS`` runs with different seeds, perf_counter
median) and reports::

    {"bench": "pods_pair", "players": 4096, "active": ..., "median_s": ...,
     "repeats": 0, "small_pod_repeats": 0, "repetitions": 15}

``repeats`` is the largest number of repeat-opponent pairs over the timed runs
(MP-PAIR-1), ``small_pod_repeats`` the same for players in a smaller pod again (MP-POD-2).

Run: ``.venv/bin/python -m bench.pods_case`` or ``.venv/bin/python bench/pods_case.py``
(prints one JSON line per size).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairings.engine.pods import PodPlayer, PodRound, pair_pods  # noqa: E402
from standings.engine.multiplayer import PodResult, multiplayer_standings  # noqa: E402
from standings.engine.types import Entrant  # noqa: E402

HISTORY_ROUNDS = 4
REPETITIONS = 15
DRAW_RATE = 0.08
DROP_RATE = 0.01


def _results(rng: random.Random, number: int, played: PodRound) -> list[PodResult]:
    results: list[PodResult] = []
    for pod in played.pods:
        if rng.random() < DRAW_RATE:
            conceded = frozenset(rng.sample(pod.players, 1)) if rng.random() < 0.2 else frozenset()
            results.append(PodResult(number, pod.players, None, conceded))
        else:
            results.append(PodResult(number, pod.players, rng.choice(pod.players)))
    return results


def _state(
    active: list[str], results: list[PodResult], entrants: list[Entrant], number: int
) -> list[PodPlayer]:
    """The players of round ``number``: points and rank from the standings so far."""
    rows = multiplayer_standings(entrants, results, rounds=number - 1)
    rank = {row.player: row.place or 0 for row in rows}
    points = {row.player: row.match_points for row in rows}
    met: dict[str, set[str]] = {pid: set() for pid in active}
    small = dict.fromkeys(active, 0)
    for result in results:
        for pid in result.players:
            if pid in met:
                met[pid].update(o for o in result.players if o != pid)
                small[pid] += len(result.players) < 4
    return [PodPlayer(p, points[p], rank[p], frozenset(met[p]), small[p]) for p in active]


def round5_state(players: int, seed: int = 2025) -> list[PodPlayer]:
    """Active players before round 5, after four simulated rounds."""
    rng = random.Random(seed)
    ids = [f"p{k:05d}" for k in range(players)]
    dropped: dict[str, int] = {}
    results: list[PodResult] = []
    active = list(ids)
    for number in range(1, HISTORY_ROUNDS + 1):
        entrants = [Entrant(p, dropped_after_round=dropped.get(p)) for p in ids]
        state = _state(active, results, entrants, number)
        played = pair_pods(state, rng=random.Random(seed * 100 + number))
        results += _results(rng, number, played)
        for pid in active:
            if rng.random() < DROP_RATE:
                dropped[pid] = number
        active = [p for p in active if p not in dropped]
    entrants = [Entrant(p, dropped_after_round=dropped.get(p)) for p in ids]
    return _state(active, results, entrants, HISTORY_ROUNDS + 1)


def run(players: int) -> dict[str, object]:
    """Median wall time (perf_counter, ``REPETITIONS`` runs) of pairing round 5."""
    state = round5_state(players)
    times: list[float] = []
    rounds: list[PodRound] = []
    for seed in range(REPETITIONS):
        start = time.perf_counter()
        rounds.append(pair_pods(state, rng=random.Random(seed)))
        times.append(time.perf_counter() - start)
    return {
        "bench": "pods_pair",
        "players": players,
        "active": len(state),
        "median_s": round(statistics.median(times), 6),
        "repeats": max(r.repeats for r in rounds),
        "small_pod_repeats": max(r.small_pod_repeats for r in rounds),
        "repetitions": REPETITIONS,
    }


if __name__ == "__main__":
    for size in (256, 1024, 4096):
        print(json.dumps(run(size)), flush=True)
