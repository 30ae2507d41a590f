"""Schema for event planner and edits after entry (issue 13)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0013_importjob")]

    operations = []
