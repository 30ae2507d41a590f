from django.apps import AppConfig


class PairingsConfig(AppConfig):
    name = "pairings"
    default_auto_field = "django.db.models.BigAutoField"
