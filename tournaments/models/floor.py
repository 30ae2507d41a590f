"""Judge calls: a player calls a judge to their table from their private page and the
judges answer from the floor board."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ._checks import one_of
from .events import Event, Registration
from .rounds import Match


class JudgeCallReason(models.TextChoices):
    """Why the player calls (optional: "" when they gave none)."""

    RULES = "rules", _("Rules question")
    DISAGREEMENT = "disagreement", _("Disagreement")
    TIME = "time", _("Time")
    OTHER = "other", _("Other")


class JudgeCallStatus(models.TextChoices):
    """open → claimed → resolved. Escalating (``escalated_at``) hands a call to the head
    judge: it is open again, unclaimed, until someone claims it for the head judge."""

    OPEN = "open", _("Waiting for a judge")
    CLAIMED = "claimed", _("A judge is on the way")
    RESOLVED = "resolved", _("Resolved")


class JudgeCall(models.Model):
    """One call for a judge at one table of a round.

    ``registration``: the player who called. ``match``: their table (None once the round
    was discarded: ``round_number`` and ``table`` keep where it was). ``version`` grows
    on every change: a judge's form carries the version it showed, and an action on an
    older one is refused (claimed meanwhile, resolved twice). At most one call per table
    is not resolved (``judge_call_one_open_per_table``). ``extra_minutes``: the time
    extension given on resolving, added to the table's clock (``Match.extra_seconds``).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="judge_calls")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="judge_calls"
    )
    round_number = models.PositiveSmallIntegerField()
    table = models.PositiveIntegerField()
    reason = models.CharField(max_length=16, blank=True, choices=JudgeCallReason.choices)
    status = models.CharField(
        max_length=16, choices=JudgeCallStatus.choices, default=JudgeCallStatus.OPEN
    )
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    escalated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    escalated_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)
    extra_minutes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("judge call")
        verbose_name_plural = _("judge calls")
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["event", "status"], name="judge_call_event_status")]
        constraints = [
            one_of("status", JudgeCallStatus.values, name="judge_call_status_valid"),
            one_of("reason", ["", *JudgeCallReason.values], name="judge_call_reason_valid"),
            models.UniqueConstraint(
                fields=["match"],
                condition=~Q(status="resolved"),
                name="judge_call_one_open_per_table",
            ),
            models.CheckConstraint(
                condition=Q(status="resolved", resolved_at__isnull=False)
                | (~Q(status="resolved") & Q(resolved_at__isnull=True)),
                name="judge_call_resolved_iff_resolved_at",
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.round_number} · table {self.table} · {self.status}"
