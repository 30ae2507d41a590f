# players' own reports carry the game record of best-of-3 rulesets (M-MATCH-1).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_pods_cuts_notes_decklists"),
    ]

    operations = [
        migrations.AddField(
            model_name="selfreport",
            name="games",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
