from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0029_fixed_seating_featured")]

    operations: list = []
