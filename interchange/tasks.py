"""Celery tasks of ``interchange``: thin, idempotent (docs/style.md §4)."""

from celery import shared_task

from .services.import_jobs import import_job_execute
from .services.import_jobs import import_jobs_sweep as import_jobs_sweep_service


@shared_task(name="interchange.tasks.import_job_run", acks_late=True)
def import_job_run(job_id: int) -> None:
    """Import the file of an ``ImportJob`` row; a job already taken, done or failed is
    left alone, so running it twice does nothing the second time."""
    import_job_execute(job_id)


@shared_task(name="interchange.tasks.import_jobs_sweep", acks_late=False)
def import_jobs_sweep() -> None:
    """Re-send import jobs never handed to the broker or never taken, and fail those whose
    worker died (Celery beat, every 20 s beside the runs sweep: ``CELERY_BEAT_SCHEDULE``).
    Acknowledged at once: a lost sweep is replaced by the next one."""
    import_jobs_sweep_service()
