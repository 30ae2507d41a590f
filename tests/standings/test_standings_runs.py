"""Standings run in a task whose progress and failure live in a BackgroundRun row."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairings.services import round_pair
from standings.services import standings_run_execute
from tests import factories
from tournaments import services
from tournaments.models import BackgroundRun, Outcome
from tournaments.services import Result

pytestmark = pytest.mark.django_db(transaction=True)


def _play_round(event, by):
    (rnd,) = round_pair(event=event, group="open", by=by, seed=1)
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        services.slip_enter(match=m, result=Result.draw(), by=by)


def test_a_complete_round_records_a_done_standings_run_and_a_snapshot(organiser):
    event = factories.event_with_players(4, by=organiser, swiss_rounds=3)
    _play_round(event, organiser)
    run = BackgroundRun.objects.get(event=event, kind="standings")
    assert run.status == "done" and run.finished_at is not None
    assert event.standings.count() == 1
    standings_run_execute(run.pk)  # a second delivery of the same task changes nothing
    assert event.standings.count() == 1


def test_a_failed_standings_run_is_shown_to_staff(client, organiser):
    event = factories.event_with_players(4, by=organiser, swiss_rounds=3)
    BackgroundRun.objects.create(
        event=event,
        kind="standings",
        status="failed",
        error="Standings failed because of an unexpected error.",
    )
    client.force_login(organiser)
    page = client.get(reverse("staff:standings", args=[event.slug]))
    assert "The last standings computation failed" in page.content.decode()
