import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("standings", "0002_verbose_names"),
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="CutOutlook",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("rounds_complete", models.PositiveSmallIntegerField(default=0)),
                ("seed", models.BigIntegerField()),
                ("simulations", models.PositiveIntegerField()),
                ("seconds", models.FloatField(default=0)),
                ("data", models.JSONField()),
                ("computed_at", models.DateTimeField(auto_now_add=True)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="outlooks",
                        to="tournaments.event",
                    ),
                ),
                (
                    "snapshot",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="outlook",
                        to="standings.standingssnapshot",
                    ),
                ),
            ],
            options={
                "verbose_name": "cut-line outlook",
                "verbose_name_plural": "cut-line outlooks",
                "ordering": ["-computed_at", "-id"],
            },
        ),
    ]
