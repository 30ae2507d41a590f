"""Benchmark: Pokémon Swiss standings after 9 rounds (target: 4,096 players ≤ 0.1 s median).

Builds a deterministic 9-round Swiss history with a trivial pairer (players sorted by match
points, random order within equal points, neighbours paired, the lowest unpaired player
gets the bye at most once), ~10 % ties, a few double losses, late entrants with a round-1
late-entry loss and ~3 % drops, then times ``pokemon_standings`` on the final round.

Run: ``.venv/bin/python -m bench.standings_case`` or ``.venv/bin/python bench/standings_case.py``
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

from standings.engine.ranking import pokemon_standings  # noqa: E402
from standings.engine.types import Entrant, MatchRecord, Outcome  # noqa: E402

ROUNDS = 9
REPETITIONS = 15


def _result(rng: random.Random, rnd: int, a: str, b: str) -> MatchRecord:
    x = rng.random()
    if x < 0.10:
        return MatchRecord(rnd, (a, b), Outcome.DRAW)
    if x < 0.105:
        return MatchRecord(rnd, (a, b), Outcome.DOUBLE_LOSS)
    return MatchRecord(rnd, (a, b), Outcome.WIN, a if x < 0.55 else b)


def _points(m: MatchRecord, pid: str) -> int:
    if m.outcome in (Outcome.WIN, Outcome.BYE):
        return 3 if m.winner == pid or m.outcome is Outcome.BYE else 0
    return 1 if m.outcome is Outcome.DRAW else 0


def _pair_round(
    rng: random.Random, rnd: int, active: list[str], points: dict[str, int], had_bye: set[str]
) -> list[MatchRecord]:
    ordered = sorted(active, key=lambda p: (-points[p], rng.random()))
    matches: list[MatchRecord] = []
    if len(ordered) % 2:
        bye = next((p for p in reversed(ordered) if p not in had_bye), ordered[-1])
        ordered.remove(bye)
        had_bye.add(bye)
        matches.append(MatchRecord(rnd, (bye,), Outcome.BYE, bye))
    for a, b in zip(ordered[::2], ordered[1::2], strict=True):
        matches.append(_result(rng, rnd, a, b))
    return matches


def build_case(players: int, seed: int = 2025) -> tuple[list[Entrant], list[MatchRecord]]:
    """A deterministic Swiss history: ``players`` entrants, 9 rounds, ties, byes, drops."""
    rng = random.Random(seed)
    ids = [f"P{k:05d}" for k in range(players)]
    late = set(rng.sample(ids, max(1, players // 200)))
    points = dict.fromkeys(ids, 0)
    dropped: dict[str, int] = {}
    had_bye: set[str] = set()
    matches = [MatchRecord(1, (p,), Outcome.LATE_LOSS) for p in sorted(late)]
    for rnd in range(1, ROUNDS + 1):
        active = [p for p in ids if p not in dropped and (rnd > 1 or p not in late)]
        new = _pair_round(rng, rnd, active, points, had_bye)
        for m in new:
            for pid in m.players:
                points[pid] += _points(m, pid)
        matches.extend(new)
        if rnd < ROUNDS:
            for pid in active:
                if rng.random() < 0.004:
                    dropped[pid] = rnd
    entrants = [Entrant(p, late=p in late, dropped_after_round=dropped.get(p)) for p in ids]
    return entrants, matches


def run(players: int) -> dict[str, object]:
    """Median wall time (perf_counter, ≥ 15 runs) of the final standings of ``players``."""
    entrants, matches = build_case(players)
    times: list[float] = []
    for _ in range(REPETITIONS):
        start = time.perf_counter()
        pokemon_standings(entrants, matches, rounds=ROUNDS, seed=1)
        times.append(time.perf_counter() - start)
    return {
        "bench": "standings",
        "players": players,
        "rounds": ROUNDS,
        "median_s": round(statistics.median(times), 6),
    }


if __name__ == "__main__":
    for size in (256, 1024, 4096):
        print(json.dumps(run(size)))
