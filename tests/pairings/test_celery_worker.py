"""The pairing task through a real Celery worker and a real Redis broker (not eager)."""

from __future__ import annotations

import time

import pytest

from pairings.services import pairing_request
from tests import factories
from tournaments.models import BackgroundRun


@pytest.mark.django_db(transaction=True)
def test_pairing_request_is_done_by_a_worker_over_redis(redis_worker):
    organiser = factories.user("worker-organiser")
    event = factories.event_with_players(8, by=organiser)
    run, _ = pairing_request(event=event, group="open", by=organiser)
    assert run.status == "queued"  # not eager: the worker picks it up
    deadline = time.monotonic() + 30
    while run.status in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.1)
        run = BackgroundRun.objects.get(pk=run.pk)
    assert run.status == "done", run.error
    assert event.rounds.get(number=1).matches.count() == 4
