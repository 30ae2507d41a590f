"""Long imports as background work: the upload page makes an ``ImportJob``,
the task imports the file with its progress on the row, a refused file writes nothing,
the sweep fails a job whose worker died and "Try again" imports it."""

from __future__ import annotations

import datetime as dt
import threading
from io import StringIO
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from interchange.services import import_jobs, imports
from interchange.services.import_jobs import (
    READERS,
    import_format_guess,
    import_job_create,
    import_job_execute,
    import_jobs_sweep,
)
from interchange.views import imports as import_views
from standings.models import StandingsSnapshot
from tests import factories
from tests.paths import DATA
from tournaments.models import (
    Event,
    ImportFormat,
    ImportJob,
    ImportJobStatus,
    Player,
    Registration,
    StaffRole,
)
from tournaments.stored_text import shown

TDF = DATA / "pokemon" / "2025-dg-nov-cup.tdf"
WER = DATA / "mtg" / "wer-modern-weekly-2018-10-29.wer"
MELEE = DATA / "mtg" / "melee-legacy-2025-05-15.json"
QUEUED, RUNNING = ImportJobStatus.QUEUED, ImportJobStatus.RUNNING
DONE, FAILED = ImportJobStatus.DONE, ImportJobStatus.FAILED


@pytest.fixture
def uploader(client, organiser):
    client.force_login(organiser)
    return client


def event_json(tmp_path) -> bytes:
    """An event JSON file made by ``export_event`` from the shared TOM file."""
    out = StringIO()
    call_command("import_tdf", str(TDF), stdout=out)
    path = tmp_path / "cup.json"
    call_command("export_event", out.getvalue().strip().splitlines()[-1], str(path))
    return path.read_bytes()


def upload(client, name: str, content: bytes, **data):
    return client.post(
        reverse("staff:event_file_import"),
        {"file": SimpleUploadedFile(name, content), **data},
    )


def rows_of(fmt: str, content: bytes) -> tuple[int, int]:
    """(players, matches) of a file, as the reader sees it."""
    data = READERS[fmt](content)
    return len(data.players), sum(len(rd.matches) for rd in data.rounds)


# The upload page → job → event with standings, for every format.


@pytest.mark.django_db(transaction=True)  # eager: the job runs when the upload commits
@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("cup.tdf", ImportFormat.TDF),
        ("weekly.wer", ImportFormat.WER),
        ("legacy.json", ImportFormat.MELEE),
        ("cup.json", ImportFormat.EVENT_JSON),
    ],
)
def test_each_shared_file_is_imported_through_the_upload_page(
    uploader, organiser, tmp_path, name, fmt
):
    content = {
        ImportFormat.TDF: TDF.read_bytes,
        ImportFormat.WER: WER.read_bytes,
        ImportFormat.MELEE: MELEE.read_bytes,
        ImportFormat.EVENT_JSON: lambda: event_json(tmp_path),
    }[fmt]()
    response = upload(uploader, name, content)
    job = ImportJob.objects.get()
    assert (job.status, job.error, job.format, job.filename) == (DONE, "", fmt, name)
    assert response.status_code == 302
    assert response["Location"] == reverse("staff:dashboard", args=[job.event.slug])
    players, matches = rows_of(fmt, content)
    assert (job.stage, job.units_done, job.units_total) == ("Imported", *(2 * [players + matches]))
    assert job.content is None and job.size == len(content)
    event = job.event
    assert event.registrations.count() == players
    assert event.staff.get(user=organiser).role == StaffRole.ORGANISER
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    assert snapshot is not None
    assert sum(len(lines) for lines in snapshot.data["divisions"].values()) == players
    page = uploader.get(response["Location"])
    assert page.status_code == 200 and event.name in page.content.decode()


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("cup.tdf", b"anything", ImportFormat.TDF),
        ("CUP.TDF", b"", ImportFormat.TDF),
        ("weekly.wer", b"", ImportFormat.WER),
        ("export.xml", b'<?xml version="1.0"?>\n<tournament type="3">', ImportFormat.TDF),
        ("export.xml", b'\xef\xbb\xbf <event sanctionnumber="1">', ImportFormat.WER),
        ("e.json", b'{"format": "matchslip.event.v1", "players": []}', ImportFormat.EVENT_JSON),
        ("m.json", b'{"Tournament": {}, "Rounds": []}', ImportFormat.MELEE),
        ("m.json", b'{"other": 1}', None),
        ("notes.txt", b"hello", None),
        ("other.xml", b"<html>", None),
    ],
)
def test_the_format_is_told_from_the_file(name, content, expected):
    assert import_format_guess(name, content) == expected


