"""An upload imported by a real Celery worker over the real Redis broker (not eager): the
request answers at once with the job page, the worker imports the file, the page's poll
then sends the browser to the event."""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from standings.models import StandingsSnapshot
from tests import factories
from tests.paths import DATA
from tournaments.models import ImportJob, ImportJobStatus, Match

TDF = DATA / "pokemon" / "2025-dg-nov-cup.tdf"


@pytest.mark.django_db(transaction=True)
def test_an_upload_is_imported_by_a_worker_while_the_job_page_polls(client, redis_worker):
    organiser = factories.user("worker-uploader")
    client.force_login(organiser)
    response = client.post(
        reverse("staff:event_file_import"),
        {"file": SimpleUploadedFile("cup.tdf", TDF.read_bytes())},
    )
    job = ImportJob.objects.get()
    url = reverse("staff:import_job", args=[job.pk])
    assert response.status_code == 302 and response["Location"] == url
    deadline = time.monotonic() + 30
    while job.status in (ImportJobStatus.QUEUED, ImportJobStatus.RUNNING):
        assert time.monotonic() < deadline, job.stage
        poll = client.get(url, headers={"HX-Request": "true"})
        assert poll.status_code == 200
        time.sleep(0.1)
        job = ImportJob.objects.get()
    assert (job.status, job.error, job.stage) == (ImportJobStatus.DONE, "", "Imported")
    assert job.sent_at is not None and job.attempts == 1 and job.content is None
    assert (
        job.units_done
        == job.units_total
        == 29 + Match.objects.filter(round__event=job.event).count()
    )
    done = client.get(url, headers={"HX-Request": "true"})
    assert done["HX-Redirect"] == reverse("staff:dashboard", args=[job.event.slug])
    assert job.event.registrations.count() == 29
    deadline = time.monotonic() + 30  # the standings run the import queued, also a worker's
    while not StandingsSnapshot.objects.filter(event=job.event).exists():
        assert time.monotonic() < deadline
        time.sleep(0.1)
