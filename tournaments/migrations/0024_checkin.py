# Check-in for real: a present state per registration, and
# whether an event's round 1 waits for Close check-in.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0023_event_play_ids")]

    operations: list = [
        migrations.AddField(
            model_name="event",
            name="checkin_step",
            field=models.BooleanField(
                default=False,
                help_text="Round 1 waits for Close check-in: set for events made on "
                "the New event page and when a first player is checked in.",
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="checked_in_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="registration",
            name="checked_in_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
