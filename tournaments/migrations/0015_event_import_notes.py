"""Schema for imported records flagged on the event."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0014_event_planner")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="import_notes",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="Official records kept as recorded though the live rules refuse "
                "them (one sentence each, from the import).",
            ),
        ),
    ]
