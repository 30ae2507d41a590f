"""Write to a SQLite database from a separate OS process (used by test_sqlite_workers).

Usage: ``python sqlite_writer.py NAME COUNT GO_FILE`` with ``DATABASE_URL`` naming a SQLite
file that has a ``tally(writer, n)`` table. Django is set up with the project's own
settings (config.settings, DEBUG on as under ``make run``); the process waits until
GO_FILE exists, then runs COUNT transactions that each read this writer's rows and insert
the next one, the read-then-write shape of a web request or a Celery task. Prints one JSON
line: ``{"written": COUNT}`` or ``{"error": message}``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import django

os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
django.setup()

from django.db import OperationalError, connection, transaction  # noqa: E402


def main(name: str, count: int, go: Path) -> dict:
    connection.ensure_connection()
    while not go.exists():
        time.sleep(0.005)
    try:
        for _ in range(count):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM tally WHERE writer = %s", [name])
                (n,) = cursor.fetchone()
                time.sleep(0.001)  # hold the transaction open while the other one tries
                cursor.execute("INSERT INTO tally (writer, n) VALUES (%s, %s)", [name, n])
    except OperationalError as e:
        return {"error": str(e)}
    return {"written": count}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]))), flush=True)
