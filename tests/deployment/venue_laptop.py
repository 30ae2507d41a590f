"""A venue laptop for the tests: the project's own settings (``config.settings``) in OS
processes of their own, on a SQLite file in a folder of the test's, with no Redis (tasks
in-process), as ``make venue`` runs. No database of the test run is used.

``laptop(folder)`` is the environment; :func:`manage` runs a management command in it;
:data:`SETUP` builds the event the server tests play (24 players, round 1 started).
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import time
from pathlib import Path

import pytest

from tests.processes import manage

ROOT = Path(__file__).resolve().parents[2]
SECRET = "venue-test-key-" + "v" * 50
PASSWORD = "venue-pass-2025"

#: A staff account (``org``, organiser) and an event of 24 players whose round 1 is
#: started: 12 slips to enter. Prints ``{"slug", "matches": [[id, version], …]}``.
SETUP = f"""
import json
from django.contrib.auth import get_user_model
from pairings.services import round_pair
from tournaments import services
org = get_user_model().objects.create_user("org", password="{PASSWORD}")
ev = services.event_create(name="Venue Cup", by=org, swiss_rounds=3)
for i in range(1, 25):
    services.registration_add(event=ev, name=f"Player {{i:02d}}", player_id=f"{{3000 + i}}", by=org)
(rnd,) = round_pair(event=ev, group="open", by=org, seed=1)
services.round_publish(round=rnd, by=org)
services.round_start(round=rnd, by=org)
matches = [[m.pk, m.version] for m in rnd.matches.filter(outcome="pending").order_by("table")]
print(json.dumps({{"slug": ev.slug, "matches": matches}}))
"""


def laptop(folder: Path) -> dict[str, str]:
    """The environment of a venue laptop whose files are all in ``folder``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE", "DEBUG", "ALLOWED_HOSTS")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        CACHE_DIR=str(folder / "cache"),
        STATIC_ROOT=str(folder / "static"),
        SECRET_KEY=SECRET,
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def migrated(template: Path, folder: Path) -> dict[str, str]:
    """A laptop in ``folder`` whose database is a copy of the migrated ``template``
    folder's (:func:`migrated_template`: ``migrate`` is most of a laptop's set-up time)."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(template / "db.sqlite3", folder / "db.sqlite3")
    env = laptop(folder)
    env["STATIC_ROOT"] = str(template / "static")  # collected once, then only checked
    return env


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a migrated laptop database, made once per test run (import this
    fixture into a test module to use it)."""
    template = tmp_path_factory.mktemp("venue-template")
    manage(laptop(template), "migrate", "--noinput")
    return template


def get(port: int, path: str, host: str | None = None) -> tuple[int, str]:
    """``GET path`` on 127.0.0.1:``port`` with the ``Host`` header ``host``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("GET", path, headers={"Host": host} if host else {})
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    return response.status, body


def answering(port: int, path: str = "/", within: float = 60, host: str | None = None) -> float:
    """Seconds until the server on ``port`` answers ``path`` (fails after ``within``)."""
    start = time.monotonic()
    while True:
        try:
            status, _ = get(port, path, host)
            if status < 500:
                return time.monotonic() - start
        except OSError:
            pass
        assert time.monotonic() - start < within, f"nothing answered on port {port}"
        time.sleep(0.2)


def shell(env: dict[str, str], code: str) -> object:
    """The JSON value the Django shell code prints last."""
    return json.loads(manage(env, "shell", "-c", code).strip().splitlines()[-1])