@pytest.mark.django_db(transaction=True)
def test_the_chosen_format_wins_over_the_guess(uploader):
    response = upload(uploader, "cup.tdf", MELEE.read_bytes(), format=ImportFormat.MELEE)
    job = ImportJob.objects.get()
    assert response.status_code == 302 and (job.format, job.status) == (ImportFormat.MELEE, DONE)


@pytest.mark.django_db
def test_a_file_whose_format_cannot_be_told_is_refused_before_any_job(uploader):
    response = upload(uploader, "notes.txt", b"hello")
    assert response.status_code == 200
    (error,) = response.context["form"].errors["file"]
    assert error == f"Nothing was imported. {import_views.NO_FORMAT}"
    assert not ImportJob.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_old_tom_address_reads_an_unrecognised_file_as_tom(uploader):
    response = uploader.post(
        reverse("staff:tdf_import"), {"file": SimpleUploadedFile("cup", b"not xml")}
    )
    (error,) = response.context["form"].errors["file"]
    assert error.startswith("Nothing was imported. This is not a TOM file we can read: ")
    assert ImportJob.objects.get().format == ImportFormat.TDF


@pytest.mark.django_db
def test_a_file_over_the_limit_is_refused_before_any_job(uploader, monkeypatch):
    monkeypatch.setattr(import_views, "MAX_FILE_BYTES", 100)
    response = upload(uploader, "cup.tdf", b"x" * 101)
    (error,) = response.context["form"].errors["file"]
    assert error.startswith("Nothing was imported. The file is 0.0 MB; files up to")
    assert not ImportJob.objects.exists()


# A refused file: the importer's message, nothing written.


@pytest.mark.django_db(transaction=True)
def test_a_refused_file_shows_the_message_and_writes_nothing(uploader):
    bad = MELEE.read_text().replace('"Result": "', '"Result": "9-', 1).encode()
    response = upload(uploader, "bad.json", bad)
    assert response.status_code == 200
    (error,) = response.context["form"].errors["file"]
    assert error.startswith(
        "Nothing was imported. Rounds[0].Matches[0]: expected Player1 and a Result 'W-L-D'"
    )
    job = ImportJob.objects.get()
    assert (job.status, job.stage, job.content) == (FAILED, "Stopped", None)
    assert f"Nothing was imported. {shown(job.error)}" == error
    assert not Event.objects.exists() and not Player.objects.exists()
    assert not Registration.objects.exists()


@pytest.mark.django_db
def test_the_job_page_shows_a_refusal_without_try_again(uploader, organiser):
    bad = TDF.read_text(encoding="utf-8").replace('outcome="5"', 'outcome="7"', 1).encode()
    job = import_job_create(filename="bad.tdf", content=bad, format=ImportFormat.TDF, by=organiser)
    import_job_execute(job.pk)  # as a worker would, after the upload's request answered
    job.refresh_from_db()
    assert job.status == FAILED and "unknown outcome code 7" in shown(job.error)
    page = uploader.get(reverse("staff:import_job", args=[job.pk])).content.decode()
    assert "unknown outcome code 7" in page and "Nothing was imported." in page
    assert "Try again" not in page and "hx-get" not in page
    assert not Event.objects.exists() and not Player.objects.exists()


# Progress, written where the polling page sees it while the import is still open.


