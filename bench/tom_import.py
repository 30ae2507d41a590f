"""Importing a big TOM ``.tdf`` file: ``event_import_tdf`` end to end (on demand only).

Builds a ``--players`` Masters event with ``--rounds`` finished Swiss rounds from the
``<tournament>`` and ``<data>`` of the real TOM file in ``tests/data/pokemon`` (player ids
``9…``, tables from 1, a bye when the count is odd, a draw at every tenth table), then
imports it ``--repeat`` times as ``import_tdf`` does (parse, check, write). Prints one JSON line::

    {"bench": "tom_import", "players": 5000, "rounds": 9, "file_mb": 5.8,
     "import_s": 9.3, "queries": 53, "peak_rss_mb": 169.1}

``import_s`` is the median of the repeats; ``peak_rss_mb`` is the process's peak
resident size (``resource.getrusage``, the whole run). Run:
``DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python
bench/tom_import.py [--players 5000] [--rounds 9] [--repeat 1]``. A throwaway
``test_…_tom_import`` database is created and dropped, as the test suite does.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
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
from django.db import connection  # noqa: E402

from tournaments import services  # noqa: E402

TEMPLATE = Path(__file__).resolve().parent.parent / "tests/data/pokemon"
STAMP = "<timestamp>11/30/2025 11:00:00</timestamp>"


def _head() -> str:
    """The real file up to its ``<players>``: ``<tournament>``, ``<data>``, time elapsed."""
    (path,) = sorted(TEMPLATE.glob("*.tdf"))[:1]
    text = path.read_text(encoding="utf-8")
    return text[: text.index("\t<players>")]


def _player(uid: int) -> str:
    return (
        f'\t\t<player userid="{uid}">\n\t\t\t<firstname>Player</firstname>\n'
        f"\t\t\t<lastname>{uid}</lastname>\n\t\t\t<birthdate>02/27/1990</birthdate>\n"
        "\t\t\t<starter>true</starter>\n"
        "\t\t\t<creationdate>11/30/2025 10:00:00</creationdate>\n"
        "\t\t\t<lastmodifieddate>11/30/2025 10:00:00</lastmodifieddate>\n\t\t</player>\n"
    )


def _round(number: int, ids: list[int], rng: random.Random) -> str:
    ids = ids[:]
    rng.shuffle(ids)
    out = [f'\t\t\t\t<round number="{number}" type="3" stage="6" >\n\t\t\t\t\t<matches>\n']
    if len(ids) % 2:
        bye = ids.pop()
        out.append(
            f'\t\t\t\t\t\t<match outcome="5">\n\t\t\t\t\t\t\t<player userid="{bye}"/>\n'
            f"\t\t\t\t\t\t\t{STAMP}\n\t\t\t\t\t\t\t<tablenumber>0</tablenumber>\n"
            "\t\t\t\t\t\t</match>\n"
        )
    for table, i in enumerate(range(0, len(ids), 2), start=1):
        outcome = 3 if table % 10 == 0 else rng.choice((1, 2))
        out.append(
            f'\t\t\t\t\t\t<match outcome="{outcome}">\n'
            f'\t\t\t\t\t\t\t<player1 userid="{ids[i]}"/>\n'
            f'\t\t\t\t\t\t\t<player2 userid="{ids[i + 1]}"/>\n'
            f"\t\t\t\t\t\t\t{STAMP}\n\t\t\t\t\t\t\t<tablenumber>{table}</tablenumber>\n"
            "\t\t\t\t\t\t</match>\n"
        )
    out.append("\t\t\t\t\t</matches>\n\t\t\t\t</round>\n")
    return "".join(out)


def tom_file(players: int, rounds: int, seed: int = 14) -> bytes:
    """A finished Swiss TOM file: ``players`` Masters, ``rounds`` random rounds."""
    rng = random.Random(seed)
    ids = [9_000_001 + i for i in range(players)]
    parts = [_head(), "\t<players>\n", *map(_player, ids), "\t</players>\n\t<pods>\n"]
    parts.append('\t\t<pod category="2" stage="1">\n\t\t\t<subgroups>\n')
    parts.append('\t\t\t\t<subgroup number="1">\n\t\t\t\t\t<players>\n')
    parts += [f'\t\t\t\t\t\t<player userid="{uid}" />\n' for uid in ids]
    parts.append("\t\t\t\t\t</players>\n\t\t\t\t</subgroup>\n\t\t\t</subgroups>\n")
    parts.append("\t\t\t<rounds>\n")
    parts += [_round(n, ids, rng) for n in range(1, rounds + 1)]
    parts.append("\t\t\t</rounds>\n\t\t</pod>\n\t</pods>\n</tournament>\n")
    return "".join(parts).encode()


def _counter(counted: list[str]):
    """A database execute wrapper that counts queries (no 9,000-query log cap)."""

    def wrapper(execute, sql, params, many, context):
        counted.append(sql[:0])
        return execute(sql, params, many, context)

    return wrapper


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    content = tom_file(args.players, args.rounds)
    by = get_user_model().objects.create_user("bench-organiser")
    seconds, queries = [], 0
    for _ in range(args.repeat):
        counted: list[str] = []
        with connection.execute_wrapper(_counter(counted)):
            t0 = time.perf_counter()
            event = services.event_import_tdf(content=content, by=by)
            seconds.append(time.perf_counter() - t0)
        queries = len(counted)
        assert event.registrations.count() == args.players
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(
        json.dumps(
            {
                "bench": "tom_import",
                "players": args.players,
                "rounds": args.rounds,
                "file_mb": round(len(content) / 2**20, 1),
                "import_s": round(statistics.median(seconds), 3),
                "queries": queries,
                "peak_rss_mb": round(peak_kb / 1024, 1),
            }
        )
    )


if __name__ == "__main__":
    import logging
    import warnings

    logging.getLogger("celery").setLevel(logging.WARNING)
    warnings.filterwarnings("ignore", message="No directory at")  # no collectstatic needed
    creation = connection.creation
    if connection.vendor == "postgresql":  # beside, never over, the test suite's database
        settings = connection.settings_dict
        settings["TEST"]["NAME"] = f"test_{settings['NAME']}_tom_import"
    name = creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        main()
    finally:
        creation.destroy_test_db(name, verbosity=0)
