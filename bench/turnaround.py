"""Round turnaround at a 2,000-player event, end to end (on demand only).

Builds an event to the last slip of round ``R`` quickly (players registered in bulk,
rounds 1…R-1 paired with ``round_pair`` and their results written in bulk — a bench
shortcut, not a service), then times the path a scorekeeper sees::

    last slip (slip_enter) → standings run done → pairing run done → round published

once through a real Celery worker (``celery -A config worker`` started here as a
subprocess on the bench's database and Redis) and once in-process (eager tasks). Seconds
and queries (``CaptureQueriesContext``, this process only: a worker's are not counted)
per stage, one JSON line per mode. In-process the standings run goes eagerly at the
slip's commit, so ``slip`` includes it (and ``pair_request`` the pairing), and so are
the public-page builds (``tournaments.public_pages``); through the worker those builds
run as tasks of their own, off this path (``bench/event.py`` times them as ``pages_s``).
Sample output, 2,000 players, round 5 → 6, through the worker, before the builds left
the path (on a busy machine)::

    {"mode": "worker", "round": 6, "seconds": {"slip": 0.37, "standings": 0.58,
     "pair_request": 0.017, "pair": 0.37, "publish": 0.63}, "queries": {"slip": 37,
     "standings": null, "pair_request": 13, "pair": null, "publish": 30},
     "total_s": 1.97, "slip_to_paired_s": 1.34}

and after (same machine, busier): slip 0.12 s in 19 queries, publish 0.06 s in 7.

Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/5
.venv/bin/python bench/turnaround.py [players] [round]``. A throwaway ``test_…`` database
is created and dropped, as the test suite does.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# DEBUG off, as in production; the worker subprocess inherits the same key.
os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from config.celery import app  # noqa: E402
from pairings.services import pairing_request, round_pair  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.models import BackgroundRun, Match, Outcome, Round, RoundStatus  # noqa: E402
from tournaments.services import Result  # noqa: E402

POD = "open"


def _bulk_results(rnd: Round, rng: random.Random, *, leave: int = 0) -> Match | None:
    """Write random results for every pending match but ``leave`` (bench shortcut)."""
    matches = list(rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"))
    kept = matches[:leave]
    now = timezone.now()
    for m in matches[leave:]:
        seats = [s.registration_id for s in m.seats.all()]
        if rng.random() < 0.03:
            m.outcome, m.winner_id = Outcome.DRAW, None
        else:
            m.outcome, m.winner_id = Outcome.WIN, rng.choice(seats)
        m.version, m.reported_at = m.version + 1, now
    Match.objects.bulk_update(matches[leave:], ["outcome", "winner", "version", "reported_at"])
    if not leave:
        Round.objects.filter(pk=rnd.pk).update(status=RoundStatus.COMPLETE, completed_at=now)
    return kept[0] if kept else None


def _build(players: int, last_round: int, rng: random.Random, mode: str):
    by = get_user_model().objects.create_user(f"bench-organiser-{mode}")
    event = services.event_create(name="Bench Turnaround", by=by, swiss_rounds=9)
    text = "\n".join(f"Player {i:04d}" for i in range(players))
    services.registrations_add_csv(event=event, text=text, by=by)
    for number in range(1, last_round + 1):
        (rnd,) = round_pair(event=event, group=POD, by=by, seed=rng.getrandbits(32))
        services.round_publish(round=rnd, by=by)
        services.round_start(round=rnd, by=by)
        last = _bulk_results(rnd, rng, leave=1 if number == last_round else 0)
    return event, by, last


def _wait(run_filter: dict, since: float, timeout: float = 120) -> BackgroundRun:
    """Poll (every 5 ms) until the newest matching run is done or failed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = BackgroundRun.objects.filter(**run_filter).order_by("-id").first()
        if run is not None and run.status in ("done", "failed"):
            if run.status == "failed":
                raise RuntimeError(run.error)
            return run
        time.sleep(0.005)
    raise TimeoutError(f"run {run_filter} not done after {timeout} s ({time.monotonic() - since})")


def _turnaround(event, by, last: Match, rng: random.Random, mode: str) -> dict:
    seats = [s.registration for s in last.seats.all()]
    stages: dict[str, float] = {}
    queries: dict[str, int] = {}
    standings_before = BackgroundRun.objects.filter(kind="standings").count()

    def stage(name: str, fn):
        t0 = time.perf_counter()
        with CaptureQueriesContext(connection) as ctx:
            out = fn()
        stages[name] = round(time.perf_counter() - t0, 3)
        queries[name] = len(ctx.captured_queries)
        return out

    t_start = time.perf_counter()
    stage("slip", lambda: services.slip_enter(match=last, result=Result.win(seats[0]), by=by))
    stage("standings", lambda: _wait({"event": event, "kind": "standings"}, t_start))
    assert BackgroundRun.objects.filter(kind="standings").count() > standings_before
    run, _ = stage("pair_request", lambda: pairing_request(event=event, group=POD, by=by))
    stage("pair", lambda: _wait({"pk": run.pk}, t_start))
    rnd = event.rounds.get(group__key=POD, number=run.round_number)
    stage("publish", lambda: services.round_publish(round=rnd, by=by))
    total = round(time.perf_counter() - t_start, 3)
    if mode == "worker":  # the worker's queries are not seen here, only the polling
        queries["standings"] = queries["pair"] = None
    return {
        "mode": mode,
        "round": rnd.number,
        "seconds": stages,
        "queries": queries,
        "total_s": total,
        # last slip saved → standings done → next round paired (publish not included)
        "slip_to_paired_s": round(total - stages["publish"], 3),
    }


def _worker(db_name: str) -> subprocess.Popen:
    env = dict(os.environ)
    db = settings.DATABASES["default"]
    env["DATABASE_URL"] = (
        f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db_name}"
    )
    env["REDIS_URL"] = settings.REDIS_URL
    cmd = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--loglevel=WARNING",
        "--concurrency=2",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
    return subprocess.Popen(cmd, cwd=ROOT, env=env)


def _ping(timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.control.ping(timeout=0.5):
            return
    raise TimeoutError("the Celery worker did not answer a ping")


def main(players: int, last_round: int, db_name: str) -> None:
    for mode in ("worker", "in-process"):
        rng = random.Random(2026)
        eager = mode == "in-process"
        app.conf.task_always_eager = eager
        t0 = time.perf_counter()
        event, by, last = _build(players, last_round, rng, mode)
        build = round(time.perf_counter() - t0, 1)
        print(json.dumps({"mode": mode, "players": players, "build_s": build}), flush=True)
        worker = None if eager else _worker(db_name)
        try:
            if worker is not None:
                _ping()
            print(json.dumps(_turnaround(event, by, last, rng, mode)), flush=True)
        finally:
            if worker is not None:
                worker.terminate()
                worker.wait(timeout=30)


if __name__ == "__main__":
    import logging

    logging.getLogger("celery").setLevel(logging.WARNING)
    if not settings.REDIS_URL or "postgres" not in settings.DATABASES["default"]["ENGINE"]:
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: the bench needs a real worker.")
    creation = connection.creation
    name = creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        main(
            int(sys.argv[1]) if len(sys.argv) > 1 else 2000,
            int(sys.argv[2]) if len(sys.argv) > 2 else 5,
            name,
        )
    finally:
        creation.destroy_test_db(name, verbosity=0)
