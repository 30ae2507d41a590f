# a player's fixed seat (a table reserved hall-wide for every
# Swiss round, its reason private), a match's seating mark, featured tables and a
# player's opt-out from being featured.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0028_judge_calls")]

    operations: list = [
        migrations.AddField(
            model_name="registration",
            name="fixed_table",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="registration",
            name="fixed_table_reason",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
        migrations.AddField(
            model_name="registration",
            name="feature_opt_out",
            field=models.BooleanField(default=False),
        ),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.UniqueConstraint(
                condition=models.Q(("fixed_table__isnull", False)),
                fields=("event", "fixed_table"),
                name="registration_unique_fixed_table",
            ),
        ),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("fixed_table__isnull", True), ("fixed_table__gte", 1), _connector="OR"
                ),
                name="registration_fixed_table_from_1",
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="seating",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "Bracket order"),
                    ("fixed", "Fixed seat"),
                    ("fixed-not-top", "Fixed seat, not a top table"),
                ],
                default="",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="feature_table",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(("seating__in", ["", "fixed", "fixed-not-top"])),
                name="match_seating_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                condition=models.Q(("feature_table", ""), _negated=True),
                fields=("round", "feature_table"),
                name="match_unique_feature_table",
            ),
        ),
    ]
