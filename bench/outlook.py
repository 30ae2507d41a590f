"""Benchmark: the cut-line outlook (target: 800 players ≤ 2 s).

Plays a deterministic Pokémon Swiss with the real pairing engine (``pair_swiss``): 800
players (a few late entrants with a round-1 late-entry loss), 3 % ties, about 1 % of the
field dropping each round; then times ``pairings.engine.outlook.outlook`` (10,000
simulated endings at this size) after each Swiss round of a 9-round day (top 8), and
after rounds 1, 5 and 8 of a two-day event (9 + 6 rounds, Day 2 cut and top 8). Each figure is the median of
``REPETITIONS`` runs: wall-clock seconds and the process's CPU seconds (the machine is
shared: CPU time is the steadier figure when others run).

Run: ``.venv/bin/python bench/outlook.py [players]`` (prints one JSON line per case).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairings.engine.outlook import (  # noqa: E402
    POKEMON,
    OutlookPlan,
    draw_rate,
    outlook,
    outlook_players,
)
from pairings.engine.swiss import pair_swiss  # noqa: E402
from pairings.engine.types import SwissPlayer  # noqa: E402
from standings.engine.ranking import pokemon_standings  # noqa: E402
from standings.engine.types import Entrant, MatchRecord, Outcome  # noqa: E402

REPETITIONS = 3
ROUNDS = 9


def play(players: int, rounds: int, seed: int = 24) -> tuple[list[Entrant], list[MatchRecord]]:
    """A Swiss of ``players`` over ``rounds`` rounds, paired by the real engine."""
    rng = random.Random(seed)
    ids = [str(i) for i in range(1, players + 1)]
    late = set(rng.sample(ids, players // 100))
    dropped: dict[str, int] = {}
    points = dict.fromkeys(ids, 0)
    met: dict[str, set[str]] = {i: set() for i in ids}
    byes: set[str] = set()
    matches = [MatchRecord(1, (p,), Outcome.LATE_LOSS) for p in sorted(late)]
    for rnd in range(1, rounds + 1):
        active = [i for i in ids if i not in dropped and not (rnd == 1 and i in late)]
        field = [SwissPlayer(i, points[i], frozenset(met[i]), i in byes) for i in active]
        for table in pair_swiss(field, rng=random.Random(rng.random())).pairings:
            if table.is_bye:
                (p,) = table.players
                byes.add(p)
                points[p] += 3
                matches.append(MatchRecord(rnd, (p,), Outcome.BYE, p))
                continue
            a, b = table.players
            met[a].add(b)
            met[b].add(a)
            x = rng.random()
            if x < 0.03:
                points[a] += 1
                points[b] += 1
                matches.append(MatchRecord(rnd, (a, b), Outcome.DRAW))
            else:
                winner = a if x < 0.515 else b
                points[winner] += 3
                matches.append(MatchRecord(rnd, (a, b), Outcome.WIN, winner))
        for p in rng.sample(active, len(active) // 100):
            dropped[p] = rnd
    entrants = [Entrant(i, i in late, dropped.get(i)) for i in ids]
    return entrants, matches


def case(players: int, played: int, day2_rounds: int) -> dict[str, object]:
    """Time the outlook after ``played`` Day 1 rounds."""
    entrants, matches = play(players, played)
    rows = pokemon_standings(entrants, matches, rounds=played)
    owp = {r.player: float(r.owp) for r in rows}
    field = outlook_players(
        entrants, matches, measure=POKEMON, points_win=3, points_tie=1, first_tiebreakers=owp
    )
    plan = OutlookPlan(
        rounds_left=ROUNDS - played,
        cuts={"open": 8},
        day2_rounds=day2_rounds,
        draw_rate=draw_rate(matches),
        rounds_total=ROUNDS,
        day2_total=ROUNDS + day2_rounds,
    )
    walls, cpus, simulations = [], [], 0
    for k in range(REPETITIONS):
        wall, cpu = time.perf_counter(), time.process_time()
        simulations = outlook(field, plan, seed=k).simulations
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {
        "players": players,
        "after_round": played,
        "rounds_left": ROUNDS - played + day2_rounds,
        "two_day": bool(day2_rounds),
        "simulations": simulations,
        "wall_s": round(statistics.median(walls), 3),
        "cpu_s": round(statistics.median(cpus), 3),
        "load": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 800
    for played in range(1, ROUNDS):
        print(json.dumps(case(players, played, 0)), flush=True)
    for played in (1, 5, 8):
        print(json.dumps(case(players, played, 6)), flush=True)


if __name__ == "__main__":
    main()
