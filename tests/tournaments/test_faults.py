"""Faults: Redis down for the cache or the broker, a worker that
died, a stale task message. A second redis-server, started on a free port by the test and
killed, plays the Redis that goes away; PostgreSQL is real."""

from __future__ import annotations

import datetime as dt
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from config.celery import app
from pairings.services import pairing_request, pairing_run_execute, round_pair
from tests import factories
from tests.processes import free_port
from tournaments import public_cache, services
from tournaments.models import (
    BackgroundRun,
    BackgroundRunStatus,
    Outcome,
    Round,
    RoundStatus,
)
from tournaments.services import Result, runs
from tournaments.services.runs import run_claim, run_heartbeat, runs_sweep
from tournaments.stored_text import shown

PAIRING, STANDINGS = BackgroundRun.Kind.PAIRING, BackgroundRun.Kind.STANDINGS
QUEUED, RUNNING = BackgroundRunStatus.QUEUED, BackgroundRunStatus.RUNNING
DONE, FAILED = BackgroundRunStatus.DONE, BackgroundRunStatus.FAILED
HX = {"HX-Request": "true"}
EMPTY_STANDINGS = "Standings appear here after the first round is complete."
TASKS = {PAIRING: "pairings.tasks.pair_round", STANDINGS: "standings.tasks.standings_compute"}


