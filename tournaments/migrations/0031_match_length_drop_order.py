"""No schema change. The match length (``match_length``) and
the placing of dropped players (``drops_below_active``) are ruleset options, kept in the
existing ``Event.options`` JSON column like the other options (R-7, R-8)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0030_player_decklists")]

    operations: list = []
