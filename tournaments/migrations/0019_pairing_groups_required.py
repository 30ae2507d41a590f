# (schema, last step): every round belongs to a pairing group; the
# legacy names Round.pod and Division.pod are gone (a division's groups are
# PairingGroup.divisions).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_pairing_groups_data"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="round", name="round_unique_number"),
        migrations.AlterModelOptions(
            name="round", options={"ordering": ["event", "group__key", "number"]}
        ),
        # A default first, so that going back re-adds the column to existing rows (0018
        # then fills it from the groups).
        migrations.AlterField(
            model_name="round", name="pod", field=models.CharField(default="", max_length=40)
        ),
        migrations.RemoveField(model_name="round", name="pod"),
        migrations.AlterField(
            model_name="round",
            name="group",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rounds",
                to="tournaments.pairinggroup",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                fields=("group", "number"), name="round_unique_number"
            ),
        ),
        migrations.AlterField(
            model_name="division", name="pod", field=models.CharField(default="", max_length=40)
        ),
        migrations.RemoveField(model_name="division", name="pod"),
    ]
