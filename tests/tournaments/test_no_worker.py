"""A dead worker is visible: the staff pages that show a background run
(dashboard pairing status, standings page) and the import job page say when no worker has
answered, judged in their own request from the row's lease stamps, and offer "Try again"
once the lease is lost; a Try again sends the same run again (or fails it and starts one)
and never makes a second active run."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from interchange.services import import_jobs
from tests.paths import DATA
from tournaments.models import (
    BackgroundRun,
    BackgroundRunStatus,
    ImportFormat,
    ImportJob,
    ImportJobStatus,
    RoundStatus,
)
from tournaments.services import runs
from tournaments.services.runs import NoAnswer, no_answer
from tournaments.stored_text import shown

PAIRING, STANDINGS = BackgroundRun.Kind.PAIRING, BackgroundRun.Kind.STANDINGS
QUEUED, RUNNING = BackgroundRunStatus.QUEUED, BackgroundRunStatus.RUNNING
DONE, FAILED = BackgroundRunStatus.DONE, BackgroundRunStatus.FAILED
WER = DATA / "mtg" / "wer-modern-weekly-2018-10-29.wer"
NOW = timezone.now()


def ago(seconds: float) -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=seconds)


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client


def pairing_run(event, **stamps) -> BackgroundRun:
    """A pairing run of group "open" for round 1, with the given lease stamps."""
    run = BackgroundRun.objects.create(
        event=event, kind=PAIRING, group="open", task="pairings.tasks.pair_round", round_number=1
    )
    BackgroundRun.objects.filter(pk=run.pk).update(**stamps)
    run.refresh_from_db()
    return run


def dashboard(client, event) -> str:
    return client.get(reverse("staff:dashboard", args=[event.slug])).content.decode()


def said(page: str, text: str, at_least: int) -> bool:
    """``text`` (with ``{n}`` for the seconds) is on ``page`` with ``at_least`` seconds or
    a few more (the page judges at its own moment, a little after the test set the row)."""
    pattern = re.escape(text).replace(re.escape("{n}"), r"(\d+)")
    found = re.search(pattern, page)
    return found is not None and at_least <= int(found.group(1)) <= at_least + 5


# The judgement, from the row alone.


@pytest.mark.parametrize(
    ("stamps", "expected"),
    [
        ({"status": QUEUED, "sent_at": 5}, None),
        ({"status": QUEUED, "sent_at": 40}, NoAnswer("unpicked", 40, lost=False)),
        ({"status": QUEUED, "sent_at": 61}, NoAnswer("unpicked", 61, lost=True)),
        ({"status": QUEUED, "created_at": 5}, None),
        ({"status": QUEUED, "created_at": 12}, NoAnswer("unsent", 12, lost=True)),
        ({"status": RUNNING, "started_at": 60, "heartbeat_at": 15}, None),
        ({"status": RUNNING, "started_at": 60, "heartbeat_at": 25}, NoAnswer("silent", 25, False)),
        ({"status": RUNNING, "started_at": 60, "heartbeat_at": 45}, NoAnswer("silent", 45, True)),
        ({"status": DONE, "sent_at": 600}, None),
        ({"status": FAILED, "sent_at": 600}, None),
    ],
)
def test_no_answer_is_judged_from_the_rows_stamps(stamps, expected):
    row = BackgroundRun(created_at=NOW - dt.timedelta(seconds=90))
    for name, value in stamps.items():
        at = NOW - dt.timedelta(seconds=value) if name != "status" else value
        setattr(row, name, at)
    assert no_answer(row, NOW) == expected


def test_no_answer_reads_an_import_job_the_same_way():
    job = ImportJob(
        status=ImportJobStatus.RUNNING,
        created_at=NOW - dt.timedelta(seconds=90),
        started_at=NOW - dt.timedelta(seconds=80),
        heartbeat_at=NOW - dt.timedelta(seconds=80),
    )
    assert no_answer(job, NOW) == NoAnswer("silent", 80, lost=True)


# The dashboard's pairing status.


@pytest.mark.django_db
def test_the_dashboard_says_no_worker_picked_the_pairing_up(staff_client, event8):
    pairing_run(event8, sent_at=ago(40))
    page = dashboard(staff_client, event8)
    assert said(page, "No worker has picked this up for {n} s — check the worker.", 40)
    assert "“Try again” appears if it stays unanswered." in page
    assert 'class="run-retry"' not in page  # the lease still holds: no Try again yet


@pytest.mark.django_db
def test_a_fresh_pairing_run_shows_no_warning(staff_client, event8):
    pairing_run(event8, sent_at=ago(2))
    page = dashboard(staff_client, event8)
    assert "run-no-answer" not in page and 'class="run-retry"' not in page


@pytest.mark.django_db
def test_a_lost_heartbeat_offers_try_again_on_the_dashboard_and_the_run_page(staff_client, event8):
    run = pairing_run(event8, status=RUNNING, sent_at=ago(50), started_at=ago(45), attempts=1)
    page = dashboard(staff_client, event8)
    assert said(page, "Heartbeat lost: the worker running this has not answered for {n} s", 45)
    assert f'action="{reverse("staff:pair", args=[event8.slug])}" class="run-retry"' in page
    fragment = staff_client.get(
        reverse("staff:run", args=[event8.slug, run.pk]), headers={"HX-Request": "true"}
    ).content.decode()
    assert "Heartbeat lost" in fragment and "Try again" in fragment


@pytest.mark.django_db
def test_try_again_sends_the_same_pairing_run_again_and_it_pairs(
    staff_client, event8, django_capture_on_commit_callbacks
):
    run = pairing_run(event8, status=RUNNING, sent_at=ago(50), started_at=ago(45), attempts=1)
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(reverse("staff:pair", args=[event8.slug]), {"group": "open"})
    assert response.status_code == 302
    assert list(event8.runs.filter(kind=PAIRING).values_list("pk", flat=True)) == [run.pk]
    run.refresh_from_db()
    assert (run.status, run.attempts) == (DONE, 2)  # sent again; the (eager) worker paired
    assert shown(run.note).startswith("The worker running this stopped (last seen ")
    assert event8.rounds.get().status == RoundStatus.PAIRED


@pytest.mark.django_db
def test_try_again_after_the_worker_died_twice_fails_the_run_and_starts_one(
    staff_client, event8, django_capture_on_commit_callbacks
):
    old = pairing_run(event8, status=RUNNING, sent_at=ago(50), started_at=ago(45), attempts=2)
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(reverse("staff:pair", args=[event8.slug]), {"group": "open"})
    old.refresh_from_db()
    assert old.status == FAILED
    assert (
        shown(old.error) == "The worker running this stopped 2 times before finishing. Try again."
    )
    new = event8.runs.filter(kind=PAIRING).exclude(pk=old.pk).get()
    assert new.status == DONE and event8.rounds.get().status == RoundStatus.PAIRED


@pytest.mark.django_db
def test_pair_while_the_run_still_answers_changes_nothing(staff_client, event8, monkeypatch):
    run = pairing_run(event8, sent_at=ago(40))  # warned, lease not lost
    sent = []
    monkeypatch.setattr(runs, "run_send", lambda run_id, task: sent.append(run_id))
    response = staff_client.post(
        reverse("staff:pair", args=[event8.slug]), {"group": "open"}, follow=True
    )
    assert "Pairing Open already under way" in response.content.decode()
    run.refresh_from_db()
    assert (run.status, run.note, sent) == (QUEUED, "", [])
    assert event8.runs.count() == 1


# The standings page.


@pytest.mark.django_db
def test_the_standings_page_says_the_worker_is_lost_and_try_again_resends(
    staff_client, event8, monkeypatch, django_capture_on_commit_callbacks
):
    run = BackgroundRun.objects.create(
        event=event8, kind=STANDINGS, task="standings.tasks.standings_compute"
    )
    BackgroundRun.objects.filter(pk=run.pk).update(
        status=RUNNING, sent_at=ago(40), started_at=ago(35), heartbeat_at=ago(31), attempts=1
    )
    url = reverse("staff:standings", args=[event8.slug])
    page = staff_client.get(url).content.decode()
    assert said(page, "Heartbeat lost: the worker running this has not answered for {n} s", 31)
    retry = reverse("staff:standings_retry", args=[event8.slug])
    assert f'action="{retry}"' in page
    fragment = staff_client.get(f"{url}?run=1", headers={"HX-Request": "true"}).content.decode()
    assert "Heartbeat lost" in fragment and f'action="{retry}"' in fragment

    sent = []
    monkeypatch.setattr(runs, "run_send", lambda run_id, task: sent.append((run_id, task)))
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(retry, follow=True)
    assert sent == [(run.pk, "standings.tasks.standings_compute")]
    run.refresh_from_db()
    assert (run.status, run.started_at, run.heartbeat_at) == (QUEUED, None, None)
    assert event8.runs.filter(kind=STANDINGS).count() == 1  # the same run, never a second
    text = response.content.decode()
    assert "Standings are already being computed. The worker running this stopped" in text


# The import job page.


@pytest.fixture
def uploaded(organiser, monkeypatch):
    """A WER import job handed to a broker whose worker never reports back."""
    with monkeypatch.context() as patch:
        patch.setattr(import_jobs, "import_job_send", lambda job_id: True)
        return import_jobs.import_job_create(
            filename="w.wer", content=WER.read_bytes(), format=ImportFormat.WER, by=organiser
        )


@pytest.mark.django_db
def test_the_import_page_says_no_worker_picked_the_job_up(staff_client, uploaded):
    ImportJob.objects.filter(pk=uploaded.pk).update(sent_at=ago(20))
    url = reverse("staff:import_job", args=[uploaded.pk])
    fragment = staff_client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert said(fragment, "No worker has picked this up for {n} s — check the worker.", 20)
    assert reverse("staff:import_job_retry", args=[uploaded.pk]) not in fragment


@pytest.mark.django_db
def test_try_again_on_a_job_a_worker_still_holds_changes_nothing(
    staff_client, uploaded, monkeypatch
):
    ImportJob.objects.filter(pk=uploaded.pk).update(
        status=ImportJobStatus.RUNNING, sent_at=ago(30), started_at=ago(25), heartbeat_at=ago(5)
    )
    sent = []
    monkeypatch.setattr(import_jobs, "import_job_send", sent.append)
    response = staff_client.post(reverse("staff:import_job_retry", args=[uploaded.pk]))
    assert response["Location"] == reverse("staff:import_job", args=[uploaded.pk])
    job = ImportJob.objects.get()
    assert (job.status, job.started_at is not None, sent) == (ImportJobStatus.RUNNING, True, [])


@pytest.mark.django_db(transaction=True)
def test_a_running_import_whose_heartbeat_stopped_offers_try_again_and_imports(
    staff_client, uploaded
):
    ImportJob.objects.filter(pk=uploaded.pk).update(
        status=ImportJobStatus.RUNNING,
        sent_at=ago(90),
        started_at=ago(85),
        heartbeat_at=ago(80),
        stage="Writing 22,500 matches",
        attempts=1,
    )
    page = staff_client.get(reverse("staff:import_job", args=[uploaded.pk])).content.decode()
    assert said(page, "Heartbeat lost: the worker running this has not answered for {n} s", 80)
    retry = reverse("staff:import_job_retry", args=[uploaded.pk])
    assert f'action="{retry}"' in page

    response = staff_client.post(retry)  # sent at commit; the (eager) worker imports it
    job = ImportJob.objects.get()  # the same job, queued again and imported by the worker
    assert (job.status, job.attempts, job.content) == (ImportJobStatus.DONE, 2, None)
    assert response["Location"] == reverse("staff:dashboard", args=[job.event.slug])
    assert job.event.registrations.count() == 24
