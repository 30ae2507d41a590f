"""Events of the same name created at the same moment get different slugs (
part 5): the unique index refuses the second insert and ``event_insert`` retries it in a
savepoint, for imports and for the New-event service alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from interchange.formats.event_json import parse_event_json
from interchange.services import imports
from tests import factories
from tournaments import services
from tournaments.models import AuditEvent, Event
from tournaments.services import events as event_services

from .test_concurrency import _database_url

WORKER = Path(__file__).with_name("import_worker.py")
LOCK_KEY = 60_707
DOC = {
    "format": "matchslip.event.v1",
    "name": "Same Name Cup",
    "players": [{"id": p, "name": p.upper()} for p in "abcd"],
    "rounds": [
        {
            "number": 1,
            "matches": [
                {"table": 1, "players": ["a", "b"], "result": "a"},
                {"table": 2, "players": ["c", "d"], "result": "draw"},
            ],
        }
    ],
}


def _count(sql: str, params: list) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0]


def _waiting() -> tuple[int, int]:
    """(workers waiting on the advisory lock, transactions waiting on another's row)."""
    here = "database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    advisory = _count(
        f"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = %s "
        f"AND NOT granted AND {here}",
        [LOCK_KEY],
    )
    rows = _count(
        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'transactionid' AND NOT l.granted AND a.datname = current_database()",
        [],
    )
    return advisory, rows


@pytest.mark.multiprocess
@pytest.mark.django_db(transaction=True)
def test_two_processes_importing_the_same_name_at_once_both_succeed_with_different_slugs(
    tmp_path,
):
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(DOC))
    env = {**os.environ, "DATABASE_URL": _database_url()}
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
    try:
        workers = [
            subprocess.Popen(
                [sys.executable, str(WORKER), str(path), str(LOCK_KEY)],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        deadline = time.monotonic() + 60
        while _waiting() != (1, 1) and time.monotonic() < deadline:
            assert all(w.poll() is None for w in workers), [w.communicate() for w in workers]
            time.sleep(0.05)
        # one holds "same-name-cup" uncommitted; the other inserted it too and waits on it
        assert _waiting() == (1, 1)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])
    slugs = []
    for w in workers:
        out, err = w.communicate(timeout=60)
        assert w.returncode == 0, err
        slugs.append(json.loads(out.strip().splitlines()[-1])["slug"])
    assert sorted(slugs) == ["same-name-cup", "same-name-cup-2"]
    assert Event.objects.filter(name="Same Name Cup").count() == 2


def _racing(monkeypatch, taken: str) -> None:
    """The next slug looked up is ``taken``, as it was for a request that looked just
    before another request inserted it; later lookups are the real ones."""
    real = event_services.unique_slug
    calls = []

    def stale(name: str, **kwargs) -> str:
        calls.append(name)
        return taken if len(calls) == 1 else real(name, **kwargs)

    monkeypatch.setattr(event_services, "unique_slug", stale)


@pytest.mark.django_db
def test_creating_an_event_whose_slug_was_just_taken_retries_with_the_next_one(monkeypatch):
    organiser = factories.user("organiser")
    first = services.event_create(name="Spring Cup", by=organiser)
    _racing(monkeypatch, first.slug)
    second = services.event_create(name="Spring Cup", by=organiser)
    assert (first.slug, second.slug) == ("spring-cup", "spring-cup-2")
    assert AuditEvent.objects.filter(action="event.create").count() == 2  # the transaction went on


@pytest.mark.django_db
def test_importing_an_event_whose_slug_was_just_taken_retries_with_the_next_one(monkeypatch):
    data = parse_event_json(DOC)
    first = imports.event_import(data=data, by=None)
    _racing(monkeypatch, first.slug)
    second = imports.event_import(data=data, by=None)
    assert second.slug == "same-name-cup-2" and second.registrations.count() == 4


@pytest.mark.django_db
def test_after_repeated_collisions_the_slug_gets_a_random_suffix(monkeypatch):
    organiser = factories.user("organiser")
    services.event_create(name="Busy Cup", by=organiser)
    monkeypatch.setattr(
        event_services,
        "unique_slug",
        lambda name, random_suffix=False: "busy-cup-1a2b3c" if random_suffix else "busy-cup",
    )
    event = services.event_create(name="Busy Cup", by=organiser)
    assert event.slug == "busy-cup-1a2b3c"


@pytest.mark.django_db
def test_a_slug_given_by_the_caller_is_not_changed():
    organiser = factories.user("organiser")
    assert services.event_create(name="Demo", slug="demo-cup", by=organiser).slug == "demo-cup"
