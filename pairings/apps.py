from django.apps import AppConfig


class PairingsConfig(AppConfig):
    name = "pairings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, worker, commands), so tasks
        # queued by name from `tournaments` always resolve. tournaments sits below
        # pairings, so it asks through a hook whether an imported event has anything left
        # to pair (``tournaments.procedures.groups_done``); the pairing layer answers.
        from tournaments.procedures import groups_done_reader

        from . import tasks  # noqa: F401
        from .procedures import event_done

        groups_done_reader(event_done)
