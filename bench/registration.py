"""Pasting players: ``registrations_add_csv`` against a bare bulk insert (on demand only).

Pastes ``players`` lines ``name,player id,birth year`` into a fresh event with the three
age divisions (so every line is placed by birth year, P-AGE-1), ``--repeat`` times, and
posts the same paste once through the staff page (``players_import``, as an organiser,
form and redirect included). The reference, measured in the same run, is a bare
``Player.objects.bulk_create`` of as many rows: the floor of any way to save that many
players. Prints one JSON line::

    {"bench": "registration_paste", "players": 5000, "paste_s": 0.7, "queries": 11,
     "view_post_s": 0.8, "reference_bulk_create_s": 0.05, "ratio": 14.0}

``paste_s`` and the reference are the medians of the repeats; ``ratio`` is
``paste_s / reference_bulk_create_s``. Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench
.venv/bin/python bench/registration.py [--players 5000] [--repeat 3]``. A throwaway
``test_…_registration`` database is created and dropped, as the test suite does.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # throwaway, DEBUG stays off
os.environ.setdefault("ALLOWED_HOSTS", "testserver")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from tournaments import services  # noqa: E402
from tournaments.models import Player  # noqa: E402

AGES = {"junior": "junior+senior", "senior": "junior+senior", "masters": "masters"}
YEARS = (2016, 2012, 1990)  # Junior, Senior, Masters in the season ending 2026


def _text(players: int, run: int) -> str:
    return "\n".join(
        f"Player {run}-{i:05d},{run * 1_000_000 + i},{YEARS[i % 3]}" for i in range(players)
    )


def _event(by, run: int):
    return services.event_create(
        name=f"Bench paste {run}", by=by, divisions=AGES, season_year=2026, swiss_rounds=9
    )


def _reference(players: int, run: int) -> float:
    rows = [
        Player(name=f"Ref {run}-{i:05d}", player_id=str(i), birth_year=1990) for i in range(players)
    ]
    t0 = time.perf_counter()
    with transaction.atomic():
        Player.objects.bulk_create(rows)
    return time.perf_counter() - t0


def _paste(by, players: int, run: int) -> tuple[float, int]:
    event, text = _event(by, run), _text(players, run)
    with CaptureQueriesContext(connection) as queries:
        t0 = time.perf_counter()
        regs = services.registrations_add_csv(event=event, text=text, by=by)
        seconds = time.perf_counter() - t0
    assert len(regs) == players
    return seconds, len(queries.captured_queries)


def _view_post(by, players: int, run: int) -> float:
    event, text = _event(by, run), _text(players, run)
    client = Client()
    client.force_login(by)
    url = reverse("staff:players_import", args=[event.slug])
    t0 = time.perf_counter()
    response = client.post(url, {"lines": text})
    seconds = time.perf_counter() - t0
    assert response.status_code == 302, response.status_code
    assert event.registrations.count() == players
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    by = get_user_model().objects.create_user("bench-organiser")
    reference, pastes, queries = [], [], 0
    for run in range(1, args.repeat + 1):
        reference.append(_reference(args.players, run))
        seconds, queries = _paste(by, args.players, run)
        pastes.append(seconds)
    view = _view_post(by, args.players, args.repeat + 1)
    paste_s, reference_s = statistics.median(pastes), statistics.median(reference)
    print(
        json.dumps(
            {
                "bench": "registration_paste",
                "players": args.players,
                "paste_s": round(paste_s, 3),
                "queries": queries,
                "view_post_s": round(view, 3),
                "reference_bulk_create_s": round(reference_s, 3),
                "ratio": round(paste_s / reference_s, 1),
            }
        )
    )


if __name__ == "__main__":
    import logging
    import warnings

    logging.getLogger("celery").setLevel(logging.WARNING)
    logging.getLogger("axes").setLevel(logging.WARNING)  # the organiser's login
    warnings.filterwarnings("ignore", message="No directory at")  # no collectstatic needed
    creation = connection.creation
    if connection.vendor == "postgresql":  # beside, never over, the test suite's database
        settings = connection.settings_dict
        settings["TEST"]["NAME"] = f"test_{settings['NAME']}_registration"
    name = creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        main()
    finally:
        creation.destroy_test_db(name, verbosity=0)
