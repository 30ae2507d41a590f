"""Public pages as prebuilt responses against the render path.

Run on demand (not part of the test suite), on PostgreSQL and Redis:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python bench/public_pages.py [--players 2048] [--requests 300] [--seconds 10]

Builds an event of ``--players`` with round 1 played (standings computed) and round 2
published, then measures, in the same run:

- in process (Django's test client, the whole middleware stack, no network): the mean
  time of a request for the pairings page (by table, by name) and the standings page,
  served prebuilt (plain, gzip, a 304 revalidation) and rendered as before this change
  (the view with the prebuilt path turned off), the ratio, and the queries of each;
- the time to build the prebuilt set once (what every change costs, after commit);
- when ``wrk`` is installed: ``wrk -t2 -c8 -d<seconds>s`` against gunicorn (2 sync
  workers) on 127.0.0.1, req/s and p99 for the same cases. The render case sends a
  session cookie (a signed-in visitor is never served prebuilt), which adds the session
  lookup: one query.

Prints one JSON line per case.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.core.signals import request_finished, request_started  # noqa: E402
from django.db import close_old_connections, connection  # noqa: E402
from django.test import Client  # noqa: E402

from pairings.services import round_pair  # noqa: E402
from standings.services import standings_compute  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.models import Match, Outcome, RoundStatus  # noqa: E402
from tournaments.public_pages import public_pages_refresh  # noqa: E402
from tournaments.views import prebuilt  # noqa: E402

PAGES = {
    "pairings_by_table": ("pairings/", {}),
    "pairings_by_name": ("pairings/", {"by": "name"}),
    "standings": ("standings/", {}),
}
GZIP = {"Accept-Encoding": "gzip"}


def emit(**fields) -> None:
    print(json.dumps({"bench": "public_pages", **fields}), flush=True)


def build_event(players: int):
    """An event of ``players``: round 1 played and its standings computed (results are
    written in bulk: the slips are not what is measured), round 2 published."""
    call_command("migrate", verbosity=0)
    event = services.event_create(name=f"Bench pages {players}", by=None, swiss_rounds=9)
    text = "\n".join(f"Player {i:05d},{100000 + i},1990" for i in range(players))
    services.registrations_add_csv(event=event, text=text, by=None)
    (rnd,) = round_pair(event=event, group="open", by=None, seed=1)
    services.round_publish(round=rnd, by=None)
    services.round_start(round=rnd, by=None)
    matches = list(rnd.matches.prefetch_related("seats"))
    for m in matches:
        seats = sorted(m.seats.all(), key=lambda s: s.seat)
        m.outcome = Outcome.BYE if len(seats) == 1 else Outcome.WIN
        m.winner_id = None if len(seats) == 1 else seats[0].registration_id
        m.version = 1
    Match.objects.bulk_update(matches, ["outcome", "winner", "version"])
    rnd.status = RoundStatus.COMPLETE
    rnd.save(update_fields=["status"])
    standings_compute(event=event)
    (rnd2,) = round_pair(event=event, group="open", by=None, seed=2)
    services.round_publish(round=rnd2, by=None)  # builds the prebuilt set on commit
    return event


def mean_ms(client: Client, url: str, params: dict, n: int, **headers) -> tuple[float, int, int]:
    """Mean ms per request over ``n`` GETs, the status, and the queries of one request."""
    queries: list[str] = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = client.get(url, params, headers=headers)
    start = time.perf_counter()
    for _ in range(n):
        client.get(url, params, headers=headers)
    return (time.perf_counter() - start) * 1000 / n, response.status_code, len(queries)


def in_process(event, n: int) -> None:
    # One connection across requests (as Django's test runner keeps it), not one each.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    client = Client()
    for page, (path, params) in PAGES.items():
        url = f"/e/{event.slug}/{path}"
        first = client.get(url, params)
        size = len(first.content)
        gz_size = len(client.get(url, params, headers=GZIP).content)
        cases = {
            "prebuilt_plain": {},
            "prebuilt_gzip": GZIP,
            "revalidate_304": {**GZIP, "If-None-Match": first["ETag"]},
        }
        results = {case: mean_ms(client, url, params, n, **h) for case, h in cases.items()}
        anonymous = prebuilt._anonymous
        prebuilt._anonymous = lambda request: False  # the view as before: render per request
        try:
            results["render_gzip"] = mean_ms(client, url, params, max(20, n // 10), **GZIP)
        finally:
            prebuilt._anonymous = anonymous
        for case, (ms, status, queries) in results.items():
            emit(
                where="in_process",
                page=page,
                case=case,
                ms_per_request=round(ms, 3),
                status=status,
                queries=queries,
                render_ratio=round(results["render_gzip"][0] / ms, 1),
                bytes=size,
                gzip_bytes=gz_size,
            )


def build_cost(event, times: int = 3) -> None:
    for pairings in (True, False):
        start = time.perf_counter()
        for _ in range(times):
            public_pages_refresh(event.pk, pairings=pairings)
        ms = (time.perf_counter() - start) * 1000 / times
        emit(where="in_process", case="build_set", with_pairings_fragment=pairings, ms=round(ms))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(url: str, seconds: float = 30) -> None:
    """Until both workers answer (a few requests in a row succeed)."""
    deadline, ok = time.monotonic() + seconds, 0
    while time.monotonic() < deadline and ok < 20:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                ok += response.status == 200
        except OSError:
            time.sleep(0.2)
    if ok < 20:
        raise RuntimeError("gunicorn did not start")


def _wrk(url: str, seconds: int, headers: dict[str, str]) -> dict:
    args = ["wrk", "-t2", "-c8", f"-d{seconds}s", "--latency"]
    for name, value in headers.items():
        args += ["-H", f"{name}: {value}"]
    out = subprocess.run(
        [*args, url], capture_output=True, text=True, timeout=seconds + 30, check=True
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {
        "requests_per_s": rps,
        "p99_ms": round(float(p99.group(1)) * scale, 2),
        "non_2xx_3xx": int(non_2xx.group(1)) if non_2xx else 0,
    }


def under_load(event, seconds: int) -> None:
    if seconds <= 0:
        return
    if shutil.which("wrk") is None:
        emit(where="gunicorn", skipped="wrk is not installed")
        return
    port = _free_port()
    gunicorn = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "config.wsgi",
        ],
        cwd=ROOT,
        env={**os.environ, "ALLOWED_HOSTS": "127.0.0.1"},
    )
    try:
        base = f"http://127.0.0.1:{port}/e/{event.slug}/"
        _wait_for(base + "pairings/")
        client = Client()
        etag = client.get(f"/e/{event.slug}/pairings/", headers=GZIP)["ETag"]
        cases = [
            ("pairings_by_table", "pairings/", "prebuilt_gzip", GZIP),
            ("pairings_by_table", "pairings/", "prebuilt_plain", {}),
            ("pairings_by_table", "pairings/", "revalidate_304", {**GZIP, "If-None-Match": etag}),
            ("pairings_by_name", "pairings/?by=name", "prebuilt_gzip", GZIP),
            ("standings", "standings/", "prebuilt_gzip", GZIP),
            ("pairings_by_table", "pairings/", "render_gzip", {**GZIP, "Cookie": "sessionid=x"}),
            ("standings", "standings/", "render_gzip", {**GZIP, "Cookie": "sessionid=x"}),
        ]
        for page, path, case, headers in cases:
            emit(
                where="gunicorn_2_workers_wrk_t2_c8",
                page=page,
                case=case,
                seconds=seconds,
                **_wrk(base + path, seconds, headers),
            )
    finally:
        gunicorn.terminate()
        gunicorn.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--seconds", type=int, default=10, help="per wrk case (at most 30)")
    args = parser.parse_args()
    start = time.perf_counter()
    event = build_event(args.players)
    emit(case="setup", players=args.players, seconds=round(time.perf_counter() - start, 1))
    in_process(event, args.requests)
    build_cost(event)
    under_load(event, min(args.seconds, 30))


if __name__ == "__main__":
    main()
