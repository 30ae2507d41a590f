"""Celery tasks for pairing: thin, take ids, idempotent (STYLE.md §4)."""

from celery import shared_task

from .services import pairing_run_execute


@shared_task(name="pairings.tasks.pair_round", acks_late=True)
def pair_round(run_id: int) -> None:
    """Pair the round a BackgroundRun row asks for; safe to run twice."""
    pairing_run_execute(run_id)
