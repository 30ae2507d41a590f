"""Long imports as background work: an uploaded event file becomes an
``ImportJob`` row that a Celery worker imports (docs/style.md §4).

:func:`import_job_create` stores the file and sends ``interchange.tasks.import_job_run``
after commit; :func:`import_job_execute` reads the file, then runs the importer
(``imports.event_import``) in its one transaction: a refused file fails the job with the
importer's message naming the element or field at fault, and nothing is written. Without
a broker (eager mode) the job is done inside the upload's request.

**Progress while the import transaction is open.** The job page polls the row, so what
the importer reports must be committed while its own transaction is not. Reading the file
happens before that transaction opens and is written on the ordinary connection. Inside
it, :class:`JobProgress` writes through a *second* database connection of its own, in
autocommit, so each stage is committed at once and visible to the page. It only updates
the job row, which the import transaction touches only in its last statement (marking
the job done with its event, so both commit together), after the last progress report:
the two connections do not wait on each other. A ``lock_timeout`` bounds it anyway, and
a failed progress write is logged and never fails the import. Updates are
written when the stage changes and at most every ``WRITE_EVERY`` seconds otherwise, a few
per import. Chosen over the cache (the page would read two stores, and a Redis outage
would hide progress) and over reporting only between phases (the row writing, the long
part, would show nothing). SQLite allows one writer at a time, so there progress inside
the transaction is skipped.

The lease is BackgroundRun's (``services.runs``): a worker beats every
``HEARTBEAT_EVERY`` seconds from a thread; :func:`import_jobs_sweep` (Celery beat, beside
``runs_sweep``) re-sends a job never handed to the broker or never taken, and fails a
running job whose worker stopped beating for ``LEASE``, keeping its file so the uploader
can "Try again" (:func:`import_job_retry`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from celery import current_app
from django.core.exceptions import PermissionDenied
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournaments.actors import Actor, acting_user
from tournaments.errors import InvalidInput, MatchslipError
from tournaments.models import EventStaff, ImportFormat, ImportJob, ImportJobStatus, StaffRole
from tournaments.outages import BROKER_ERRORS, broker_outage
from tournaments.services.runs import LAST_SIGN, lease_heartbeat, lease_lost, row_lease_lost
from tournaments.stored_text import deferred, gettext_storable, stored

from ..formats.checks import MAX_FILE_BYTES, FileRefused
from ..formats.event_json import FORMAT as EVENT_JSON_FORMAT
from ..formats.event_json import parse_event_json
from ..formats.eventdata import EventData
from ..formats.melee import melee_to_event_data
from ..formats.plain import decode_json
from ..formats.tdf import TdfError, parse_tdf
from ..formats.tdf_event import tdf_event_data
from ..formats.wer import parse_wer
from .imports import event_import, file_too_large

logger = logging.getLogger(__name__)

TASK = "interchange.tasks.import_job_run"
QUEUED, RUNNING = ImportJobStatus.QUEUED, ImportJobStatus.RUNNING
DONE, FAILED = ImportJobStatus.DONE, ImportJobStatus.FAILED
WRITE_EVERY = 0.5  # seconds between two progress writes of the same stage
# Stages and errors are stored language-neutrally (``tournaments.stored_text``): fixed texts
# as their English msgid, the others as stored messages; the job page translates them.
WAITING = gettext_noop("Waiting for a worker")
READING = gettext_noop("Reading the file")
IMPORTED, STOPPED = gettext_noop("Imported"), gettext_noop("Stopped")
WORKER_LOST = gettext_noop(
    "The worker importing this file stopped (last seen %(seen)s); nothing was imported. Try again."
)
UNEXPECTED = gettext_noop("The import failed because of an unexpected error; it has been logged.")


def _json(content: bytes) -> Any:
    """The decoded JSON document; FileRefused saying why it cannot be read (a key given
    twice in one object included, ``formats.plain.decode_json``)."""
    return decode_json(content)


# One reader per format: the file's bytes to EventData, raising FileRefused (docs/interfaces.md;
# the same parsers as the import commands).
READERS: dict[str, Callable[[bytes], EventData]] = {
    ImportFormat.TDF: lambda content: tdf_event_data(parse_tdf(content)),
    ImportFormat.EVENT_JSON: lambda content: parse_event_json(_json(content)),
    ImportFormat.WER: parse_wer,
    ImportFormat.MELEE: lambda content: melee_to_event_data(_json(content)),
}


def import_format_guess(filename: str, content: bytes) -> str | None:
    """The ``ImportFormat`` of an uploaded file from its name and bytes, or None.

    ``.tdf`` and ``.wer`` by name; XML by its root element (``<tournament>`` TOM,
    ``<event>`` WER); JSON holding ``"matchslip.event.v1"`` is event JSON, JSON holding
    ``"Rounds"`` melee.gg. A guess only: the reader still refuses a file that is not what
    it seems."""
    name = filename.lower()
    if name.endswith(".tdf"):
        return ImportFormat.TDF
    if name.endswith(".wer"):
        return ImportFormat.WER
    head = content[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        if b"<tournament" in head:
            return ImportFormat.TDF
        return ImportFormat.WER if b"<event" in head else None
    if head.startswith(b"{"):
        if f'"{EVENT_JSON_FORMAT}"'.encode() in content:
            return ImportFormat.EVENT_JSON
        if b'"Rounds"' in content:
            return ImportFormat.MELEE
    return None


@transaction.atomic
def import_job_create(*, filename: str, content: bytes, format: str, by: Actor) -> ImportJob:
    """A queued job importing ``content`` (the uploaded bytes) as ``format`` for ``by``
    (a logged-in user, who becomes the new event's organiser); its task is sent after
    commit, so in eager mode the job is finished when this returns.

    Raises InvalidInput for a file over ``MAX_FILE_BYTES`` or an unknown format, and
    PermissionDenied when ``by`` is not a signed-in user (the upload page signs people in
    first); then no job is made. The event's own audit row (``event.import``) is written by
    the import.
    """
    user = acting_user(by)
    if user is None:
        raise PermissionDenied("An event file is imported for a signed-in user.")
    if len(content) > MAX_FILE_BYTES:
        raise InvalidInput(file_too_large(len(content)))
    if format not in READERS:
        raise InvalidInput(gettext_storable("Unknown file format %(format)r.") % {"format": format})
    job = ImportJob.objects.create(
        format=format,
        filename=filename[:255],
        size=len(content),
        content=content,
        requested_by=user,
        stage=WAITING,
    )
    transaction.on_commit(partial(import_job_send, job.pk))
    return job


def import_job_send(job_id: int) -> bool:
    """Hand job ``job_id``'s task to the broker and stamp ``sent_at``; True when sent.

    An unreachable broker is logged once per outage, never raised: the job stays queued
    and unsent, and :func:`import_jobs_sweep` sends it once the broker is back. Errors of
    an eager task (bugs) propagate."""
    try:
        current_app.tasks[TASK].delay(job_id)
    except BROKER_ERRORS as e:
        broker_outage.failed(e)
        return False
    broker_outage.worked()
    ImportJob.objects.filter(pk=job_id, sent_at__isnull=True).update(sent_at=timezone.now())
    return True


def import_job_execute(job_id: int) -> None:
    """Body of the import task: import job ``job_id``'s file once (idempotent).

    A job that is not queued (done, failed, or held by another worker: a late or
    duplicate message) is left alone. The file is read, then imported in one transaction
    that also makes the uploader the event's organiser; progress goes to the row as it
    goes (:class:`JobProgress`). A refused file (``FileRefused``, ``MatchslipError``)
    fails the job with its message (``messages.stored``: shown in the reader's
    language), nothing written; anything else is logged, fails the
    job with ``UNEXPECTED`` and is re-raised. The file is emptied once the job is done or
    refused.
    """
    job = _claim(job_id)
    if job is None:
        return
    progress = JobProgress(job.pk)
    try:
        with lease_heartbeat(ImportJob, job.pk, name="import"):
            _import(job, progress)
    except MatchslipError as e:
        _finish(job.pk, status=FAILED, error=stored(e))
    except Exception:
        logger.exception("import job %s failed", job_id)
        _finish(job.pk, status=FAILED, error=UNEXPECTED)
        raise
    finally:
        progress.close()


def _import(job: ImportJob, progress: JobProgress) -> None:
    """Read and import the job's file, and mark the job done in the import's transaction:
    the job is done exactly when its event exists, so a worker lost after the commit
    leaves no job to import twice. InvalidInput naming what is wrong with the file."""
    progress(READING, 0, 0)
    try:
        data = READERS[job.format](bytes(job.content or b""))
    except TdfError as e:
        raise InvalidInput(
            gettext_storable("This is not a TOM file we can read: %(e)s") % {"e": e}
        ) from None
    except FileRefused as e:
        raise InvalidInput(str(e)) from None
    with transaction.atomic():
        event = event_import(data=data, by=job.requested_by, progress=progress)
        EventStaff.objects.create(event=event, user=job.requested_by, role=StaffRole.ORGANISER)
        _finish(job.pk, status=DONE, event_id=event.pk)  # last: progress no longer written


def _claim(job_id: int) -> ImportJob | None:
    """Mark queued job ``job_id`` running for this worker (stamps, attempt counted) and
    return it with its requester; None, changing nothing, when it is not queued."""
    now = timezone.now()
    with transaction.atomic():
        job = (
            ImportJob.objects.select_for_update(of=("self",))
            .select_related("requested_by")
            .filter(pk=job_id, status=QUEUED)
            .first()
        )
        if job is None:
            return None
        job.status, job.started_at, job.heartbeat_at = RUNNING, now, now
        job.stage, job.attempts = READING, job.attempts + 1
        job.save(update_fields=["status", "started_at", "heartbeat_at", "stage", "attempts"])
    return job


def _finish(job_id: int, *, status: str, error: str = "", event_id: int | None = None) -> None:
    """Record the outcome; the file is no longer needed (a refused file stays refused).
    A failure is recorded only on a job still running (never over a done one)."""
    stage = IMPORTED if status == DONE else STOPPED
    jobs = ImportJob.objects.filter(pk=job_id)
    if status == FAILED:
        jobs = jobs.filter(status=RUNNING)
    jobs.update(
        status=status,
        error=error,
        event_id=event_id,
        content=None,
        stage=stage,
        units_done=F("units_total") if status == DONE else F("units_done"),
        finished_at=timezone.now(),
    )


class JobProgress:
    """``progress(stage, done, total)`` for ``event_import``: writes the job row's
    ``stage``, ``units_done``, ``units_total`` and ``heartbeat_at`` where the job page can
    see them while the import transaction is open (module docstring). Writes only while
    the job is running; :meth:`close` releases the second connection."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.stage, self.written_at = "", 0.0
        self.own: Any = None  # the second connection, opened on first use
        self.broken = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if stage == self.stage and now - self.written_at < WRITE_EVERY:
            return
        self.stage, self.written_at = stage, now
        values = (stage[:120], min(done, total), total, timezone.now())
        if not connection.in_atomic_block:
            fields = ("stage", "units_done", "units_total", "heartbeat_at")
            ImportJob.objects.filter(pk=self.job_id, status=RUNNING).update(
                **dict(zip(fields, values, strict=True))
            )
        elif connection.vendor == "postgresql" and not self.broken:
            self._write_aside(values)

    def _write_aside(self, values: tuple[Any, ...]) -> None:
        table = connection.ops.quote_name(ImportJob._meta.db_table)
        sql = (
            f"UPDATE {table} SET stage = %s, units_done = %s, units_total = %s, "
            "heartbeat_at = %s WHERE id = %s AND status = %s"
        )
        try:
            if self.own is None:
                self.own = connections.create_connection(DEFAULT_DB_ALIAS)
                with self.own.cursor() as cursor:
                    cursor.execute("SET lock_timeout = '2s'")
            with self.own.cursor() as cursor:
                cursor.execute(sql, [*values, self.job_id, RUNNING])
        except DatabaseError:
            logger.warning("import job %s: progress not written", self.job_id, exc_info=True)
            self.broken = True  # the import goes on; the page shows the last stage written

    def close(self) -> None:
        if self.own is not None:
            self.own.close()
            self.own = None


def import_jobs_sweep() -> list[tuple[int, str]]:
    """Find jobs the broker or a worker lost: send again a queued job never handed to the
    broker for ``SEND_GRACE`` or sent but not taken for ``START_GRACE``; fail a running
    job with no heartbeat for ``LEASE`` with ``WORKER_LOST`` (its file kept for "Try
    again"). Returns ``[(job id, "sent" | "failed")]``. Run by Celery beat beside
    ``runs_sweep`` (``interchange.tasks.import_jobs_sweep``); safe to run at any time and twice:
    rows another sweep holds are skipped."""
    now = timezone.now()
    lost = lease_lost(now)
    done: list[tuple[int, str]] = []
    with transaction.atomic():
        jobs = (
            ImportJob.objects.defer("content")
            .annotate(last_sign=LAST_SIGN)
            .select_for_update(skip_locked=True)
            .filter(lost)
            .order_by("created_at")
        )
        for job in jobs[:100]:
            if job.status == RUNNING:
                last = job.heartbeat_at or job.started_at or job.created_at
                seen = f"{timezone.localtime(last):%H:%M:%S}"
                job.status, job.error = FAILED, deferred(WORKER_LOST, seen=seen)
                job.stage, job.finished_at = STOPPED, now
                job.save(update_fields=["status", "error", "stage", "finished_at"])
                done.append((job.pk, "failed"))
            else:
                job.sent_at = None
                job.save(update_fields=["sent_at"])
                transaction.on_commit(partial(import_job_send, job.pk))
                done.append((job.pk, "sent"))
    for job_id, action in done:
        logger.warning("import job %s lost: %s", job_id, action)
    return done


def import_job_retry(*, job: ImportJob, by: Actor) -> ImportJob:
    """Queue a job failed because its worker stopped again (its file was kept), or a
    queued or running job whose lease is lost (``runs.row_lease_lost``: no worker picked
    it up, or its worker's heartbeat stopped;  — the job page offers "Try
    again" without waiting for the sweep), for the user who uploaded it; the task is sent
    after commit. The same row is queued again, so there is never a second job for one
    upload. Returns the job, refreshed.

    A queued or running job a worker still answers is returned unchanged. Raises
    InvalidInput when its file is gone (done, or refused: the same file would be refused
    again) or ``by`` did not upload it."""
    with transaction.atomic():
        locked = (
            ImportJob.objects.select_for_update()
            .filter(pk=job.pk, content__isnull=False, requested_by=acting_user(by))
            .defer("content")
            .first()
        )
        if locked is not None and locked.status in (QUEUED, RUNNING):
            if not row_lease_lost(locked, timezone.now()):
                job.refresh_from_db()  # a worker answered meanwhile: nothing to do
                return job
            logger.warning("import job %s lost, sent again on request", locked.pk)
        if locked is None or locked.status not in (FAILED, QUEUED, RUNNING):
            raise InvalidInput(
                gettext_storable("This import cannot be tried again; upload the file again.")
            )
        locked.status, locked.error, locked.stage = QUEUED, "", WAITING
        locked.units_done = locked.units_total = 0
        locked.sent_at = locked.started_at = locked.heartbeat_at = locked.finished_at = None
        locked.save(
            update_fields=[
                "status",
                "error",
                "stage",
                "units_done",
                "units_total",
                "sent_at",
                "started_at",
                "heartbeat_at",
                "finished_at",
            ]
        )
        transaction.on_commit(partial(import_job_send, locked.pk))
    job.refresh_from_db()
    return job
