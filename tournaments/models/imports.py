"""Import jobs: an uploaded event file imported by a Celery worker.

A big TOM file takes seconds to import, too long for a web request: the upload page
stores the file on an ``ImportJob`` row and a worker imports it
(``interchange.services.import_jobs``). The row, not the broker, records the progress the
job page polls, the refusal message or the event created, and the lease the beat sweep
reads to find a job whose worker died.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event


class ImportFormat(models.TextChoices):
    """The file formats an event can be imported from (docs/interfaces.md)."""

    TDF = "tdf", _("Pokémon TOM (.tdf)")
    EVENT_JSON = "event-json", _("Matchslip event JSON")
    WER = "wer", _("Wizards Event Reporter (.wer)")
    MELEE = "melee", _("melee.gg JSON")


class ImportJobStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class ImportJob(models.Model):
    """One uploaded file to import, its progress and its outcome.

    ``content`` holds the uploaded bytes until the job is done or its file refused (then
    it is emptied); a job failed because its worker died keeps them so "Try again" can
    queue it anew. Progress is ``units_done`` of ``units_total`` (players, then matches,
    written) and a short ``stage`` text; ``error`` is the importer's message naming the
    element or field at fault, or why the worker stopped.
    """

    format = models.CharField(max_length=16, choices=ImportFormat.choices)
    filename = models.CharField(max_length=255)
    size = models.PositiveIntegerField(help_text="The uploaded file's size in bytes.")
    content = models.BinaryField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs"
    )
    status = models.CharField(
        max_length=16, choices=ImportJobStatus.choices, default=ImportJobStatus.QUEUED
    )
    stage = models.CharField(max_length=120, blank=True)
    units_done = models.PositiveIntegerField(default=0)
    units_total = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The lease, as BackgroundRun's (tournaments.services.runs): when the task was handed
    # to the broker, when a worker took the job and last said it was alive.
    sent_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Times a worker took it.")

    class Meta:
        verbose_name = _("import job")
        verbose_name_plural = _("import jobs")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=sorted(ImportJobStatus.values)),
                name="importjob_status_known",
            ),
            models.CheckConstraint(
                condition=models.Q(format__in=sorted(ImportFormat.values)),
                name="importjob_format_known",
            ),
            models.CheckConstraint(
                condition=models.Q(units_done__lte=models.F("units_total")),
                name="importjob_units_done_lte_total",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.filename} ({self.format}) {self.status}"

    @property
    def active(self) -> bool:
        """Queued or running: the job page keeps polling."""
        return self.status in (ImportJobStatus.QUEUED, ImportJobStatus.RUNNING)

    @property
    def percent(self) -> int:
        """Units done as a whole percentage 0–100, for the progress bar."""
        return self.units_done * 100 // self.units_total if self.units_total else 0
