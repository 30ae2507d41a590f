"""Public pairings page throughput: the cached fragment against rendering per request.

Run on demand (not part of the test suite):

    .venv/bin/python bench/pages.py [--players 2000] [--requests 200]

Uses ``DATABASE_URL`` / ``REDIS_URL`` when set (PostgreSQL and Redis give the realistic
numbers), otherwise a throwaway SQLite file and the local-memory cache. Requests go
through Django's test client in-process, so the numbers are the server's own cost per
request, without the network. Prints one JSON line per case.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from pairings.services import round_pair  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.public_cache import pairings_fragment_forget  # noqa: E402


def build_event(players: int):
    """An event with ``players`` registrations and a published round 1."""
    call_command("migrate", verbosity=0)
    event = services.event_create(name=f"Bench {players}", by=None, swiss_rounds=9)
    text = "\n".join(f"Player {i:05d},{100000 + i},1990" for i in range(players))
    services.registrations_add_csv(event=event, text=text, by=None)
    (rnd,) = round_pair(event=event, pod="open", by=None, seed=1)
    services.round_publish(round=rnd, by=None)
    return event


def rate(client: Client, url: str, n: int, before=None) -> float:
    """Requests per second over ``n`` GETs of ``url`` (``before`` runs ahead of each)."""
    start = time.perf_counter()
    for _ in range(n):
        if before:
            before()
        response = client.get(url)
        assert response.status_code == 200
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    event = build_event(args.players)
    url = f"/e/{event.slug}/pairings/"
    client = Client()
    client.get(url)
    cached = rate(client, url, args.requests)
    rendered = rate(
        client, url, max(10, args.requests // 10), before=lambda: pairings_fragment_forget(event.pk)
    )
    for case, value in (("cached_fragment", cached), ("render_per_request", rendered)):
        print(
            json.dumps(
                {
                    "bench": "public_pairings",
                    "case": case,
                    "players": args.players,
                    "requests_per_s": round(value, 1),
                }
            )
        )


if __name__ == "__main__":
    main()
