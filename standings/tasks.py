"""Celery tasks for standings: thin, take ids, idempotent (docs/style.md §4)."""

from celery import shared_task

from .services import standings_run_execute


@shared_task(name="standings.tasks.standings_compute", acks_late=True)
def standings_compute_task(run_id: int) -> None:
    """Compute the standings a BackgroundRun row asks for; running it twice does nothing
    the second time."""
    standings_run_execute(run_id)
