# a round clock for every ruleset. The round's clock can be paused and
# lengthened (clock_paused_at, clock_paused_seconds, clock_added_seconds), and a judge can
# give one table a time extension (Match.extra_seconds). Times in seconds.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_event_ruleset_from_registry"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="clock_paused_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="clock_paused_seconds",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="round",
            name="clock_added_seconds",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="match",
            name="extra_seconds",
            field=models.PositiveIntegerField(
                default=0,
                help_text=(
                    "Time extension a judge gave this table (a deck check, a ruling), seconds."
                ),
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(clock_paused_at__isnull=True)
                | models.Q(started_at__isnull=False),
                name="round_clock_paused_once_started",
            ),
        ),
    ]
