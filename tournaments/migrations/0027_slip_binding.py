# Placeholder: filled in by the work it is named for (operations added when the models change).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0026_group_first_table")]

    operations: list = []
