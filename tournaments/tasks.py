"""Celery tasks of ``tournaments``: thin, idempotent (docs/style.md §4)."""

from celery import shared_task

from .public_pages import public_pages_build as public_pages_build_service
from .services.runs import runs_sweep as runs_sweep_service


@shared_task(name="tournaments.tasks.runs_sweep", acks_late=False)
def runs_sweep() -> None:
    """Re-send or fail background runs the broker or a worker lost (Celery beat, every
    20 s: ``CELERY_BEAT_SCHEDULE``). Acknowledged at once: a lost sweep is replaced by the
    next one. Import jobs have their own sweep (``interchange.tasks.import_jobs_sweep``)."""
    runs_sweep_service()


@shared_task(name="tournaments.tasks.public_pages_build", acks_late=False)
def public_pages_build(event_id: int, generation: str | None) -> None:
    """Rebuild an event's prebuilt public pages after a change committed
    (``public_pages.public_pages_committed``). Acknowledged at once and never retried:
    a lost build costs only speed (requests render from PostgreSQL and build the pages
    themselves), and a build superseded by a newer change does nothing."""
    public_pages_build_service(event_id, generation)
