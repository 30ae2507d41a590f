from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0028_judge_calls")]

    operations: list = []