@pytest.mark.django_db(transaction=True)
def test_progress_is_visible_outside_the_open_import_transaction(organiser, monkeypatch):
    content = TDF.read_bytes()
    players, matches = rows_of(ImportFormat.TDF, content)
    seen: list[tuple[Any, ...] | int] = []
    create_rounds = imports._create_rounds

    def peek() -> None:  # another connection, as the job page's request has
        try:
            job = ImportJob.objects.get()
            seen.append((job.status, job.stage, job.units_done, job.units_total))
            seen.append(Player.objects.count())
        finally:
            connection.close()

    def watched(*args, **kwargs):
        thread = threading.Thread(target=peek)
        thread.start()
        thread.join()
        return create_rounds(*args, **kwargs)

    monkeypatch.setattr(imports, "_create_rounds", watched)
    job = import_job_create(
        filename="cup.tdf", content=content, format=ImportFormat.TDF, by=organiser
    )  # eager: the task ran when the job committed
    total = players + matches
    # the players are written but not committed; the stage is
    assert seen == [(RUNNING, f"Writing {matches:,} matches", players, total), 0]
    job.refresh_from_db()
    assert (job.status, job.stage, job.units_done, job.units_total) == (
        DONE,
        "Imported",
        total,
        total,
    )
    assert Player.objects.count() == players


@pytest.mark.django_db(transaction=True)
def test_each_stage_is_written_and_repeats_within_half_a_second_are_not(organiser, monkeypatch):
    job = ImportJob.objects.create(
        format=ImportFormat.TDF, filename="x.tdf", size=1, requested_by=organiser, status=RUNNING
    )
    progress = import_jobs.JobProgress(job.pk)
    written = []

    def write_aside(values):
        written.append(values[:3])

    monkeypatch.setattr(progress, "_write_aside", write_aside)
    progress("Reading the file", 0, 0)  # outside a transaction: the ordinary connection
    job.refresh_from_db()
    assert (job.stage, job.units_done, job.units_total) == ("Reading the file", 0, 0)
    with transaction.atomic():  # inside: the second connection
        progress("Writing 5 players", 0, 10)
        progress("Writing 5 players", 3, 10)  # too soon: skipped
        progress("Writing 5 matches", 5, 10)
    progress.close()
    assert written == [("Writing 5 players", 0, 10), ("Writing 5 matches", 5, 10)]


# Idempotence, the lease, the sweep and "Try again".


