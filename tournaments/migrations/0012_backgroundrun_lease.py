# background work that survives faults. A run's row carries its lease:
# the task to send, when it was handed to the broker, when a worker took it and last beat,
# how many times it was taken, and a note (e.g. "superseded: round 6 was paired
# meanwhile"); a pairing run also records the round it was asked to pair.

from django.db import migrations, models

TASKS = {"pairing": "pairings.tasks.pair_round", "standings": "standings.tasks.standings_compute"}


def fill_tasks(apps, schema_editor):
    """Runs made before this migration name their task by kind."""
    BackgroundRun = apps.get_model("tournaments", "BackgroundRun")
    for kind, task in TASKS.items():
        BackgroundRun.objects.filter(kind=kind, task="").update(task=task)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_round_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="backgroundrun",
            name="task",
            field=models.CharField(blank=True, help_text="The Celery task's name.", max_length=100),
        ),
        migrations.AddField(
            model_name="backgroundrun",
            name="round_number",
            field=models.PositiveIntegerField(
                blank=True, help_text="The round a pairing run was asked to pair.", null=True
            ),
        ),
        migrations.AddField(
            model_name="backgroundrun",
            name="sent_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="backgroundrun",
            name="started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="backgroundrun",
            name="heartbeat_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="backgroundrun",
            name="attempts",
            field=models.PositiveSmallIntegerField(default=0, help_text="Times a worker took it."),
        ),
        migrations.AddField(
            model_name="backgroundrun",
            name="note",
            field=models.TextField(blank=True, help_text="What happened besides the outcome."),
        ),
        migrations.RunPython(fill_tasks, migrations.RunPython.noop, elidable=True),
    ]
