"""Pairing groups and the seeds of a cut: who is paired together, as data.

A pairing group is the set of players paired against each other round after round: one
division (or several merged, P-AGE-3), one flight of a division (P-FL), or a division's
top-cut bracket. Its divisions, flight, phase and parent are fields, never read back from
its name; ``key`` is a stable name for forms, addresses and event files
(``junior+senior``, ``masters#flight-2``, ``masters-top-cut``) and is never parsed.
"Pod" means a multiplayer table (MP-POD) only.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ._checks import one_of
from .events import Division, Event, Registration


class GroupPhase(models.TextChoices):
    """What a group plays: Swiss rounds (Day 1, Day 2 in the same group), a cut bracket
    taken from its parent's Swiss (P-TC, MP-SE-1), or a standalone bracket (P-SE)."""

    SWISS = "swiss", _("Swiss")
    TOP_CUT = "top-cut", _("Top cut")
    SINGLE_ELIMINATION = "single-elimination", _("Single elimination")


class PairingGroup(models.Model):
    """One pairing group of an event.

    ``divisions``: the divisions whose players it pairs (several for an age-modified
    merge, R-5); ``flight``: the flight of its division it pairs (P-FL), else None;
    ``parent``: the group it continues from (a flight's division group, which plays Day 2
    and the merged cut, P-FL-5; a cut's Swiss group), else None.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="groups")
    key = models.CharField(max_length=40)
    phase = models.CharField(max_length=24, choices=GroupPhase.choices, default=GroupPhase.SWISS)
    flight = models.PositiveSmallIntegerField(null=True, blank=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    divisions = models.ManyToManyField(Division, related_name="groups")
    # the group's first table number. None: set when its round is paired,
    # after the tables of the other groups' rounds in play (``tournaments.tables``).
    first_table = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("pairing group")
        verbose_name_plural = _("pairing groups")
        ordering = ["event", "key"]
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="group_unique_key"),
            one_of("phase", GroupPhase.values, name="group_phase_valid"),
            models.CheckConstraint(
                condition=Q(flight__isnull=True) | Q(flight__gte=1, parent__isnull=False),
                name="group_flight_has_parent",
            ),
            models.CheckConstraint(
                condition=Q(first_table__isnull=True) | Q(first_table__gte=1),
                name="group_first_table_from_1",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.key}"

    @property
    def is_cut(self) -> bool:
        """A cut bracket taken from a Swiss group (P-TC-1, MP-SE-1)."""
        return self.phase == GroupPhase.TOP_CUT


class CutSeed(models.Model):
    """A player's seed in a bracket, stored when the cut is taken or the bracket drawn
    (P-TC-1, P-SE-1, MP-SE-1): seed 1 is the best Swiss standing (or first drawn)."""

    group = models.ForeignKey(PairingGroup, on_delete=models.CASCADE, related_name="seeds")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    seed = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name = _("cut seed")
        verbose_name_plural = _("cut seeds")
        ordering = ["group", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["group", "seed"], name="cut_seed_unique"),
            models.UniqueConstraint(fields=["group", "registration"], name="cut_seed_once"),
            models.CheckConstraint(condition=Q(seed__gte=1), name="cut_seed_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.group} · seed {self.seed}"
