# every choices field holds one of its choices in the database.

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_event_import_notes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="backgroundrun",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["pairing", "standings"])), name="run_kind_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="backgroundrun",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["done", "failed", "queued", "running"])),
                name="run_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="division",
            constraint=models.CheckConstraint(
                condition=models.Q(("code__in", ["junior", "masters", "open", "senior"])),
                name="division_code_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "ruleset__in",
                        ["bo3-wins-against", "mtg", "mtg-multiplayer", "pokemon", "pokemon-2009"],
                    )
                ),
                name="event_ruleset_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("structure__in", ["single-elimination", "swiss", "swiss-top-cut"])
                ),
                name="event_structure_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("status__in", ["finished", "registration", "swiss", "top-cut"])
                ),
                name="event_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("self_report__in", ["accept", "hold", "off"])),
                name="event_self_report_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="eventstaff",
            constraint=models.CheckConstraint(
                condition=models.Q(("role__in", ["judge", "organiser", "scorekeeper"])),
                name="staff_role_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("outcome__in", ["bye", "double-loss", "draw", "loss", "pending", "win"])
                ),
                name="match_outcome_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="penaltynote",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "kind__in",
                        [
                            "caution",
                            "disqualification",
                            "game-loss",
                            "match-loss",
                            "prize-penalty",
                            "warning",
                        ],
                    )
                ),
                name="penalty_kind_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("phase__in", ["single-elimination", "swiss", "swiss-day2", "top-cut"])
                ),
                name="round_phase_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["complete", "paired", "published", "started"])),
                name="round_status_valid",
            ),
        ),
    ]
