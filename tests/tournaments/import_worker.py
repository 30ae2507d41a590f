"""Import an event JSON file from a separate OS process (used by test_unique_slugs).

Usage: ``python import_worker.py PATH LOCK_KEY`` with ``DATABASE_URL`` naming the test
database. The process imports the file with ``import_event`` inside a transaction that
it keeps open until it gets a shared hold of a PostgreSQL advisory lock the test holds
exclusively: a second worker importing an event of the same name meanwhile takes the
same slug and waits on the first one's row. Prints one JSON line: ``{"slug": slug}``.
"""

from __future__ import annotations

import json
import os
import sys
from io import StringIO

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402


def main(path: str, key: int) -> dict:
    out = StringIO()
    with transaction.atomic():
        call_command("import_event", path, stdout=out)
        with connection.cursor() as cursor:  # commit only when the test lets go
            cursor.execute("SELECT pg_advisory_lock_shared(%s)", [key])
    return {"slug": out.getvalue().strip().splitlines()[-1]}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], int(sys.argv[2]))), flush=True)
