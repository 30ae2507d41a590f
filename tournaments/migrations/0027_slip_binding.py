# a self-report remembers the browser that sent it, and whether that
# browser had already reported for another player of the same table.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0026_group_first_table")]

    operations = [
        migrations.AddField(
            model_name="selfreport",
            name="browser",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="selfreport",
            name="one_browser",
            field=models.BooleanField(default=False),
        ),
    ]
