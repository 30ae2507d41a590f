"""Benchmark: the cut-line outlook (target: 800 players ≤ 2 s).

Plays a deterministic Pokémon Swiss with the real pairing engine (``pair_swiss``): 800
players (a few late entrants with a round-1 late-entry loss), 3 % ties, about 1 % of the
field dropping each round; then times ``pairings.engine.outlook.outlook`` (10,000
simulated endings at this size) after each Swiss round of a 9-round day (top 8), and
after rounds 1, 5 and 8 of a two-day event (9 + 6 rounds, Day 2 cut and top 8); a
flighted two-day event (``flights``: the same players in 2 flights of 8 + 6 rounds,
each flight its own Day 2 cut and a top 4 share, P-FL-2, P-FL-5, both flights timed
together); and a multiplayer pod Swiss (``pods``: 4-player pods paired by the real
``pair_pods``, 5 % drawn pods, timed with ``pod_outlook``, 10,000 endings, after each
round); and realistic pod events (``pod-events``: 100, 200 and 400 players, or the
players given, with the rounds and the top cut of P-RT-6 (6 rounds top 16, 7 rounds top
40, 8 rounds top 40), about 1 % of the field dropping each round so smaller pods appear,
timed after every round but the last, beside the same run's Swiss outlook of 800
players after round 1 as a reference: ``ratio`` is the pod outlook's CPU time over it).
Each figure is the median of
``REPETITIONS`` runs: wall-clock seconds and the process's CPU seconds (the machine is
shared: CPU time is the steadier figure when others run).

Run: ``.venv/bin/python bench/outlook.py [players] [swiss|flights|pods|pod-events]``
(prints one JSON line per case; without a second argument the first three; pods use 64
players unless given; pod events 100, 200 and 400 unless given).
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
    OutlookPlayer,
    PodRules,
    draw_rate,
    outlook,
    outlook_players,
    pod_outlook,
)
from pairings.engine.pods import PodPlayer, pair_pods  # noqa: E402
from pairings.engine.swiss import pair_swiss  # noqa: E402
from pairings.engine.types import SwissPlayer  # noqa: E402
from rulesets.tables import recommend  # noqa: E402
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


def _timed(run: object, repetitions: int = REPETITIONS) -> tuple[float, float]:
    walls, cpus = [], []
    for k in range(repetitions):
        wall, cpu = time.perf_counter(), time.process_time()
        run(k)  # type: ignore[operator]
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return round(statistics.median(walls), 3), round(statistics.median(cpus), 3)


def flights_case(players: int, played: int) -> dict[str, object]:
    """Two flights of ``players`` / 2 (8 Day 1 rounds each, P-FL-2), 6 Day 2 rounds,
    each flight's Day 2 cut and top 4 share: both flights' outlooks after ``played``."""
    rounds = ROUNDS - 1
    flights = []
    for flight in (1, 2):
        entrants, matches = play(players // 2, played, seed=24 + flight)
        rows = pokemon_standings(entrants, matches, rounds=played)
        owp = {r.player: float(r.owp) for r in rows}
        field = outlook_players(
            entrants, matches, measure=POKEMON, points_win=3, points_tie=1, first_tiebreakers=owp
        )
        plan = OutlookPlan(
            rounds_left=rounds - played,
            cuts={"open": 4},
            day2_rounds=6,
            draw_rate=draw_rate(matches),
            rounds_total=rounds,
            day2_total=rounds + 6,
        )
        flights.append((field, plan))
    wall, cpu = _timed(lambda k: [outlook(f, p, seed=k) for f, p in flights])
    return {
        "case": "flights",
        "players": players,
        "after_round": played,
        "rounds_left": rounds - played + 6,
        "wall_s": wall,
        "cpu_s": cpu,
        "load": round(os.getloadavg()[0], 2),
    }


def play_pods(
    players: int, rounds: int, seed: int = 24, drop_rate: float = 0.0
) -> tuple[list[OutlookPlayer], dict[str, int]]:
    """A pod Swiss of ``players`` over ``rounds`` rounds, paired by ``pair_pods`` (5 %
    drawn pods, ``drop_rate`` of the field dropping after each round): the players and
    their smaller pods so far."""
    rng = random.Random(seed)
    ids = [str(i) for i in range(1, players + 1)]
    points = dict.fromkeys(ids, 0)
    met: dict[str, set[str]] = {i: set() for i in ids}
    small = dict.fromkeys(ids, 0)
    dropped: set[str] = set()
    for _ in range(rounds):
        live = [i for i in ids if i not in dropped]
        order = sorted(live, key=lambda i: (-points[i], rng.random()))
        field = [
            PodPlayer(i, points[i], k, frozenset(met[i]), small[i]) for k, i in enumerate(order)
        ]
        for pod in pair_pods(field, rng=random.Random(rng.random())).pods:
            for p in pod.players:
                met[p].update(q for q in pod.players if q != p)
                small[p] += pod.size < 4
            if rng.random() < 0.05:
                for p in pod.players:
                    points[p] += 1
            else:
                points[rng.choice(pod.players)] += 7
        dropped.update(rng.sample(live, round(len(live) * drop_rate)))
    field = [
        OutlookPlayer(
            i, match_points=points[i], opponents=tuple(sorted(met[i])), active=i not in dropped
        )
        for i in ids
    ]
    return field, {i: k for i, k in small.items() if k}


def pods_case(players: int, rounds: int, played: int, cut: int) -> dict[str, object]:
    """The pod outlook (10,000 endings) after ``played`` of ``rounds`` pod rounds."""
    field, _ = play_pods(players, played)
    plan = OutlookPlan(
        rounds_left=rounds - played,
        cuts={"open": cut},
        points_win=7,
        points_tie=1,
        draw_rate=0.05,
        measure=None,
        rounds_total=rounds,
    )
    # one run each: a small event's repairs (pair_pods' exact search) take seconds
    wall, cpu = _timed(lambda k: pod_outlook(field, plan, PodRules(4), seed=k), 1)
    return {
        "case": "pods",
        "players": players,
        "after_round": played,
        "rounds_left": rounds - played,
        "cut": cut,
        "wall_s": wall,
        "cpu_s": cpu,
        "load": round(os.getloadavg()[0], 2),
    }


def pod_event_case(players: int, played: int, reference: float) -> dict[str, object]:
    """A pod event of ``players`` with P-RT-6's rounds and top cut: the pod outlook
    (10,000 endings) after ``played`` rounds, ~1 % of the field dropping each round;
    ``ratio`` is its CPU time over ``reference``'s (the Swiss outlook, same run)."""
    table = recommend("mtg-multiplayer", players)
    field, small = play_pods(players, played, drop_rate=0.01)
    plan = OutlookPlan(
        rounds_left=table.rounds - played,
        cuts={"open": table.cut},
        points_win=7,
        points_tie=1,
        draw_rate=0.05,
        measure=None,
        rounds_total=table.rounds,
    )
    wall, cpu = _timed(lambda k: pod_outlook(field, plan, PodRules(4, small), seed=k))
    return {
        "case": "pod-event",
        "players": players,
        "active": sum(p.active for p in field),
        "after_round": played,
        "rounds_left": table.rounds - played,
        "cut": table.cut,
        "wall_s": wall,
        "cpu_s": cpu,
        "ref_cpu_s": reference,
        "ratio": round(cpu / reference, 2),
        "load": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    which = sys.argv[2] if len(sys.argv) > 2 else "all"
    if which in ("all", "swiss"):
        for played in range(1, ROUNDS):
            print(json.dumps(case(players or 800, played, 0)), flush=True)
        for played in (1, 5, 8):
            print(json.dumps(case(players or 800, played, 6)), flush=True)
    if which in ("all", "flights"):
        for played in (1, 4, 7):
            print(json.dumps(flights_case(players or 800, played)), flush=True)
    if which in ("all", "pods"):
        for played in (3, 2, 1):
            cut = 16 if (players or 64) >= 64 else 4  # MP-SE-1 sizes
            print(json.dumps(pods_case(players or 64, 4, played, cut)), flush=True)
    if which == "pod-events":
        for size in (players,) if players else (100, 200, 400):
            # the same-run reference: the Swiss outlook's worst case (800 players after
            # round 1 of 9, top 8), timed again before each size
            reference = float(case(800, 1, 0)["cpu_s"])  # type: ignore[arg-type]
            for played in range(1, recommend("mtg-multiplayer", size).rounds):
                print(json.dumps(pod_event_case(size, played, reference)), flush=True)


if __name__ == "__main__":
    main()
