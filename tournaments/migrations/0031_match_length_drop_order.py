from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0030_player_decklists")]

    operations: list = []
