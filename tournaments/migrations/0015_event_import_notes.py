"""Schema for imported records flagged on the event (issue 11)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0014_event_planner")]

    operations = []
