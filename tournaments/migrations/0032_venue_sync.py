"""Events taken to a venue laptop and brought back: ``VenueTrip``, the mark the online
copy was at when its archive was written (``interchange.services.venue``)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0031_match_length_drop_order"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="VenueTrip",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("token", models.CharField(max_length=64, unique=True)),
                ("taken_at", models.DateTimeField()),
                ("rows", models.JSONField(default=dict)),
                ("returned_at", models.DateTimeField(blank=True, null=True)),
                ("returns", models.PositiveIntegerField(default=0)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="venue_trips",
                        to="tournaments.event",
                    ),
                ),
                (
                    "taken_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "venue trip",
                "verbose_name_plural": "venue trips",
                "ordering": ["-taken_at", "-id"],
            },
        ),
    ]
