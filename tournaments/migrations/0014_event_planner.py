"""Schema for event planner and edits after entry."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0013_importjob")]

    operations = [
        # --- event planner ---
        migrations.AddField(
            model_name="event",
            name="expected_players",
            field=models.JSONField(
                blank=True, default=dict, help_text="Players expected per division: {code: count}."
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="planned_start",
            field=models.TimeField(blank=True, help_text="Round 1's planned start.", null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="planned_round_seconds",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="A Swiss round's planned length; empty: the ruleset's.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="planned_break_seconds",
            field=models.PositiveIntegerField(
                default=600, help_text="Planned break between rounds, seconds."
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="planned_tables",
            field=models.PositiveIntegerField(
                blank=True, help_text="Tables in the hall; empty: enough for everyone.", null=True
            ),
        ),
    ]
