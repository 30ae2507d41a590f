"""A simulated two-day event through the services and a real Celery worker (on demand only).

2,000 Masters check in; 9 Day 1 Swiss rounds, the Day 2 cut (19+ match points or the
top 32, P-D2-1), 5 Day 2 rounds, then a top 8. Every round is paired by a pairing run
on the worker (``pairing_request``, as the staff "Pair" button does), published and
started; its results are written in bulk except the last one (a bench shortcut, not a
service), which is entered with ``slip_enter``. From that last slip the round's
*turnaround* is timed as a scorekeeper sees it::

    last slip → standings run done (worker) → pairing run done (worker) → next round published

One JSON line per round, seconds; ``turnaround_s`` is last slip → next round
published, ``pages_s`` then until its prebuilt public pages are ready (built by the
worker off that path, ``tournaments.public_pages``). ``cpu_s`` is the CPU time the
turnaround used: the worker's processes meanwhile (a page build running beside the
pairing included) plus this process's in ``slip_enter``, ``pairing_request`` and
``round_publish`` (not its polling); PostgreSQL's is not counted. On a shared machine it
shows what the turnaround costs while the wall-clock times show mostly the wait for a
core; ``load_1m`` is the load average. A line (the numbers are an illustration)::

    {"round": 4, "phase": "swiss", "tables": 1000, "slip_s": 0.05, "standings_s": 0.3,
     "pair_s": 0.4, "publish_s": 0.02, "turnaround_s": 0.77, "cpu_s": 0.9,
     "pages_s": 0.6, "load_1m": 0.4}

Round 1 has no previous round: its line times pairing and publishing only. ``--every-slip``
enters every result with ``slip_enter`` instead (slower; adds ``results_s``).

Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/5
.venv/bin/python bench/event.py [players] [--every-slip]``. A throwaway ``test_…``
database is created and dropped, as the test suite does; the worker runs on it.
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
os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)  # DEBUG off, as in production

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402
from turnaround import _ping, _wait, _worker  # noqa: E402 - the worker, as turnaround.py

from pairings.services import pairing_request  # noqa: E402
from standings.services import standings_data  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.models import BackgroundRun, Match, Outcome, Phase, Round  # noqa: E402
from tournaments.public_pages import pointer  # noqa: E402
from tournaments.services import Result  # noqa: E402

SWISS = (Phase.SWISS, "swiss-day2")


def _setup(players: int):
    by = get_user_model().objects.create_user("bench-organiser")
    event = services.event_create(
        name="Bench Regional", by=by, swiss_rounds=9, day2_rounds=5, top_cut_size=8
    )
    text = "\n".join(f"Player {i:04d}" for i in range(players))
    services.registrations_add_csv(event=event, text=text, by=by)
    return event, by


def _result(m: Match, rng: random.Random, elimination: bool) -> tuple[str, int | None]:
    seats = [s.registration_id for s in m.seats.all()]
    if not elimination and rng.random() < 0.03:
        return Outcome.DRAW, None
    return Outcome.WIN, rng.choice(seats)


def _results_but_last(rnd: Round, rng: random.Random, every: bool, by) -> Match:
    """Every pending result but the last: in bulk (a bench shortcut), or one by one with
    ``slip_enter`` (``every``). Returns the match left pending."""
    elimination = rnd.phase not in SWISS
    matches = list(rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"))
    last, rest = matches[-1], matches[:-1]
    now = timezone.now()
    for m in rest:
        outcome, winner = _result(m, rng, elimination)
        if every:
            regs = {s.registration_id: s.registration for s in m.seats.all()}
            services.slip_enter(
                match=m, result=Result.of(outcome=outcome, winner=regs.get(winner)), by=by
            )
        else:
            m.outcome, m.winner_id, m.version, m.reported_at = outcome, winner, m.version + 1, now
    if not every:
        Match.objects.bulk_update(rest, ["outcome", "winner", "version", "reported_at"])
    return last


def _pair_and_publish(event, pod: str, by, times: dict[str, float]) -> list[Round]:
    t0, cpu = time.perf_counter(), time.process_time()
    run, _ = pairing_request(event=event, group=pod, by=by)
    times["own_cpu"] = times.get("own_cpu", 0) + time.process_time() - cpu
    _wait({"pk": run.pk}, t0)
    t1 = time.perf_counter()
    rounds = list(event.rounds.filter(status="paired"))
    cpu = time.process_time()
    for rnd in rounds:
        services.round_publish(round=rnd, by=by)
    times["own_cpu"] = times.get("own_cpu", 0) + time.process_time() - cpu
    times["pair_s"], times["publish_s"] = t1 - t0, time.perf_counter() - t1
    return rounds


def _turnaround(event, by, last: Match, rng: random.Random, pod: str) -> tuple[list[Round], dict]:
    """Enter ``last`` (the round's last slip), then wait for the standings run, pair the
    next round of ``pod`` on the worker and publish it; the stage times."""
    winner = next(s.registration for s in last.seats.all())
    outcome = Outcome.WIN
    standings_before = event.runs.filter(kind=BackgroundRun.Kind.STANDINGS).count()
    times: dict[str, float] = {}
    t0, cpu = time.perf_counter(), time.process_time()
    services.slip_enter(match=last, result=Result.of(outcome=outcome, winner=winner), by=by)
    times["slip_s"], times["own_cpu"] = time.perf_counter() - t0, time.process_time() - cpu
    _wait({"event": event, "kind": BackgroundRun.Kind.STANDINGS}, t0)
    times["standings_s"] = time.perf_counter() - t0 - times["slip_s"]
    assert event.runs.filter(kind=BackgroundRun.Kind.STANDINGS).count() > standings_before
    rounds = _pair_and_publish(event, pod, by, times) if pod else []
    times["turnaround_s"] = time.perf_counter() - t0
    return rounds, times


TICK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(worker_pid: int) -> float:
    """CPU seconds used so far by the worker's process tree (Linux ``/proc``)."""
    pids: list[int] = []
    todo = [worker_pid]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        try:
            todo += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            continue
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    return total / TICK


def _pages_ready(slug: str, since: float, timeout: float = 60) -> float:
    deadline = time.monotonic() + timeout
    while pointer(slug) is None and time.monotonic() < deadline:
        time.sleep(0.005)
    return time.perf_counter() - since


def _line(rnd: Round, times: dict[str, float], pages_s: float) -> dict:
    line = {"round": rnd.number, "phase": rnd.phase, "tables": rnd.matches.count()}
    line.update({k: round(v, 3) for k, v in times.items()})
    line["pages_s"] = round(pages_s, 3)
    line["load_1m"] = round(os.getloadavg()[0], 2)
    return line


def _pod_after(event, rnd: Round) -> str:
    """The pod the next round is paired in ("" when the event is over)."""
    if rnd.phase in SWISS:
        return rnd.group.key
    return "" if rnd.matches.filter(table__isnull=False).count() <= 1 else rnd.group.key


def main(players: int, every: bool, worker_pid: int) -> None:
    rng = random.Random(2026)
    t0 = time.perf_counter()
    event, by = _setup(players)
    print(json.dumps({"check_in_s": round(time.perf_counter() - t0, 2), "players": players}))
    times: dict[str, float] = {}
    rounds = _pair_and_publish(event, "open", by, times)
    times["turnaround_s"] = times["pair_s"] + times["publish_s"]
    del times["own_cpu"]
    published = time.perf_counter()
    print(json.dumps(_line(rounds[0], times, _pages_ready(event.slug, published))), flush=True)
    while rounds:
        rnd = rounds[0]
        services.round_start(round=rnd, by=by)
        t = time.perf_counter()
        last = _results_but_last(rnd, rng, every, by)
        results_s = time.perf_counter() - t
        cpu = _cpu_seconds(worker_pid)
        rounds, times = _turnaround(event, by, last, rng, _pod_after(event, rnd))
        times["cpu_s"] = _cpu_seconds(worker_pid) - cpu + times.pop("own_cpu")
        if every:
            times = {"results_s": results_s, **times}
        published = time.perf_counter()
        if rounds:
            line = _line(rounds[0], times, _pages_ready(event.slug, published))
            print(json.dumps(line), flush=True)
    top = standings_data(event)["divisions"]["open"][:8]
    print(json.dumps({"final": [row["name"] for row in top]}))


if __name__ == "__main__":
    import logging

    logging.getLogger("celery").setLevel(logging.WARNING)
    if not settings.REDIS_URL or "postgres" not in settings.DATABASES["default"]["ENGINE"]:
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: the bench needs a real worker.")
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    creation = connection.creation
    name = creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    worker = _worker(name)
    try:
        _ping()
        main(int(args[0]) if args else 2000, "--every-slip" in sys.argv, worker.pid)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        creation.destroy_test_db(name, verbosity=0)
