"""Schema for long imports as background work (issue 14)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_backgroundrun_lease")]

    operations = []
