"""Event staff, the audit trail, penalty notes and background runs."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ._checks import one_of
from .events import Event, Registration


class StaffRole(models.TextChoices):
    ORGANISER = "organiser", _("Organiser")
    SCOREKEEPER = "scorekeeper", _("Scorekeeper")
    JUDGE = "judge", _("Judge")


class EventStaff(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    role = models.CharField(max_length=16, choices=StaffRole.choices)

    class Meta:
        verbose_name = _("event staff member")
        verbose_name_plural = _("event staff")
        constraints = [
            models.UniqueConstraint(fields=["event", "user", "role"], name="staff_unique_role"),
            one_of("role", StaffRole.values, name="staff_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.role} · {self.event}"


class StaffInvite(models.Model):
    """A one-time invitation to join an event's staff.

    The link ``/staff/invite/<token>/`` carries the token; only its SHA-256 is stored
    (``token_hash``), so the database never holds a working link. ``email`` is where it
    was sent ("" for a link the organiser copies). It works once (``used_at``, ``used_by``)
    and until ``expires_at``.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="invites")
    role = models.CharField(max_length=16, choices=StaffRole.choices)
    email = models.EmailField(blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("staff invite")
        verbose_name_plural = _("staff invites")
        ordering = ["-created_at"]
        constraints = [one_of("role", StaffRole.values, name="staff_invite_role_valid")]

    def __str__(self) -> str:
        return f"{self.email or '(link)'} · {self.role} · {self.event}"


class AuditEvent(models.Model):
    """Who changed what, when, from which value to which, and why (P-POST-3, P-POST-4).

    Who: ``actor`` (a staff user), ``actor_registration`` (a player on their private
    link), or neither (a command or the system). Rows are only ever added.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=40)
    object_type = models.CharField(max_length=40)
    object_id = models.CharField(max_length=40, blank=True)
    actor_registration = models.ForeignKey(
        Registration,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The player who acted through their private link.",
    )
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["event", "round_number"], name="audit_event_round")]

    def __str__(self) -> str:
        return f"{self.at:%H:%M:%S} {self.action} {self.object_type}#{self.object_id}"


class PenaltyKind(models.TextChoices):
    CAUTION = "caution", _("Caution")
    WARNING = "warning", _("Warning")
    PRIZE_PENALTY = "prize-penalty", _("Prize penalty")
    GAME_LOSS = "game-loss", _("Game loss")
    MATCH_LOSS = "match-loss", _("Match loss")
    DISQUALIFICATION = "disqualification", _("Disqualification")


class PenaltyNote(models.Model):
    """A judge's note of a penalty given to a player. A note records; it changes no
    result (a match loss is entered as a correction). Notes are never edited or deleted."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=20, choices=PenaltyKind.choices)
    infraction = models.CharField(max_length=200)
    note = models.TextField(blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("penalty note")
        verbose_name_plural = _("penalty notes")
        ordering = ["-at", "-id"]
        constraints = [one_of("kind", PenaltyKind.values, name="penalty_kind_valid")]

    def __str__(self) -> str:
        return f"{self.kind} · {self.registration_id}"


class BackgroundRunStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class BackgroundRunKind(models.TextChoices):
    PAIRING = "pairing", _("Pairing")
    STANDINGS = "standings", _("Standings")


class BackgroundRun(models.Model):
    """Progress and failure of a Celery job (pairing or standings), polled by staff pages.

    ``group``: the key of the pairing group a pairing run pairs (``PairingGroup.key``),
    "" for a run over the whole event. At most one run per event, kind and group is
    queued or running (``run_one_active``, a
    partial unique index): a second request finds the run already going instead of
    starting another (``tournaments.services.runs.run_request``).
    """

    Kind = BackgroundRunKind

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="runs")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    group = models.CharField(max_length=40, blank=True)
    status = models.CharField(
        max_length=16, choices=BackgroundRunStatus.choices, default=BackgroundRunStatus.QUEUED
    )
    seed = models.BigIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_again = models.BooleanField(
        default=False,
        help_text="Asked for again while running (new data to read): another run is queued "
        "when this one ends.",
    )
    # The lease (tournaments.services.runs): what to send, when it was handed to the
    # broker, when a worker took it and last said it was alive. The sweep re-sends a run
    # never handed over or whose worker stopped beating, and fails it after MAX_ATTEMPTS.
    task = models.CharField(max_length=100, blank=True, help_text="The Celery task's name.")
    round_number = models.PositiveIntegerField(
        null=True, blank=True, help_text="The round a pairing run was asked to pair."
    )
    sent_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Times a worker took it.")
    note = models.TextField(blank=True, help_text="What happened besides the outcome.")

    class Meta:
        verbose_name = _("background run")
        verbose_name_plural = _("background runs")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "kind", "group"],
                condition=models.Q(
                    status__in=[BackgroundRunStatus.QUEUED, BackgroundRunStatus.RUNNING]
                ),
                name="run_one_active",
            ),
            one_of("kind", BackgroundRunKind.values, name="run_kind_valid"),
            one_of("status", BackgroundRunStatus.values, name="run_status_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.group} {self.status}"
