"""One queued or running background run per event, kind and pairing group (the partial unique index
``run_one_active``); a second request finds the run already going, and a refusal never
lingers beside a round that was paired."""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from pairings.services import (
    pairing_request,
    pairing_run_execute,
    pairing_runs_for_staff,
    round_pair,
)
from tests import factories
from tournaments import services
from tournaments.errors import RoundStateError
from tournaments.models import BackgroundRun, BackgroundRunStatus, Outcome, Round, RoundStatus
from tournaments.services import Result, runs
from tournaments.services.runs import ABANDONED, run_finish, run_request

PAIRING, STANDINGS = BackgroundRun.Kind.PAIRING, BackgroundRun.Kind.STANDINGS
QUEUED, RUNNING = BackgroundRunStatus.QUEUED, BackgroundRunStatus.RUNNING
DONE, FAILED = BackgroundRunStatus.DONE, BackgroundRunStatus.FAILED
STANDINGS_TASK = "standings.tasks.standings_compute"


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def queued_tasks(monkeypatch):
    """The tasks ``run_request`` queues, recorded instead of sent."""
    sent: list[tuple[str, int]] = []
    monkeypatch.setattr(runs, "task_on_commit", lambda name, run_id: sent.append((name, run_id)))
    return sent


def pair(client, event, group="open", **kwargs):
    return client.post(reverse("staff:pair", args=[event.slug]), {"group": group}, **kwargs)


def dashboard(client, event) -> str:
    return client.get(reverse("staff:dashboard", args=[event.slug])).content.decode()


def win_first_seats(rnd, by):
    """Enter a win for the first seat of every pending match of ``rnd``."""
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        first = min(m.seats.all(), key=lambda s: s.seat)
        services.slip_enter(match=m, result=Result.win(first.registration), by=by)


def play(rnd, by):
    """Publish and start ``rnd``, then enter a win for the first seat of every match."""
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    win_first_seats(rnd, by)


# The partial unique index, at the database level.


def test_the_database_refuses_a_second_queued_or_running_run_of_one_pod(event8):
    BackgroundRun.objects.create(event=event8, kind=PAIRING, group="open", status=QUEUED)
    for status in (QUEUED, RUNNING):
        with pytest.raises(IntegrityError), transaction.atomic():
            BackgroundRun.objects.create(event=event8, kind=PAIRING, group="open", status=status)


def test_one_active_run_is_allowed_per_kind_and_per_pod_and_again_once_done(event8, organiser):
    first = BackgroundRun.objects.create(event=event8, kind=PAIRING, group="open")
    BackgroundRun.objects.create(event=event8, kind=STANDINGS, group="open")
    BackgroundRun.objects.create(event=event8, kind=PAIRING, group="masters", status=RUNNING)
    other = factories.event(by=organiser, name="Other Cup")
    BackgroundRun.objects.create(event=other, kind=PAIRING, group="open")
    BackgroundRun.objects.filter(pk=first.pk).update(status=DONE)
    BackgroundRun.objects.create(event=event8, kind=PAIRING, group="open", status=RUNNING)
    for status in (DONE, FAILED, DONE):  # finished runs never conflict
        BackgroundRun.objects.create(event=event8, kind=PAIRING, group="open", status=status)
    assert event8.runs.filter(kind=PAIRING, group="open").count() == 5


# Requests: one run, one task.


def test_a_second_request_gets_the_run_already_going_and_queues_no_task(
    event8, organiser, queued_tasks
):
    run, created = run_request(
        event_id=event8.pk, kind=PAIRING, group="open", by=organiser, task="t"
    )
    again, created_again = run_request(event_id=event8.pk, kind=PAIRING, group="open", task="t")
    assert (created, created_again) == (True, False)
    assert again == run and again.requested_by == organiser
    assert queued_tasks == [("t", run.pk)]


