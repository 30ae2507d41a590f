"""Events taken from this instance to a venue laptop and brought back
(``interchange.services.venue``; docs/operations.md, "Venue mode")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event


class VenueTrip(models.Model):
    """The online copy of an event was taken to a venue: the mark it was at when its
    archive was written, so that bringing the venue's copy back can tell whether
    anything changed here meanwhile (refused with the list, never merged).

    ``token`` names the trip inside the archive: the ``event.venue_take`` audit row's
    ``new["trip"]``, which the venue's copy keeps in its audit trail. ``rows``: a digest
    of every archived row of the online copy, audit trail and standings aside, at the mark —
    ``{section: {row id: digest}}`` (``interchange.services.venue.row_digests``). A
    return replaces the event's rows (the event and this row get new ids) and moves the
    mark to the copy brought back: ``returned_at``, ``returns`` (how many so far). The
    latest trip of an event is the one that can come back.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="venue_trips")
    token = models.CharField(max_length=64, unique=True)
    taken_at = models.DateTimeField()
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rows = models.JSONField(default=dict)
    returned_at = models.DateTimeField(null=True, blank=True)
    returns = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("venue trip")
        verbose_name_plural = _("venue trips")
        ordering = ["-taken_at", "-id"]

    def __str__(self) -> str:
        return f"{self.event} · {self.taken_at:%Y-%m-%d %H:%M}"
