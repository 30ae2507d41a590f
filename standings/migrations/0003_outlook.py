from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("standings", "0002_verbose_names")]

    operations: list = []
