from django.apps import AppConfig


class PairingsConfig(AppConfig):
    name = "pairings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, worker, commands), so tasks
        # queued by name from `tournaments` always resolve.
        from . import tasks  # noqa: F401
