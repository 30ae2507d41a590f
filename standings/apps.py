from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, worker, commands), so tasks
        # queued by name from `tournaments` always resolve.
        # The game-record rule lives in the standings engine; slips reach it through
        # tournaments.rulesets, which may not import standings (STYLE.md layout).
        from tournaments.rulesets import register_game_check

        from . import tasks  # noqa: F401
        from .slips import check_games

        register_game_check(check_games)
