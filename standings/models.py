"""Stored standings: every computed version is kept (P-POST-3)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Event


class StandingsSnapshot(models.Model):
    """Standings of an event as computed after some round, in the Standings JSON shape
    of docs/interfaces.md (``{"divisions": {code: [row, ...]}}``, percentages as floats 0–1).

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


class CutOutlook(models.Model):
    """The cut-line outlook computed after a standings snapshot: each
    player's chance of making the top cut and Day 2, which records are in or out, from
    ``simulations`` seeded simulations of the rest of the Swiss
    (``pairings.engine.outlook``) and proofs on match points
    (``standings.engine.cutline``). One per snapshot; computed by the pairing layer's
    task after the snapshot is stored (``pairings.outlook_services``).

    ``data``: ``{"players": {player id: {"top_cut": chance, "day2": chance}}, "cuts":
    [cut, ...]}`` (the shapes of ``pairings.outlook_services.outlook_json``);
    ``seed`` and ``simulations`` reproduce it; ``seconds``: how long it took.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="outlooks")
    snapshot = models.OneToOneField(
        StandingsSnapshot, on_delete=models.CASCADE, related_name="outlook"
    )
    rounds_complete = models.PositiveSmallIntegerField(default=0)
    seed = models.BigIntegerField()
    simulations = models.PositiveIntegerField()
    seconds = models.FloatField(default=0)
    data = models.JSONField()
    computed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("cut-line outlook")
        verbose_name_plural = _("cut-line outlooks")
        ordering = ["-computed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.event} · outlook after round {self.rounds_complete}"
