# deck lists from players. The event says whether lists are collected
# (empty: the ruleset's default), until when players edit theirs, and whether they are
# public once the event is finished; staff may reopen one player's list after the deadline.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0029_fixed_seating_featured")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="decklists_required",
            field=models.BooleanField(
                blank=True,
                help_text="Players hand in a deck list; empty: the ruleset's default "
                "(Pokémon Championship Point events, Magic Competitive events).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="decklist_deadline",
            field=models.DateTimeField(
                blank=True,
                help_text="Players submit and edit their list until then; empty: until round 1 "
                "starts.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="decklists_public",
            field=models.BooleanField(
                default=False, help_text="The lists are public once the event is finished."
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="decklist_reopened",
            field=models.BooleanField(
                default=False,
                help_text="Staff reopened the list after the deadline: the player may submit it "
                "once more.",
            ),
        ),
    ]
