"""A simulated two-day event through the services on real PostgreSQL (on demand only).

2,000 Masters check in; 9 Day 1 Swiss rounds, the Day 2 cut (19+ match points or the
top 32, P-D2-1), 5 Day 2 rounds, then a top 8. Every round is paired with
``round_pair``, published, started, its slips entered one by one with ``slip_enter``
(random results, about 3 % ties), and the standings computed with ``standings_data``.
One JSON line per round::

    {"round": 3, "phase": "swiss", "tables": 1000, "pair_s": 0.9, "results_s": 6.1,
     "standings_s": 0.6, "pair_plus_standings_s": 1.5}

Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python
bench/event.py [players]``. A throwaway ``test_…`` database is created and dropped, as
the test suite does. Without Redis, the standings task after each round runs in-process
inside the last slip (counted in ``results_s``).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from pairings.services import round_pair  # noqa: E402
from standings.services import standings_data  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.models import Outcome, Round  # noqa: E402


def _setup(players: int):
    by = get_user_model().objects.create_user("bench-organiser")
    event = services.event_create(
        name="Bench Regional", by=by, swiss_rounds=9, day2_rounds=5, top_cut_size=8
    )
    for i in range(players):
        services.registration_add(event=event, name=f"Player {i:04d}", by=by)
    return event, by


def _results(rnd: Round, by, rng: random.Random) -> None:
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    elimination = rnd.phase != "swiss" and rnd.phase != "swiss-day2"
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats__registration"):
        seats = [s.registration for s in m.seats.all()]
        if not elimination and rng.random() < 0.03:
            services.slip_enter(match=m, outcome=Outcome.DRAW, winner=None, by=by)
        else:
            winner = rng.choice(seats)
            services.slip_enter(match=m, outcome=Outcome.WIN, winner=winner, by=by)


def _round(event, by, pod: str, rng: random.Random) -> list[dict]:
    t0 = time.perf_counter()
    rounds = round_pair(event=event, pod=pod, by=by, seed=rng.getrandbits(32))
    t1 = time.perf_counter()
    for rnd in rounds:
        _results(rnd, by, rng)
    t2 = time.perf_counter()
    standings_data(event)
    t3 = time.perf_counter()
    rnd = rounds[0]
    return [
        {
            "round": rnd.number,
            "phase": rnd.phase,
            "tables": rnd.matches.count(),
            "pair_s": round(t1 - t0, 3),
            "results_s": round(t2 - t1, 3),
            "standings_s": round(t3 - t2, 3),
            "pair_plus_standings_s": round(t1 - t0 + t3 - t2, 3),
        }
    ]


def main(players: int = 2000) -> None:
    rng = random.Random(2026)
    t0 = time.perf_counter()
    event, by = _setup(players)
    print(json.dumps({"check_in_s": round(time.perf_counter() - t0, 2), "players": players}))
    pod = "open"
    for _ in range(9 + 5):
        for line in _round(event, by, pod, rng):
            print(json.dumps(line), flush=True)
    for _ in range(3):  # top 8: quarter-finals, semi-finals, final
        for line in _round(event, by, pod if _ == 0 else "open-top-cut", rng):
            print(json.dumps(line), flush=True)
    top = standings_data(event)["divisions"]["open"][:8]
    print(json.dumps({"final": [row["name"] for row in top]}))


if __name__ == "__main__":
    import logging

    logging.getLogger("celery").setLevel(logging.WARNING)
    creation = connection.creation
    name = creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
    finally:
        creation.destroy_test_db(name, verbosity=0)
