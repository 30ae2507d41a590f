"""SQLite beside a Celery worker: with REDIS_URL set and no DATABASE_URL
the web server and the worker write the same SQLite file. The settings open it in WAL mode
with IMMEDIATE transactions and a 20 s busy timeout, so two processes writing at once
wait for each other instead of failing with "database is locked"."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.multiprocess  # starts other processes

WRITER = Path(__file__).with_name("sqlite_writer.py")
WRITES = 150


def test_two_processes_writing_one_sqlite_file_do_not_fail_with_database_is_locked(tmp_path):
    db = tmp_path / "db.sqlite3"
    with sqlite3.connect(db) as setup:
        setup.execute("CREATE TABLE tally (writer TEXT NOT NULL, n INTEGER NOT NULL)")
    go = tmp_path / "go"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DEBUG": "true",
        "DATABASE_URL": f"sqlite:///{db}",
    }
    writers = [
        subprocess.Popen(
            [sys.executable, str(WRITER), name, str(WRITES), str(go)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("web", "worker")
    ]
    time.sleep(1.0)  # both set up and connected
    go.touch()
    results = []
    for writer in writers:
        out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))

    assert results == [{"written": WRITES}, {"written": WRITES}]
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        for name in ("web", "worker"):
            rows = [n for (n,) in check.execute("SELECT n FROM tally WHERE writer = ?", [name])]
            assert sorted(rows) == list(range(WRITES))  # every read saw every earlier write
