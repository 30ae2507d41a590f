"""One upload limit everywhere: ``UPLOAD_MAX_BYTES`` is the file limit
of the upload pages and import commands, the body limit the application refuses from
``Content-Length`` before reading the body (413), and nginx's ``client_max_body_size``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from interchange.formats import checks
from tournaments.models import ImportJob

ROOT = Path(__file__).resolve().parents[2]
UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}


class UnreadableBody:
    """A request body that fails the test if anything reads it."""

    def __init__(self) -> None:
        self.reads = 0

    def read(self, *args: object) -> bytes:
        self.reads += 1
        raise AssertionError("the oversized body was read")

    readline = read


def nginx_body_limit() -> int:
    """``client_max_body_size`` of deploy/nginx.conf, in bytes (nginx's k/m/g suffixes)."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    sizes = re.findall(r"^\s*client_max_body_size\s+(\d+)([kmgKMG]?)\s*;", text, re.M)
    assert len(sizes) == 1, sizes  # one limit, set once
    number, unit = sizes[0]
    return int(number) * UNITS[unit.lower()]


def test_the_proxy_and_the_application_hold_the_same_limit():
    assert settings.UPLOAD_MAX_BYTES == 20 * 2**20  # the default, as docs/operations.md says
    assert nginx_body_limit() == settings.UPLOAD_MAX_BYTES
    assert checks.MAX_FILE_BYTES == settings.UPLOAD_MAX_BYTES


@pytest.mark.django_db
def test_an_oversized_upload_is_refused_from_its_content_length_unread(client, organiser):
    client.force_login(organiser)
    body = UnreadableBody()
    response = client.generic(
        "POST",
        reverse("staff:event_file_import"),
        b"",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(settings.UPLOAD_MAX_BYTES + 1),
        **{"wsgi.input": body},
    )
    assert response.status_code == 413
    assert body.reads == 0
    page = response.content.decode()
    assert "<h1>Upload too large</h1>" in page
    assert "This upload is 20.0 MB; the limit is 20.0 MB. Nothing was read or saved." in page
    assert not ImportJob.objects.exists()


@pytest.mark.django_db
def test_the_refusal_needs_no_login_and_no_csrf_token(client, settings):
    """Refused before the CSRF check or the view: a stranger's oversized post costs nothing."""
    settings.UPLOAD_MAX_BYTES = 1000
    client.handler.enforce_csrf_checks = True
    body = UnreadableBody()
    response = client.generic(
        "POST",
        reverse("login"),
        b"",
        content_type="application/x-www-form-urlencoded",
        CONTENT_LENGTH="3145728",
        **{"wsgi.input": body},
    )
    assert response.status_code == 413 and body.reads == 0
    assert "This upload is 3.0 MB; the limit is 0.0 MB." in response.content.decode()


@pytest.mark.django_db
def test_a_body_at_the_limit_reaches_the_upload_page(client, organiser, settings):
    settings.UPLOAD_MAX_BYTES = 4000
    client.force_login(organiser)
    upload = SimpleUploadedFile("notes.txt", b"not an event file")
    response = client.post(reverse("staff:event_file_import"), {"file": upload, "format": ""})
    assert response.status_code == 200  # the form again, with the view's own refusal
    (error,) = response.context["form"].errors["file"]
    assert (
        error
        == "Nothing was imported. Choose the file's format: it could not be told from the file."
    )
    assert not ImportJob.objects.exists()


@pytest.mark.django_db
def test_a_real_file_one_byte_over_the_limit_is_refused_before_any_job(client, organiser, tmp_path):
    """A sparse file of UPLOAD_MAX_BYTES + 1 through the TOM upload page: 413, nothing made."""
    client.force_login(organiser)
    path = tmp_path / "big.tdf"
    with path.open("wb") as f:
        f.truncate(settings.UPLOAD_MAX_BYTES + 1)
    with path.open("rb") as f:
        response = client.post(reverse("staff:tdf_import"), {"file": f})
    assert response.status_code == 413
    assert "the limit is 20.0 MB. Nothing was read or saved." in response.content.decode()
    assert not ImportJob.objects.exists()