def test_a_request_that_loses_the_race_to_the_index_takes_the_winners_run(
    event8, queued_tasks, monkeypatch
):
    """The other request inserted its run after this one looked: the insert fails inside a
    savepoint and the transaction goes on with the run already going."""
    theirs = BackgroundRun.objects.create(event=event8, kind=PAIRING, group="open")
    looks = iter([None])
    real = runs.run_active
    monkeypatch.setattr(runs, "run_active", lambda *a, **kw: next(looks, None) or real(*a, **kw))
    with transaction.atomic():
        run, created = run_request(event_id=event8.pk, kind=PAIRING, group="open", task="t")
        assert BackgroundRun.objects.count() == 1  # the transaction is still usable
    assert (run, created) == (theirs, False)
    assert queued_tasks == []


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_the_same_moment_make_one_run_and_one_task(organiser, queued_tasks):
    """Two connections: the first holds its new run uncommitted while the second inserts
    its own, which waits on the unique index, fails when the first commits, and finds the
    first's run."""
    event = factories.event_with_players(4, by=organiser)
    results: dict[str, tuple[BackgroundRun, bool]] = {}
    inserted, release = threading.Event(), threading.Event()

    def request(name: str, hold: bool) -> None:
        try:
            with transaction.atomic():
                results[name] = run_request(event_id=event.pk, kind=PAIRING, group="open", task="t")
                if hold:
                    inserted.set()
                    release.wait(10)
        finally:
            connection.close()

    first = threading.Thread(target=request, args=("first", True))
    second = threading.Thread(target=request, args=("second", False))
    first.start()
    inserted.wait(10)
    second.start()
    waited = _until_a_lock_is_awaited()  # the second's insert waits on the index
    release.set()
    for t in (first, second):
        t.join(30)
    (run, created), (other, other_created) = results["first"], results["second"]
    assert waited  # the race really happened
    assert (created, other_created) == (True, False) and other == run
    assert BackgroundRun.objects.filter(event=event).count() == 1
    assert queued_tasks == [("t", run.pk)]


