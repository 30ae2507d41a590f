"""Enter one match slip from a separate OS process (used by test_concurrency).

Usage: ``python slip_worker.py MATCH_ID WINNER_ID USER_ID VERSION LOCK_KEY`` with
``DATABASE_URL`` naming the test database. The process sets Django up, loads its
objects, then waits on a shared PostgreSQL advisory lock that the test holds
exclusively: when the test releases it, every worker enters its slip at the same
moment. Prints one JSON line: ``{"stored": winner id}`` or ``{"conflict": message}``.
"""

from __future__ import annotations

import json
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from tournaments import services  # noqa: E402
from tournaments.errors import ResultConflict  # noqa: E402
from tournaments.models import Match, Registration  # noqa: E402
from tournaments.services import Result  # noqa: E402


def main(match_id: int, winner_id: int, user_id: int, version: int, key: int) -> dict:
    match = Match.objects.get(pk=match_id)
    winner = Registration.objects.get(pk=winner_id)
    user = get_user_model().objects.get(pk=user_id)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock_shared(%s)", [key])  # the barrier
    try:
        services.slip_enter(match=match, result=Result.win(winner), version=version, by=user)
    except ResultConflict as e:
        return {"conflict": str(e)}
    return {"stored": winner_id}


if __name__ == "__main__":
    print(json.dumps(main(*(int(a) for a in sys.argv[1:6]))), flush=True)