class RedisServer:
    """A redis-server of the test's own on a free port, without persistence: stopping
    and starting it again gives an empty Redis, as a restarted cache server would."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(
            ["redis-server", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 5
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(5)
            self.process = None


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A Redis that the test may stop (``stop``) and start again; killed at the end."""
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def cache_on(settings, redis_server):
    """The cache on the test's own Redis, with the production socket timeouts."""
    settings.CACHES = {
        "default": {
            "BACKEND": "tournaments.outages.TolerantRedisCache",
            "LOCATION": redis_server.url(),
            "KEY_PREFIX": "faults",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    return redis_server


def _reset_connections() -> None:
    """Forget connection pools made for the previous broker URL (new ones are made lazily)."""
    app._pool = None
    app.amqp._producer_pool = None


@contextmanager
def broker_at(url: str) -> Iterator[None]:
    """Celery with a real broker at ``url`` instead of the test settings' eager mode."""
    old = (app.conf.task_always_eager, app.conf.broker_url)
    app.conf.task_always_eager, app.conf.broker_url = False, url
    _reset_connections()
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.broker_url = old
        _reset_connections()


def _wait_for(run: BackgroundRun, seconds: float = 15) -> BackgroundRun:
    deadline = time.monotonic() + seconds
    while run.status in (QUEUED, RUNNING) and time.monotonic() < deadline:
        time.sleep(0.05)
        run = BackgroundRun.objects.get(pk=run.pk)
    return run


def _play(rnd: Round, by, *, leave: int = 0) -> None:
    """Enter a win for the first seat of every pending match of ``rnd`` but ``leave``."""
    matches = list(rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"))
    for m in matches[: len(matches) - leave]:
        first = min(m.seats.all(), key=lambda s: s.seat)
        services.slip_enter(match=m, result=Result.win(first.registration), by=by)


def _pair_and_play(event, by, *, leave: int = 0) -> Round:
    (rnd,) = round_pair(event=event, group="open", by=by, seed=7)
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    _play(rnd, by, leave=leave)
    return rnd


def _public(client, name: str, event, **params) -> str:
    response = client.get(reverse(f"public:{name}", args=[event.slug]), params)
    assert response.status_code == 200
    return response.content.decode()


# Part 1: the cache is an accelerator; public pages never answer 500 without it.


@pytest.mark.multiprocess
def test_public_pairings_and_standings_render_from_postgresql_while_the_cache_is_down(
    client, organiser, cache_on, caplog, django_capture_on_commit_callbacks
):
    event = factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=0)
    with django_capture_on_commit_callbacks(execute=True):
        _pair_and_play(event, organiser)  # round 1 complete: standings computed
        (rnd,) = round_pair(event=event, group="open", by=organiser, seed=8)
    cache_on.stop()
    caplog.set_level(logging.WARNING, logger="tournaments.outages")
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=rnd, by=organiser)  # its fragment cannot be stored
    names = [s.registration.player.name for m in rnd.matches.all() for s in m.seats.all()]

    by_table = _public(client, "pairings", event)
    by_name = _public(client, "pairings", event, by="name")
    standings = _public(client, "standings", event)

    assert "Round 2" in by_table and by_table.count('class="pairing"') == 4
    assert all(name in by_table and name in by_name for name in names)
    assert EMPTY_STANDINGS not in standings and names[0] in standings
    outage = [r for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(outage) == 1  # logged once, not per request

    cache_on.start()  # an empty Redis again: the next request stores the fragment
    assert all(name in _public(client, "pairings", event) for name in names)
    stored = cache.get(public_cache._key(event.pk))
    assert stored is not None and stored["rounds"] == [rnd.pk]
    assert any("reachable again" in r.getMessage() for r in caplog.records)


# Part 1: a slip saved while the broker is down answers success; the sweep sends its run.


@pytest.mark.multiprocess
@pytest.mark.django_db(transaction=True)
def test_the_last_slip_answers_success_with_the_broker_down_and_the_sweep_sends_standings(
    client, organiser, redis_server
):
    event = factories.event_with_players(4, by=organiser, swiss_rounds=3, top_cut_size=0)
    rnd = _pair_and_play(event, organiser, leave=1)
    last = rnd.matches.get(outcome=Outcome.PENDING)
    client.force_login(organiser)
    redis_server.stop()
    with broker_at(redis_server.url()):
        response = client.post(
            reverse("staff:match_result", args=[event.slug, last.pk]),
            {"result": "p1", "version": last.version},
            headers=HX,
        )
        assert response.status_code == 200
        last.refresh_from_db()
        rnd.refresh_from_db()
        assert last.outcome != Outcome.PENDING and rnd.status == RoundStatus.COMPLETE
        run = BackgroundRun.objects.get(event=event, kind=STANDINGS)
        assert (run.status, run.sent_at) == (QUEUED, None)  # recorded, not sent
        assert EMPTY_STANDINGS in _public(client, "standings", event)

        redis_server.start()  # the broker is back; a sweep runs a little later
        BackgroundRun.objects.filter(pk=run.pk).update(
            created_at=timezone.now() - runs.SEND_GRACE - dt.timedelta(seconds=1)
        )
        assert runs_sweep() == [(run.pk, "sent")]
        run.refresh_from_db()
        assert run.sent_at is not None and "task queue was unreachable" in shown(run.note)
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            run = _wait_for(run)
    assert run.status == DONE, run.error
    assert EMPTY_STANDINGS not in _public(client, "standings", event)


def test_pressing_pair_with_the_broker_down_fails_the_run_at_once_with_try_again(
    client, organiser, event8, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    pair = reverse("staff:pair", args=[event8.slug])
    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with broker_at(dead), django_capture_on_commit_callbacks(execute=True):
        assert client.post(pair, {"group": "open"}).status_code == 302
    run = BackgroundRun.objects.get(event=event8)
    assert (run.status, run.error) == (FAILED, runs.UNSENT)
    dashboard = client.get(reverse("staff:dashboard", args=[event8.slug])).content.decode()
    assert "Pairing open failed: Could not reach the task queue" in dashboard
    assert f'id="run-{run.pk}"' in dashboard and "every 1s" not in dashboard  # no polling
    assert f'action="{pair}"' in dashboard and "Try again" in dashboard

    with django_capture_on_commit_callbacks(execute=True):  # Try again, the broker back
        client.post(pair, {"group": "open"})
    assert event8.runs.filter(kind=PAIRING, status=DONE).count() == 1
    assert event8.rounds.filter(number=1, status=RoundStatus.PAIRED).exists()


# Part 2: the row is the truth; the sweep re-sends or fails what a worker lost.


def _running(event, kind=STANDINGS, *, attempts=1, silent_for=dt.timedelta(minutes=2), **kw):
    """A run a worker took ``attempts`` times, last heard of ``silent_for`` ago."""
    beat = timezone.now() - silent_for
    return BackgroundRun.objects.create(
        event=event,
        kind=kind,
        status=RUNNING,
        task=TASKS[kind],
        sent_at=beat,
        started_at=beat,
        heartbeat_at=beat,
        attempts=attempts,
        **kw,
    )


def test_a_run_whose_worker_died_is_sent_again_by_the_sweep_and_finishes(
    organiser, django_capture_on_commit_callbacks
):
    event = factories.event_with_players(4, by=organiser, swiss_rounds=3, top_cut_size=0)
    with django_capture_on_commit_callbacks(execute=True):
        _pair_and_play(event, organiser)
    event.runs.all().delete()
    lost = _running(event)
    alive = _running(event, PAIRING, group="open", silent_for=dt.timedelta(seconds=5))
    with django_capture_on_commit_callbacks(execute=True):  # the sweep sends after commit
        assert runs_sweep() == [(lost.pk, "sent")]
    lost.refresh_from_db()
    assert lost.status == DONE and lost.attempts == 2  # taken again, computed (eagerly)
    assert "The worker running this stopped" in shown(lost.note)
    alive.refresh_from_db()
    assert alive.status == RUNNING  # its worker still beats: left alone


def test_a_run_whose_worker_died_too_often_is_failed_with_try_again(
    client, organiser, event8, django_capture_on_commit_callbacks
):
    lost = _running(event8, attempts=runs.MAX_ATTEMPTS)
    with django_capture_on_commit_callbacks(execute=True):
        assert runs_sweep() == [(lost.pk, "failed")]
    lost.refresh_from_db()
    assert (lost.status, shown(lost.error)) == (FAILED, runs.WORKER_LOST % {"n": 2})
    client.force_login(organiser)
    page = client.get(reverse("staff:standings", args=[event8.slug])).content.decode()
    retry = reverse("staff:standings_retry", args=[event8.slug])
    assert "The worker running this stopped 2 times" in page and f'action="{retry}"' in page
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(retry).status_code == 302
    fresh = event8.runs.filter(kind=STANDINGS).exclude(pk=lost.pk).get()
    assert fresh.status == DONE and fresh.requested_by == organiser


def test_a_pairing_run_whose_worker_died_mid_pairing_pairs_its_round_once(
    organiser, event8, django_capture_on_commit_callbacks
):
    lost = _running(event8, PAIRING, group="open", round_number=1)
    with django_capture_on_commit_callbacks(execute=True):
        runs_sweep()
    lost.refresh_from_db()
    assert lost.status == DONE
    assert shown(lost.note).startswith("The worker running this stopped")
    assert list(event8.rounds.values_list("number", flat=True)) == [1]


def test_a_message_for_a_run_another_worker_holds_or_that_ended_does_nothing(event8):
    held = _running(event8, silent_for=dt.timedelta(seconds=1))
    assert run_claim(held.pk) is None
    BackgroundRun.objects.filter(pk=held.pk).update(status=DONE)
    assert run_claim(held.pk) is None
    held.refresh_from_db()
    assert held.attempts == 1


@pytest.fixture
def queued_tasks_sent(monkeypatch):
    """What the sweep sends after commit, recorded instead of sent."""
    sent: list[tuple[int, str]] = []
    monkeypatch.setattr(runs, "run_send", lambda run_id, task: sent.append((run_id, task)))
    return sent


def test_a_sent_run_no_worker_took_is_sent_again(
    event8, queued_tasks_sent, django_capture_on_commit_callbacks
):
    run = BackgroundRun.objects.create(
        event=event8,
        kind=STANDINGS,
        task=TASKS[STANDINGS],
        sent_at=timezone.now() - runs.START_GRACE - dt.timedelta(seconds=1),
    )
    fresh = BackgroundRun.objects.create(
        event=event8, kind=PAIRING, group="open", task=TASKS[PAIRING], sent_at=timezone.now()
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert runs_sweep() == [(run.pk, "sent")]
    assert queued_tasks_sent == [(run.pk, TASKS[STANDINGS])]
    assert fresh.pk not in [pk for pk, _ in queued_tasks_sent]


# Part 2: a stale message never pairs a round nobody asked for.


def test_a_stale_pairing_message_does_nothing_and_notes_it(organiser, event8):
    """Asked to pair round 2; staff paired round 2 (and played it) meanwhile: the message,
    delivered late, would have paired round 3 under the organiser's name."""
    _pair_and_play(event8, organiser)
    run = BackgroundRun.objects.create(
        event=event8,
        kind=PAIRING,
        group="open",
        task=TASKS[PAIRING],
        requested_by=organiser,
        round_number=2,
    )
    second = _pair_and_play(event8, organiser)  # another path: the pair command
    pairing_run_execute(run.pk)
    run.refresh_from_db()
    assert run.status == DONE and run.seed is None
    at = f"{timezone.localtime(second.paired_at):%H:%M}"
    assert (
        shown(run.note) == f"Superseded: round 2 was paired meanwhile ({at}); nothing was paired."
    )
    assert list(event8.rounds.values_list("number", flat=True).order_by("number")) == [1, 2]


def test_a_pairing_message_for_a_round_that_is_no_longer_next_does_nothing(organiser, event8):
    run = BackgroundRun.objects.create(
        event=event8, kind=PAIRING, group="open", task=TASKS[PAIRING], round_number=6
    )
    pairing_run_execute(run.pk)
    run.refresh_from_db()
    assert run.status == DONE and not event8.rounds.exists()
    assert shown(run.note) == (
        "Superseded: round 6 is no longer the next round (round 1 is); nothing was paired."
    )


def test_pairing_request_records_the_round_it_asks_for(organiser, event8, monkeypatch):
    monkeypatch.setattr(runs, "task_on_commit", lambda name, run_id: None)
    run, _ = pairing_request(event=event8, group="open", by=organiser)
    assert (run.round_number, run.task) == (1, TASKS[PAIRING])


# Part 2: the lease and the Celery settings behind it.


@pytest.mark.django_db(transaction=True)
def test_a_worker_holding_a_run_keeps_its_heartbeat_fresh(organiser, monkeypatch):
    event = factories.event_with_players(2, by=organiser)
    old = timezone.now() - dt.timedelta(minutes=1)
    run = _running(event, silent_for=dt.timedelta(minutes=1))
    monkeypatch.setattr(runs, "HEARTBEAT_EVERY", 0.02)
    monkeypatch.setattr(app.conf, "task_always_eager", False)
    with run_heartbeat(run.pk):
        deadline = time.monotonic() + 5
        while BackgroundRun.objects.get(pk=run.pk).heartbeat_at <= old:
            assert time.monotonic() < deadline, "no heartbeat"
            time.sleep(0.02)


def test_tasks_are_acknowledged_late_rejected_on_worker_loss_and_swept_by_beat():
    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
    sweep = app.conf.beat_schedule["runs-sweep"]
    assert sweep["task"] == "tournaments.tasks.runs_sweep" and sweep["schedule"] <= 30
    assert "tournaments.tasks.runs_sweep" in app.tasks


# Part 2: a real worker process killed with SIGKILL in the middle of a pairing.


def _children(pid: int) -> list[int]:
    """The ids of the processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


@contextmanager
def worker_process(broker: str) -> Iterator[subprocess.Popen[bytes]]:
    """``celery worker`` (prefork, one child) as its own OS process, on the test database
    and ``broker``; killed at the end."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "true",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": broker,
    }
    args = ["worker", "--pool=prefork", "--concurrency=1", "--loglevel=error"]
    args += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    celery = Path(sys.executable).parent / "celery"
    process = subprocess.Popen(
        [str(celery), "-A", "config", *args],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the children go with it
    )
    try:
        yield process
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


@contextmanager
def _lock_timeout() -> Iterator[None]:
    """A lock this test's connection waits for raises after 10 s instead of hanging."""
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '10s'")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


def _until(predicate, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.multiprocess
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_pairing_leaves_no_run_running_and_pairs_the_round_once(
    organiser, redis_server
):
    event = factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=0)
    url = redis_server.url()

    def status() -> str:
        return BackgroundRun.objects.get(pk=run.pk).status

    db = connection.settings_dict
    other = psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"])
    with broker_at(url), worker_process(url) as worker, other, _lock_timeout():
        # Another connection locks the event's row as select_for_update would (NO KEY: the
        # new run's foreign key may still share it), so the task blocks there, mid-task.
        other.execute("SET lock_timeout = '10s'")
        other.execute("SELECT 1 FROM tournaments_event WHERE id = %s FOR NO KEY UPDATE", [event.pk])
        run, _ = pairing_request(event=event, group="open", by=organiser)
        assert _until(lambda: status() == RUNNING), "the worker never took the run"
        (child,) = _children(worker.pid)
        os.kill(child, signal.SIGKILL)
        assert _until(lambda: _children(worker.pid) not in ([], [child]), 10)
        other.rollback()
        # The message comes back (reject on worker lost); the run keeps a fresh heartbeat
        # for a moment, so the new child leaves it to the sweep. Time passes:
        BackgroundRun.objects.filter(pk=run.pk).update(
            heartbeat_at=timezone.now() - runs.LEASE - dt.timedelta(seconds=1)
        )
        runs_sweep()
        assert _until(lambda: status() not in (QUEUED, RUNNING))
    run.refresh_from_db()
    assert run.status == DONE and run.attempts >= 2, (run.status, run.error, run.note)
    assert list(event.rounds.values_list("number", flat=True)) == [1]
