"""An organiser imports an event file in a real browser: the upload, then the event; and
a job page that polls until a worker has imported the file."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from interchange.services.import_jobs import import_job_create, import_job_execute
from tests import factories
from tests.paths import DATA
from tournaments.models import Event, ImportFormat, ImportJob, ImportJobStatus

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

MELEE = DATA / "mtg" / "melee-legacy-2025-05-15.json"
TDF = DATA / "pokemon" / "2025-dg-nov-cup.tdf"


def log_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()


@pytest.mark.django_db(transaction=True)
def test_organiser_uploads_a_melee_file_and_lands_on_the_new_event(live_server, page):
    factories.user("uma")
    log_in(page, live_server, "uma")
    page.get_by_role("link", name="New event").click()
    page.get_by_role("link", name="Import an event file").click()
    page.get_by_label("Event file").set_input_files(str(MELEE))
    page.get_by_role("button", name="Import").click()  # no broker: imported in the request

    event = Event.objects.get()
    expect(page).to_have_url(f"{live_server.url}/e/{event.slug}/staff/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(event.name)
    expect(page.get_by_text(f"Imported {event.name}.")).to_be_visible()
    assert event.registrations.count() == 21
    assert ImportJob.objects.get().status == ImportJobStatus.DONE


@pytest.mark.django_db(transaction=True)
def test_the_job_page_polls_until_the_worker_is_done_then_opens_the_event(live_server, page):
    uploader = factories.user("uli")
    # A job no worker has taken yet (as after an upload with a broker).
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("interchange.services.import_jobs.import_job_send", lambda job_id: True)
        job = import_job_create(
            filename="cup.tdf", content=TDF.read_bytes(), format=ImportFormat.TDF, by=uploader
        )
    log_in(page, live_server, "uli")
    page.goto(f"{live_server.url}/staff/imports/{job.pk}/")
    busy = page.locator("#import-job.run-busy")
    expect(busy).to_contain_text("Waiting for a worker")
    page.wait_for_timeout(1500)  # a poll or two: still waiting
    expect(busy).to_be_visible()

    import_job_execute(job.pk)  # the worker
    event = Event.objects.get()
    expect(page).to_have_url(f"{live_server.url}/e/{event.slug}/staff/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(event.name)
