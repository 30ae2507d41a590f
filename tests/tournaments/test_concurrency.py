"""Two staff submit different results for the same match at the same moment, from two
OS processes against real PostgreSQL: exactly one is stored, the other is told what the
match was just recorded as, and the audit trail has one entry (row lock + version check).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from tests import factories
from tournaments import services
from tournaments.models import AuditEvent, Match, Phase, StaffRole

WORKER = Path(__file__).with_name("slip_worker.py")
LOCK_KEY = 60_606


def _database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _waiting_on_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = %s "
            "AND NOT granted "
            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            [LOCK_KEY],
        )
        return cursor.fetchone()[0]


def _start(args: list[int]) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": _database_url()}
    return subprocess.Popen(
        [sys.executable, str(WORKER), *map(str, args)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.multiprocess
@pytest.mark.django_db(transaction=True)
def test_two_processes_entering_different_results_for_one_match_never_lose_an_update():
    organiser = factories.user("race-organiser")
    event = factories.event_with_players(4, by=organiser)
    scorekeeper = factories.staff(event, StaffRole.SCOREKEEPER)
    regs = list(event.registrations.order_by("pk"))
    rnd = services.round_create(
        event=event,
        group=factories.group_row(event, "open"),
        number=1,
        phase=Phase.SWISS,
        by=organiser,
        tables=[(1, regs[:2], ""), (2, regs[2:], "")],
    )
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    match = rnd.matches.get(table=1)

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
    try:
        workers = [
            _start([match.pk, regs[0].pk, organiser.pk, 0, LOCK_KEY]),
            _start([match.pk, regs[1].pk, scorekeeper.pk, 0, LOCK_KEY]),
        ]
        deadline = time.monotonic() + 60
        while _waiting_on_lock() < 2 and time.monotonic() < deadline:
            assert all(w.poll() is None for w in workers), [w.communicate() for w in workers]
            time.sleep(0.05)
        assert _waiting_on_lock() == 2  # both processes stand at the barrier
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])
    outputs = []
    for w in workers:
        out, err = w.communicate(timeout=60)
        assert w.returncode == 0, err
        outputs.append(json.loads(out.strip().splitlines()[-1]))

    stored = [o["stored"] for o in outputs if "stored" in o]
    conflicts = [o["conflict"] for o in outputs if "conflict" in o]
    assert len(stored) == 1 and len(conflicts) == 1
    match = Match.objects.select_related("winner__player").get(pk=match.pk)
    assert (match.winner_id, match.version) == (stored[0], 1)
    assert conflicts[0] == f"This match was just recorded as {match.winner.player.name} wins."
    assert (
        AuditEvent.objects.filter(object_id=str(match.pk), action__startswith="result.").count()
        == 1
    )
