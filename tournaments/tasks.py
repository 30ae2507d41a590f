"""Celery tasks of ``tournaments``: thin, idempotent (STYLE.md §4)."""

from celery import shared_task

from .services.runs import runs_sweep as runs_sweep_service


@shared_task(name="tournaments.tasks.runs_sweep", acks_late=False)
def runs_sweep() -> None:
    """Re-send or fail background runs the broker or a worker lost (Celery beat, every
    20 s: ``CELERY_BEAT_SCHEDULE``). Acknowledged at once: a lost sweep is replaced by the
    next one."""
    runs_sweep_service()
