"""Follow-up tasks without a worker (``tournaments.follow_ups``): with eager Celery (the
embedded default, venue mode) the outlook and the receipts counted ahead run on the
process's follow-up thread, so the slip that completes a round is answered without
waiting for the simulation. Real PostgreSQL, real commits."""

from __future__ import annotations

import threading

import pytest

from pairings.services import round_pair
from standings.models import CutOutlook
from standings.services import standings_latest
from tests import factories
from tournaments import follow_ups, services
from tournaments.models import Outcome
from tournaments.services import Result

pytestmark = pytest.mark.django_db(transaction=True)


def complete_round_one(organiser):
    event = factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=4)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
        first = m.seats.order_by("seat").first()
        services.slip_enter(match=m, result=Result.win(first.registration), by=organiser)
    return event


def test_the_last_slip_is_answered_before_the_outlook_which_follows_on_its_thread(
    organiser, settings
):
    settings.DEFER_FOLLOW_UPS = True
    assert follow_ups.deferred()
    gate = threading.Event()
    blocked = follow_ups._threads.submit(gate.wait, 60)  # the thread busy with older work
    try:
        event = complete_round_one(organiser)
        snapshot = standings_latest(event)
        assert snapshot is not None and snapshot.rounds_complete == 1  # standings at once
        assert not CutOutlook.objects.filter(snapshot=snapshot).exists()  # not waited for
    finally:
        gate.set()
    blocked.result(timeout=60)
    follow_ups.wait(timeout=120)
    stored = CutOutlook.objects.get(snapshot=snapshot)
    assert stored.rounds_complete == 1
    assert set(stored.data["players"]) == set(
        event.registrations.values_list("external_id", flat=True)
    )


def test_without_the_setting_the_outlook_is_there_when_the_slip_is_answered(organiser, settings):
    settings.DEFER_FOLLOW_UPS = False
    assert not follow_ups.deferred()
    event = complete_round_one(organiser)
    assert CutOutlook.objects.filter(snapshot=standings_latest(event)).exists()


def test_a_failing_follow_up_is_logged_and_the_next_one_still_runs(caplog):
    failed = follow_ups.send("standings.tasks.receipts_warm", -1)  # no such event
    ran = follow_ups.send("tournaments.no_such_task", 1)
    follow_ups.wait(timeout=30)
    assert failed.done() and ran.done()
    assert failed.exception() is None and ran.exception() is None  # never raised
    assert "follow-up task tournaments.no_such_task" in caplog.text
