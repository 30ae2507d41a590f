# (schema, first step): pairing groups, cut seeds and a match's kind as
# data. Round.group is filled by 0018 and made required by 0019; BackgroundRun.pod is
# renamed group ("pod" now means a multiplayer table only).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_choices_check_constraints"),
    ]

    operations = [
        migrations.CreateModel(
            name="PairingGroup",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=40)),
                (
                    "phase",
                    models.CharField(
                        choices=[
                            ("swiss", "Swiss"),
                            ("top-cut", "Top cut"),
                            ("single-elimination", "Single elimination"),
                        ],
                        default="swiss",
                        max_length=24,
                    ),
                ),
                ("flight", models.PositiveSmallIntegerField(blank=True, null=True)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="groups",
                        to="tournaments.event",
                    ),
                ),
                (
                    "parent",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="children",
                        to="tournaments.pairinggroup",
                    ),
                ),
                (
                    "divisions",
                    models.ManyToManyField(related_name="groups", to="tournaments.division"),
                ),
            ],
            options={
                "ordering": ["event", "key"],
                "constraints": [
                    models.UniqueConstraint(fields=("event", "key"), name="group_unique_key"),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("phase__in", ["single-elimination", "swiss", "top-cut"])
                        ),
                        name="group_phase_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("flight__isnull", True),
                            models.Q(("flight__gte", 1), ("parent__isnull", False)),
                            _connector="OR",
                        ),
                        name="group_flight_has_parent",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="CutSeed",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seed", models.PositiveSmallIntegerField()),
                (
                    "group",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seeds",
                        to="tournaments.pairinggroup",
                    ),
                ),
                (
                    "registration",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tournaments.registration",
                    ),
                ),
            ],
            options={
                "ordering": ["group", "seed"],
                "constraints": [
                    models.UniqueConstraint(fields=("group", "seed"), name="cut_seed_unique"),
                    models.UniqueConstraint(fields=("group", "registration"), name="cut_seed_once"),
                    models.CheckConstraint(
                        condition=models.Q(("seed__gte", 1)), name="cut_seed_from_1"
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="match",
            name="kind",
            field=models.CharField(
                choices=[
                    ("swiss", "Swiss"),
                    ("bracket", "Bracket"),
                    ("third-place", "3rd/4th place playoff"),
                    ("bye", "Bye"),
                    ("late-entry-loss", "Late-entry loss"),
                ],
                default="swiss",
                max_length=16,
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("kind__in", ["bracket", "bye", "late-entry-loss", "swiss", "third-place"])
                ),
                name="match_kind_valid",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="group",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rounds",
                to="tournaments.pairinggroup",
            ),
        ),
        migrations.RemoveConstraint(model_name="backgroundrun", name="run_one_active"),
        migrations.RenameField(model_name="backgroundrun", old_name="pod", new_name="group"),
        migrations.AddConstraint(
            model_name="backgroundrun",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status__in", ["queued", "running"])),
                fields=("event", "kind", "group"),
                name="run_one_active",
            ),
        ),
    ]
