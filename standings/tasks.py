"""Celery tasks for standings: thin, take ids, idempotent (STYLE.md §4)."""

from celery import shared_task

from tournaments.models import Event

from .services import standings_compute


@shared_task(name="standings.tasks.standings_compute", acks_late=True)
def standings_compute_task(event_id: int) -> None:
    """Recompute and store the standings of an event; running it twice stores an
    identical second snapshot and changes nothing else."""
    event = Event.objects.filter(pk=event_id).first()
    if event is not None:
        standings_compute(event=event)
