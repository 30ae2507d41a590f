# judge calls from a player's private page, answered on the judges'
# floor board (claim, escalate to the head judge, resolve with a note and a time extension).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _user(name: str) -> tuple[str, models.ForeignKey]:
    return (
        name,
        models.ForeignKey(
            blank=True,
            null=True,
            on_delete=django.db.models.deletion.SET_NULL,
            related_name="+",
            to=settings.AUTH_USER_MODEL,
        ),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0027_slip_binding"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="JudgeCall",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("round_number", models.PositiveSmallIntegerField()),
                ("table", models.PositiveIntegerField()),
                (
                    "reason",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("rules", "Rules question"),
                            ("disagreement", "Disagreement"),
                            ("time", "Time"),
                            ("other", "Other"),
                        ],
                        max_length=16,
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("open", "Waiting for a judge"),
                            ("claimed", "A judge is on the way"),
                            ("resolved", "Resolved"),
                        ],
                        default="open",
                        max_length=16,
                    ),
                ),
                ("version", models.PositiveIntegerField(default=0)),
                ("created_at", models.DateTimeField()),
                ("claimed_at", models.DateTimeField(blank=True, null=True)),
                ("escalated_at", models.DateTimeField(blank=True, null=True)),
                ("resolved_at", models.DateTimeField(blank=True, null=True)),
                ("note", models.TextField(blank=True)),
                ("extra_minutes", models.PositiveSmallIntegerField(default=0)),
                _user("claimed_by"),
                _user("escalated_by"),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="judge_calls",
                        to="tournaments.event",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="judge_calls",
                        to="tournaments.match",
                    ),
                ),
                (
                    "registration",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tournaments.registration",
                    ),
                ),
                _user("resolved_by"),
            ],
            options={
                "verbose_name": "judge call",
                "verbose_name_plural": "judge calls",
                "ordering": ["created_at", "id"],
                "indexes": [
                    models.Index(fields=["event", "status"], name="judge_call_event_status")
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("status__in", ["claimed", "open", "resolved"])),
                        name="judge_call_status_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("reason__in", ["", "disagreement", "other", "rules", "time"])
                        ),
                        name="judge_call_reason_valid",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("status", "resolved"), _negated=True),
                        fields=("match",),
                        name="judge_call_one_open_per_table",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("resolved_at__isnull", False), ("status", "resolved")),
                            models.Q(
                                models.Q(("status", "resolved"), _negated=True),
                                ("resolved_at__isnull", True),
                            ),
                            _connector="OR",
                        ),
                        name="judge_call_resolved_iff_resolved_at",
                    ),
                ],
            },
        ),
    ]
