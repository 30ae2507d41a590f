"""On the embedded default (``make run``: SQLite, no Redis, the development
server), a round published by ``manage.py pair SLUG --publish`` — another process — reaches
the running server's open pages within seconds, and its pages on reload.

The server and the commands run as separate OS processes with the project's own settings
(``config.settings``, DEBUG on, no ``DATABASE_URL`` database server, no ``REDIS_URL``), as a
newcomer runs them. No database of the test run is used.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from tests import processes
from tests.processes import free_port

pytestmark = pytest.mark.multiprocess  # starts other processes

ROOT = Path(__file__).resolve().parents[2]
manage = partial(processes.manage, timeout=120)
SLUG = "demo-cup"
FINISH_ROUND = """
from tournaments import services
from tournaments.models import Event, Outcome
from tournaments.services import Result
event = Event.objects.get(slug="demo-cup")
rnd = event.rounds.order_by("-number").first()
for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
    services.slip_enter(match=m, result=Result.win(m.seats.first().registration), by=None)
print(rnd.number)
"""


@pytest.fixture
def embedded(tmp_path):
    """The environment of ``make run`` in a folder of its own: a SQLite file, the file
    cache, no Redis."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(
        DEBUG="true",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CACHE_DIR=str(tmp_path / "cache"),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def get(port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    return response.status, body


def answering(port: int, path: str) -> tuple[int, str]:
    """``path``'s answer once the server just started on ``port`` answers (30 s at most)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return get(port, path)
        except OSError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)


def listen(port: int, path: str, lines: queue.Queue) -> None:
    """Read the stream line by line into ``lines`` as ``(seconds, line)``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path)
    response = conn.getresponse()
    try:
        while True:
            line = response.fp.readline()
            if not line:
                return
            lines.put((time.monotonic(), line.decode().rstrip("\n")))
    except OSError:
        return


def wait_for(lines: queue.Queue, wanted: str, within: float) -> float:
    """The time the line ``wanted`` arrived; fails after ``within`` seconds."""
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        try:
            at, line = lines.get(timeout=left)
        except queue.Empty:
            break
        if line == wanted:
            return at
    pytest.fail(f"{wanted!r} did not arrive within {within} s")


def test_a_round_published_by_a_command_reaches_the_running_embedded_server(embedded):
    manage(embedded, "migrate", "--noinput")
    manage(embedded, "demo_event")
    played = int(manage(embedded, "shell", "-c", FINISH_ROUND).split()[-1])

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=embedded,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        status, before = answering(port, f"/e/{SLUG}/pairings/")
        assert status == 200 and f"Round {played}" in before
        assert f"Round {played + 1}" not in before

        _status, once = get(port, f"/e/{SLUG}/live/?once=1")
        version = json.loads(once)["versions"]["public"]
        lines: queue.Queue = queue.Queue()
        threading.Thread(
            target=listen, args=(port, f"/e/{SLUG}/live/?public={version}", lines), daemon=True
        ).start()
        wait_for(lines, "event: hello", within=10)

        published = time.monotonic()
        manage(embedded, "pair", SLUG, "--publish")
        told = wait_for(lines, "event: public", within=10)
        # the command's own run (pairing, building the pages) is most of this; the server
        # reads the change from the database within a second of its commit
        assert told - published < 10

        _status, after = get(port, f"/e/{SLUG}/pairings/")
        assert f"Round {played + 1}" in after  # a reload shows it too: no stale cache
        _status, fragment = get(port, f"/e/{SLUG}/pairings/?live=public-{version + 1}")
        assert f"Round {played + 1}" in fragment
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


BUMP = """
from tournaments import live
from tournaments.models import Event
print(live.bump(Event.objects.get(slug="demo-cup").pk, ["public"])[0].version)
"""


def test_the_asgi_server_holds_the_stream_and_hears_another_process(embedded):
    """Production serves the streams on uvicorn (ASGI: the event-loop path of
    ``live.stream``); a change made by another process reaches an open stream."""
    manage(embedded, "migrate", "--noinput")
    manage(embedded, "demo_event")
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-access-log",
            "--timeout-graceful-shutdown",
            "1",
        ],
        cwd=ROOT,
        env=embedded,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        status, once = answering(port, f"/e/{SLUG}/live/?once=1")
        assert status == 200
        version = json.loads(once)["versions"]["public"]
        lines: queue.Queue = queue.Queue()
        threading.Thread(
            target=listen, args=(port, f"/e/{SLUG}/live/?public={version}", lines), daemon=True
        ).start()
        wait_for(lines, "event: hello", within=10)
        bumped = int(manage(embedded, "shell", "-c", BUMP).split()[-1])
        assert bumped == version + 1
        wait_for(lines, "event: public", within=5)
        at, data = lines.get(timeout=5)
        assert data.startswith(f"data: {bumped} ")
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
