"""Stored standings: every computed version is kept (P-POST-3)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Event


class StandingsSnapshot(models.Model):
    """Standings of an event as computed after some round, in the Standings JSON shape
    of INTERFACES.md (``{"divisions": {code: [row, ...]}}``, percentages as floats 0–1).

    ``public`` snapshots are what players see; a snapshot is public once every round it
    covers is published (P-TB-8, P-POST-1).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    label = models.CharField(max_length=80)
    rounds_complete = models.PositiveSmallIntegerField(default=0)
    final = models.BooleanField(default=False)
    data = models.JSONField()
    computed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")
        ordering = ["-computed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.event} · {self.label}"
