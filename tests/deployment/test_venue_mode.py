"""Venue mode (``manage.py venue``, ``make venue``): the command started as a process of
its own answers on the LAN address it announces (its host allowed, any other refused),
prints that address's QR code and shows it on the projector; and ``kill -9`` of the
server mid-round loses no slip the staff page answered as saved, the server serving
again within 60 s — restarted by the command itself, or by running the command again
after the whole laptop's processes were killed.

Each server runs the project's own settings on a SQLite file of the test's
(``tests/deployment/venue_laptop.py``), on a free port of 127.0.0.1.
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
import segno

from tests.deployment.venue_laptop import (
    PASSWORD,
    ROOT,
    SETUP,
    answering,
    get,
    migrated,
    shell,
)
from tests.deployment.venue_laptop import migrated_template as migrated_template  # fixture
from tests.processes import free_port
from tournaments.qr import qr_svg

pytestmark = pytest.mark.multiprocess  # starts other processes

LAN = "10.20.30.40"  # the address the command is told phones open (--address)


class Venue:
    """``manage.py venue`` in a session (process group) of its own; its output lines
    are collected in ``lines``."""

    def __init__(self, env: dict[str, str], port: int) -> None:
        self.port = port
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "venue", "--address", LAN, "--bind", "127.0.0.1"]
            + ["--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def server_pid(self) -> int:
        """The server process the command started (its one child)."""
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                return int(stat.parent.name)
        raise AssertionError("the venue command runs no server")

    def kill_all(self) -> None:
        """``kill -9`` of the command and its server at once (the laptop crashed)."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


@pytest.fixture
def venue_event(migrated_template, tmp_path):
    """A laptop with the set-up event: ``(env, {"slug", "matches"})``."""
    env = migrated(migrated_template, tmp_path / "laptop")
    return env, shell(env, SETUP)


def test_the_venue_command_answers_on_its_lan_address_and_shows_its_qr_code(venue_event):
    env, event = venue_event
    port = free_port()
    venue = Venue(env, port)
    try:
        lan = f"{LAN}:{port}"
        answering(port, "/", host=lan)
        status, home = get(port, "/", host=lan)
        assert status == 200 and "Venue Cup" in home
        assert get(port, "/", host=f"127.0.0.1:{port}")[0] == 200  # the laptop's own browser
        assert get(port, "/", host="attacker.example")[0] == 400  # any other host refused

        url = f"http://{lan}/"
        assert f"Matchslip venue mode: phones on this network open {url}" in venue.lines
        printed = io.StringIO()
        segno.make_qr(url, error="m").terminal(out=printed, compact=True)
        assert printed.getvalue().rstrip("\n") in "\n".join(venue.lines)  # its QR code

        # the projector, opened on the laptop itself, shows the QR code of the LAN address
        pairings = f"http://{lan}/e/{event['slug']}/pairings/"
        status, projector = get(port, f"/e/{event['slug']}/timer/")
        assert status == 200
        assert pairings in projector
        assert qr_svg(pairings, title="QR code of the public pairings") in projector
    finally:
        venue.stop()
    assert venue.process.returncode is not None


class Staff:
    """A scorekeeper's browser: signs in, then posts slips as the round page's HTMX
    buttons do (an answer 200 is the row shown as saved)."""

    def __init__(self, port: int, slug: str) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.slug = slug
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def _csrf(self) -> str:
        return next(c.value or "" for c in self.jar if c.name == "csrftoken")

    def login(self) -> None:
        page = self.opener.open(f"{self.base}/accounts/login/", timeout=20).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token is not None
        form = {"username": "org", "password": PASSWORD, "csrfmiddlewaretoken": token[1]}
        self.opener.open(
            f"{self.base}/accounts/login/", urllib.parse.urlencode(form).encode(), timeout=20
        )
        assert any(c.name == "sessionid" for c in self.jar)

    def slip(self, match: int, version: int) -> bool:
        """Post "player 1 wins" for ``match``; True when it answered saved."""
        body = urllib.parse.urlencode(
            {"result": "p1", "version": version, "csrfmiddlewaretoken": self._csrf()}
        ).encode()
        request = urllib.request.Request(
            f"{self.base}/e/{self.slug}/staff/matches/{match}/result/",
            data=body,
            headers={"HX-Request": "true"},
        )
        try:
            with self.opener.open(request, timeout=20) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False


def enter_until_killed(staff: Staff, slips: list[list[int]], saved: list[int]) -> None:
    """Enter ``slips`` one after another, each saved one's match id added to ``saved``;
    stop at the first that is not answered (the server was killed under it)."""
    while slips:
        match, version = slips.pop(0)
        if not staff.slip(match, version):
            return
        saved.append(match)


def kill_mid_round(staff: Staff, slips: list[list[int]], saved: list[int], kill) -> None:
    """Enter slips in a thread; once three more are saved, ``kill`` while it enters."""
    wanted = len(saved) + 3
    entering = threading.Thread(target=enter_until_killed, args=(staff, slips, saved))
    entering.start()
    deadline = time.monotonic() + 30
    while len(saved) < wanted:
        assert time.monotonic() < deadline and entering.is_alive(), "slips were not saved"
        time.sleep(0.01)
    kill()
    entering.join(timeout=30)


RECORDED = """
import json
from django.db import connection
from tournaments.models import Match
with connection.cursor() as c:
    c.execute("PRAGMA synchronous")
    (synchronous,) = c.fetchone()
rows = {
    m.pk: [m.outcome, m.winner_id == m.seats.get(seat=1).registration_id]
    for m in Match.objects.filter(round__event__slug="venue-cup")
}
print(json.dumps({"synchronous": synchronous, "matches": rows}))
"""


def test_kill_9_mid_round_loses_no_saved_slip_and_the_server_serves_again_within_60_s(
    venue_event,
):
    env, event = venue_event
    slips = list(event["matches"])
    port = free_port()
    venue = Venue(env, port)
    saved: list[int] = []
    try:
        answering(port)
        staff = Staff(port, event["slug"])
        staff.login()

        # the server alone killed: the command starts it again
        old = venue.server_pid()
        kill_mid_round(staff, slips, saved, lambda: os.kill(old, signal.SIGKILL))
        killed = time.monotonic()
        assert answering(port, within=60) < 60
        assert time.monotonic() - killed < 60 and venue.server_pid() != old
        assert "The server stopped (signal 9); starting it again." in venue.lines

        # the command and its server killed at once: the command run again
        kill_mid_round(staff, slips, saved, venue.kill_all)
        venue = Venue(env, port)
        assert answering(port, within=60) < 60
        staff.login()  # the same account; the sessions survived too, but a new browser
        match, version = slips.pop(0)
        assert staff.slip(match, version)  # slips are saved again
        saved.append(match)
    finally:
        venue.stop()

    recorded = shell(env, RECORDED)
    assert recorded["synchronous"] == 2  # FULL: a commit is on disk before the answer
    assert len(saved) >= 7
    for match in saved:  # every slip answered saved is there, as entered
        assert recorded["matches"][str(match)] == ["win", True], match
