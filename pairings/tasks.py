"""Celery tasks for pairing: thin, take ids, idempotent (docs/style.md §4)."""

from celery import shared_task

from .outlook_services import outlook_compute
from .services import pairing_run_execute


@shared_task(name="pairings.tasks.pair_round", acks_late=True)
def pair_round(run_id: int) -> None:
    """Pair the round a BackgroundRun row asks for; safe to run twice."""
    pairing_run_execute(run_id)


@shared_task(name="pairings.tasks.outlook_compute", acks_late=True)
def outlook_compute_task(snapshot_id: int) -> None:
    """Compute the cut-line outlook of a standings snapshot; running
    it twice stores it once."""
    outlook_compute(snapshot_id)
