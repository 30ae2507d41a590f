from django.apps import AppConfig


class InterchangeConfig(AppConfig):
    name = "interchange"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the Celery tasks (import jobs and their sweep) in every process, so a
        # task sent by name always resolves, as the other apps do.
        from . import tasks  # noqa: F401
