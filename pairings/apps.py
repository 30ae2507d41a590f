from django.apps import AppConfig


class PairingsConfig(AppConfig):
    name = "pairings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, worker, commands), so tasks
        # queued by name from `tournaments` always resolve.
        from standings.services import on_snapshot

        from . import tasks  # noqa: F401
        from .outlook_services import outlook_on_commit

        # The cut-line outlook follows every standings snapshot:
        # standings never imports pairings, so the pairing layer registers itself.
        on_snapshot(outlook_on_commit)
