from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0027_slip_binding")]

    operations: list = []
