# each pairing group's first table number, so groups playing at the same
# time never share a table number.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0025_event_listing_staff_invites")]

    operations: list = [
        migrations.AddField(
            model_name="pairinggroup",
            name="first_table",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name="pairinggroup",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("first_table__isnull", True), ("first_table__gte", 1), _connector="OR"
                ),
                name="group_first_table_from_1",
            ),
        ),
    ]
