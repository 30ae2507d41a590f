"""Celery tasks for standings: thin, take ids, idempotent (docs/style.md §4)."""

from celery import shared_task

from .receipts import receipts_warm
from .services import standings_run_execute


@shared_task(name="standings.tasks.standings_compute", acks_late=True)
def standings_compute_task(run_id: int) -> None:
    """Compute the standings a BackgroundRun row asks for; running it twice does nothing
    the second time."""
    standings_run_execute(run_id)


@shared_task(name="standings.tasks.receipts_warm", acks_late=True)
def receipts_warm_task(event_id: int) -> None:
    """Count and keep the tiebreaker receipts of the event's latest standings
    (``standings.receipts.receipts_warm``); running it twice counts them again."""
    receipts_warm(event_id)