def _until_a_lock_is_awaited(seconds: float = 10) -> bool:
    """Wait until some connection to this database waits for a lock; False on timeout."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            if cursor.fetchone()[0]:
                return True
        time.sleep(0.02)
    return False


def test_a_run_left_queued_too_long_is_failed_and_replaced(event8, queued_tasks):
    stuck = BackgroundRun.objects.create(event=event8, kind=PAIRING, group="open")
    BackgroundRun.objects.filter(pk=stuck.pk).update(
        created_at=timezone.now() - dt.timedelta(minutes=20)
    )
    run, created = run_request(event_id=event8.pk, kind=PAIRING, group="open", task="t")
    stuck.refresh_from_db()
    assert created and run != stuck
    assert (stuck.status, stuck.error) == (FAILED, ABANDONED)


# Pairing: a double click gives one run and one round, and no failure shows.


def test_two_pair_requests_in_a_row_give_one_run_one_round_and_no_failure(
    staff_client, event8, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        pair(staff_client, event8)  # the worker pairs round 1 at once
    with django_capture_on_commit_callbacks(execute=True):
        second = pair(staff_client, event8, follow=True)  # the second click
    assert BackgroundRun.objects.filter(event=event8).count() == 1
    assert BackgroundRun.objects.get(event=event8).status == DONE
    (rnd,) = Round.objects.filter(event=event8)
    assert rnd.status == RoundStatus.PAIRED
    body = second.content.decode()
    assert "Round 1 is paired: review and publish it." in body  # a passing message
    for page in (body, dashboard(staff_client, event8)):
        assert "run-failed" not in page and "Pairing open failed" not in page


def test_a_second_click_while_the_first_run_is_queued_shows_that_run(
    staff_client, event8, organiser
):
    pair(staff_client, event8)  # on_commit callbacks not run: the run stays queued
    run = BackgroundRun.objects.get(event=event8)
    second = pair(staff_client, event8, follow=True).content.decode()
    assert BackgroundRun.objects.filter(event=event8).count() == 1
    at = f"{timezone.localtime(run.created_at):%H:%M}"
    assert f"Pairing Open already under way (started by organiser at {at})." in second
    assert f'id="run-{run.pk}"' in second and f"started by organiser at {at}" in second
    assert "run-failed" not in second


def test_pairing_request_refuses_a_pod_whose_round_is_already_paired(event8, organiser):
    round_pair(event=event8, group="open", by=organiser, seed=1)
    with pytest.raises(RoundStateError, match="Round 1 is paired"):
        pairing_request(event=event8, group="open", by=organiser)
    assert not BackgroundRun.objects.exists()


def test_a_queued_run_that_finds_its_round_paired_meanwhile_is_done_not_failed(event8, organiser):
    run = BackgroundRun.objects.create(event=event8, kind=PAIRING, group="open")
    round_pair(event=event8, group="open", by=organiser, seed=1)  # e.g. the pair command
    pairing_run_execute(run.pk)
    run.refresh_from_db()
    assert (run.status, run.error, run.seed) == (DONE, "", None)
    assert Round.objects.filter(event=event8).count() == 1


def test_a_failed_run_is_hidden_once_the_round_is_paired_by_a_later_run(
    staff_client, event8, organiser, django_capture_on_commit_callbacks
):
    rnd = factories.round_in_order(event8, by=organiser, status=RoundStatus.STARTED)
    with django_capture_on_commit_callbacks(execute=True):
        pair(staff_client, event8)  # results missing, a failed run on the group
    assert "Round 1 still has 4 result(s) missing" in dashboard(staff_client, event8)
    win_first_seats(rnd, organiser)
    assert "run-failed" in dashboard(staff_client, event8)  # still the latest run
    with django_capture_on_commit_callbacks(execute=True):
        pair(staff_client, event8)
    assert list(event8.runs.filter(kind=PAIRING).values_list("status", flat=True)) == [
        DONE,
        FAILED,
    ]
    assert event8.rounds.filter(number=2, status=RoundStatus.PAIRED).exists()
    assert "run-failed" not in dashboard(staff_client, event8)


def test_a_failed_run_is_hidden_by_a_round_paired_after_it_without_a_run(
    staff_client, event8, organiser
):
    BackgroundRun.objects.create(
        event=event8, kind=PAIRING, group="open", status=FAILED, error="Worker lost."
    )
    assert "Pairing open failed: Worker lost." in dashboard(staff_client, event8)
    round_pair(event=event8, group="open", by=organiser, seed=1)  # the pair command
    assert "Worker lost." not in dashboard(staff_client, event8)


def test_a_failure_in_another_pod_stays_shown(staff_client, organiser):
    event = factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=4)
    BackgroundRun.objects.create(
        event=event, kind=PAIRING, group="elsewhere", status=FAILED, error="Worker lost."
    )
    round_pair(event=event, group="open", by=organiser, seed=1)
    assert list(pairing_runs_for_staff(event)) == ["elsewhere"]


def test_a_top_cut_paired_after_a_failure_hides_it_on_its_swiss_pod(organiser):
    event = factories.event_with_players(8, by=organiser, swiss_rounds=1, top_cut_size=4)
    play(round_pair(event=event, group="open", by=organiser, seed=1)[0], organiser)
    failed = BackgroundRun.objects.create(
        event=event, kind=PAIRING, group="open", status=FAILED, error="Worker lost."
    )
    assert pairing_runs_for_staff(event) == {"open": failed}
    (cut,) = round_pair(event=event, group="open", by=organiser)
    assert cut.group.key == "open-top-cut" and pairing_runs_for_staff(event) == {}


# Standings: requests join the run going; one that changed results while it ran asks again.


def test_a_standings_request_joins_the_queued_run(event8, queued_tasks):
    queued = BackgroundRun.objects.create(event=event8, kind=STANDINGS)
    services.standings_refresh_on_commit(event8.pk)
    assert list(event8.runs.all()) == [queued] and queued_tasks == []
    queued.refresh_from_db()
    assert not queued.requested_again  # it has not read anything yet


def test_a_standings_request_while_one_runs_queues_one_follow_up_when_it_ends(event8, queued_tasks):
    running = BackgroundRun.objects.create(event=event8, kind=STANDINGS, status=RUNNING)
    services.standings_refresh_on_commit(event8.pk)
    services.standings_refresh_on_commit(event8.pk)
    assert event8.runs.count() == 1 and queued_tasks == []
    run_finish(running, status=DONE, task=STANDINGS_TASK)
    follow_up = event8.runs.get(status=QUEUED)
    assert running.status == DONE and event8.runs.count() == 2
    assert queued_tasks == [(STANDINGS_TASK, follow_up.pk)]


def test_a_standings_run_not_asked_again_queues_nothing_when_it_ends(event8, queued_tasks):
    running = BackgroundRun.objects.create(event=event8, kind=STANDINGS, status=RUNNING)
    run_finish(running, status=DONE, task=STANDINGS_TASK)
    assert event8.runs.count() == 1 and queued_tasks == []


# The migration: databases with duplicate active runs still migrate.


@pytest.mark.django_db(transaction=True)
def test_migration_0009_fails_older_duplicate_active_runs_before_adding_the_index(organiser):
    event = factories.event_with_players(2, by=organiser)
    executor = MigrationExecutor(connection)
    before = [("tournaments", "0008_selfreport_games")]
    executor.migrate(before)
    OldRun = executor.loader.project_state(before).apps.get_model("tournaments", "BackgroundRun")
    now = timezone.now()
    ids = []
    rows = [
        (9, "pairing", "open"),
        (5, "pairing", "open"),
        (1, "pairing", "open"),
        (3, "standings", ""),
    ]
    for minutes, kind, pod in rows:
        run = OldRun.objects.create(event_id=event.pk, kind=kind, pod=pod, status="queued")
        OldRun.objects.filter(pk=run.pk).update(created_at=now - dt.timedelta(minutes=minutes))
        ids.append(run.pk)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    statuses = dict(BackgroundRun.objects.values_list("pk", "status"))
    assert [statuses[i] for i in ids] == [FAILED, FAILED, QUEUED, QUEUED]
    assert "only one run per group" in BackgroundRun.objects.get(pk=ids[0]).error
    with pytest.raises(IntegrityError), transaction.atomic():
        BackgroundRun.objects.create(event=event, kind=PAIRING, group="open")