@pytest.mark.django_db
def test_a_late_or_duplicate_message_does_nothing(organiser, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_create(
            filename="cup.tdf", content=TDF.read_bytes(), format=ImportFormat.TDF, by=organiser
        )
    job.refresh_from_db()
    assert job.status == DONE
    import_job_execute(job.pk)
    assert Event.objects.count() == 1 and ImportJob.objects.get().attempts == 1


@pytest.mark.django_db(transaction=True)
def test_the_job_is_done_in_the_import_transaction_so_a_later_failure_keeps_it_done(
    organiser, monkeypatch
):
    def fail_after_commit(event_id):  # e.g. the standings computed at commit break
        transaction.on_commit(lambda: 1 / 0)

    monkeypatch.setattr(imports, "standings_refresh_on_commit", fail_after_commit)
    with pytest.raises(ZeroDivisionError):  # eager: a bug propagates to the request
        import_job_create(
            filename="cup.tdf", content=TDF.read_bytes(), format=ImportFormat.TDF, by=organiser
        )
    job = ImportJob.objects.get()
    assert (job.status, job.error, job.stage) == (DONE, "", "Imported")
    assert job.event.registrations.count() == 29
    assert import_jobs_sweep() == []  # nothing left to import again


def lost(job: ImportJob, *, minutes: int = 2) -> None:
    """Make ``job`` look taken by a worker that stopped beating ``minutes`` ago."""
    long_ago = timezone.now() - dt.timedelta(minutes=minutes)
    ImportJob.objects.filter(pk=job.pk).update(
        status=RUNNING, started_at=long_ago, heartbeat_at=long_ago, attempts=1, stage="Reading"
    )


@pytest.mark.django_db(transaction=True)
def test_the_sweep_fails_a_job_whose_worker_died_and_try_again_imports_it(
    uploader, organiser, monkeypatch
):
    with monkeypatch.context() as patch:  # sent to a worker that will die
        patch.setattr(import_jobs, "import_job_send", lambda job_id: True)
        job = import_job_create(
            filename="cup.tdf", content=TDF.read_bytes(), format=ImportFormat.TDF, by=organiser
        )
        fresh = import_job_create(
            filename="b.tdf", content=TDF.read_bytes(), format=ImportFormat.TDF, by=organiser
        )
    lost(job)
    ImportJob.objects.filter(pk=fresh.pk).update(
        status=RUNNING, heartbeat_at=timezone.now(), started_at=timezone.now()
    )
    assert import_jobs_sweep() == [(job.pk, "failed")]  # the beating one is left alone
    job.refresh_from_db()
    error = shown(job.error)  # stored language-neutrally (tournaments.stored_text)
    assert job.status == FAILED and error.startswith("The worker importing this file stopped")
    assert error.endswith("nothing was imported. Try again.")
    assert bytes(job.content) == TDF.read_bytes()  # kept for "Try again"
    page = uploader.get(reverse("staff:import_job", args=[job.pk])).content.decode()
    assert reverse("staff:import_job_retry", args=[job.pk]) in page and "Try again" in page
    assert import_jobs_sweep() == []  # twice is safe
    response = uploader.post(reverse("staff:import_job_retry", args=[job.pk]))
    job.refresh_from_db()
    assert (job.status, job.attempts, job.content) == (DONE, 2, None)
    assert response["Location"] == reverse("staff:dashboard", args=[job.event.slug])
    assert job.event.registrations.count() == 29


@pytest.mark.django_db
def test_the_sweep_sends_a_job_the_broker_never_got(organiser, django_capture_on_commit_callbacks):
    job = import_job_create(
        filename="w.wer", content=WER.read_bytes(), format=ImportFormat.WER, by=organiser
    )
    ImportJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - dt.timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert import_jobs_sweep() == [(job.pk, "sent")]
    job.refresh_from_db()
    assert job.status == DONE and job.sent_at is not None and job.event.registrations.count() == 24


@pytest.mark.django_db
def test_a_done_or_refused_job_cannot_be_tried_again(
    uploader, organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_create(
            filename="bad.json", content=b"{", format=ImportFormat.MELEE, by=organiser
        )
    response = uploader.post(reverse("staff:import_job_retry", args=[job.pk]), follow=True)
    assert "This import cannot be tried again; upload the file again." in response.content.decode()
    assert ImportJob.objects.get().status == FAILED


# The job page: polling, then the event; permissions.


@pytest.mark.django_db
def test_the_job_page_polls_while_running_and_sends_htmx_to_the_event_when_done(
    uploader, organiser
):
    job = import_job_create(
        filename="cup.tdf", content=TDF.read_bytes(), format=ImportFormat.TDF, by=organiser
    )
    ImportJob.objects.filter(pk=job.pk).update(
        status=RUNNING, stage="Writing 29 players", units_done=0, units_total=149
    )
    url = reverse("staff:import_job", args=[job.pk])
    page = uploader.get(url).content.decode()
    assert f'hx-get="{url}"' in page and f'href="{url}"' in page
    assert "Writing 29 players" in page and 'max="149"' in page
    assert "every 1s" in page
    fragment = uploader.get(url, headers={"HX-Request": "true"})
    assert fragment.content.decode().lstrip().startswith('<div class="run run-busy"')
    ImportJob.objects.filter(pk=job.pk).update(status=QUEUED)
    import_job_execute(job.pk)
    done = uploader.get(url, headers={"HX-Request": "true"})
    event = ImportJob.objects.get().event
    assert done["HX-Redirect"] == reverse("staff:dashboard", args=[event.slug])
    page = uploader.get(url).content.decode()
    assert "hx-get" not in page and reverse("staff:dashboard", args=[event.slug]) in page


@pytest.mark.django_db
def test_only_the_uploader_sees_or_retries_a_job_and_only_logged_in_users_upload(client, organiser):
    job = import_job_create(
        filename="cup.tdf", content=TDF.read_bytes(), format=ImportFormat.TDF, by=organiser
    )
    page = reverse("staff:import_job", args=[job.pk])
    retry = reverse("staff:import_job_retry", args=[job.pk])
    upload_page = reverse("staff:event_file_import")
    for url in (page, upload_page, reverse("staff:tdf_import")):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert client.post(upload_page, {"file": SimpleUploadedFile("a.tdf", b"x")}).status_code == 302
    client.force_login(factories.user("someone-else"))
    assert client.get(page).status_code == 404
    assert client.post(retry).status_code == 404
    assert client.get(upload_page).status_code == 200  # any logged-in user may upload
    client.force_login(organiser)
    assert client.get(page).status_code == 200
    assert ImportJob.objects.count() == 1
