# an event's listing (draft, listed, unlisted) and one-time staff
# invites. Every existing event stays listed (the field's default fills the column).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0024_checkin")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="listing",
            field=models.CharField(
                choices=[("draft", "Draft"), ("listed", "Listed"), ("unlisted", "Unlisted")],
                default="listed",
                help_text="Draft: staff only; listed: on the home page; unlisted: links still work.",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("listing__in", ["draft", "listed", "unlisted"])),
                name="event_listing_valid",
            ),
        ),
        migrations.CreateModel(
            name="StaffInvite",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[
                            ("organiser", "Organiser"),
                            ("scorekeeper", "Scorekeeper"),
                            ("judge", "Judge"),
                        ],
                        max_length=16,
                    ),
                ),
                ("email", models.EmailField(blank=True, max_length=254)),
                ("token_hash", models.CharField(max_length=64, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("expires_at", models.DateTimeField()),
                ("used_at", models.DateTimeField(blank=True, null=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invites",
                        to="tournaments.event",
                    ),
                ),
                (
                    "used_by",
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
                "verbose_name": "staff invite",
                "verbose_name_plural": "staff invites",
                "ordering": ["-created_at"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("role__in", ["judge", "organiser", "scorekeeper"])),
                        name="staff_invite_role_valid",
                    )
                ],
            },
        ),
    ]
