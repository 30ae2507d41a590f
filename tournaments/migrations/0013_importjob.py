"""Schema for long imports as background work: ``ImportJob`` rows hold an
uploaded event file, the progress a worker reports while importing it, its outcome and
the lease the beat sweep reads."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_backgroundrun_lease"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ImportJob",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "format",
                    models.CharField(
                        choices=[
                            ("tdf", "Pokémon TOM (.tdf)"),
                            ("event-json", "Matchslip event JSON"),
                            ("wer", "Wizards Event Reporter (.wer)"),
                            ("melee", "melee.gg JSON"),
                        ],
                        max_length=16,
                    ),
                ),
                ("filename", models.CharField(max_length=255)),
                (
                    "size",
                    models.PositiveIntegerField(help_text="The uploaded file's size in bytes."),
                ),
                ("content", models.BinaryField(blank=True, null=True)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "Queued"),
                            ("running", "Running"),
                            ("done", "Done"),
                            ("failed", "Failed"),
                        ],
                        default="queued",
                        max_length=16,
                    ),
                ),
                ("stage", models.CharField(blank=True, max_length=120)),
                ("units_done", models.PositiveIntegerField(default=0)),
                ("units_total", models.PositiveIntegerField(default=0)),
                ("error", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("heartbeat_at", models.DateTimeField(blank=True, null=True)),
                (
                    "attempts",
                    models.PositiveSmallIntegerField(
                        default=0, help_text="Times a worker took it."
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tournaments.event",
                    ),
                ),
                (
                    "requested_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="import_jobs",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(status__in=["done", "failed", "queued", "running"]),
                        name="importjob_status_known",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(format__in=["event-json", "melee", "tdf", "wer"]),
                        name="importjob_format_known",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(units_done__lte=models.F("units_total")),
                        name="importjob_units_done_lte_total",
                    ),
                ],
            },
        ),
    ]
