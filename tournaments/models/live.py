"""What changed, per event and topic: the one source of truth for live pages.

Every open page of an event follows one or more *topics* (``tournaments.live``):
``public`` (what the public pages and a player's page show: pairings, standings, the
bracket), ``staff`` (anything the staff pages show: a slip, a self-report, a run, a
check-in), ``clock`` (a round clock started, paused or extended), ``finished`` (the event
is over) and ``reg:<registration id>`` (one player's own match). A change bumps the
topic's ``version`` after its transaction commits; every process (web, ASGI stream,
Celery worker, a management command, the embedded server) reads the same rows, so a
change made anywhere reaches every open page.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event


class LiveVersion(models.Model):
    """One topic's version at one event: a counter that only grows, and when it last did.

    ``changed_at`` (the bumping process's clock) lets a stream process read only the rows
    changed since its last look (``tournaments.live.hub``)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    topic = models.CharField(max_length=40)
    version = models.BigIntegerField(default=0)
    changed_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("live version")
        verbose_name_plural = _("live versions")
        constraints = [
            models.UniqueConstraint(fields=["event", "topic"], name="live_version_one_per_topic")
        ]

    def __str__(self) -> str:
        return f"{self.event_id}:{self.topic}={self.version}"
