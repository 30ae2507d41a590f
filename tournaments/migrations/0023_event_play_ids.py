# an event's Play! Pokémon sanction ID and organiser's POP ID become
# fields (written to the TOM file, set on the event settings page). Events imported from
# TOM files before kept them in ``source["tdf"]`` (``"id"`` and ``data.organizer`` =
# [popid, name]); they are moved to the fields when they have Play! Pokémon's form, and
# the organiser's name stays in ``data.organizer_name``. A value of another form stays
# where it was (the exporter no longer writes it). Tested by
# tests/tournaments/test_play_ids.py.

import re

from django.db import migrations, models

# The patterns as of this migration (``tournaments.identities`` holds the live ones).
SANCTION_ID = r"^[0-9]{2}-(0[1-9]|1[0-2])-[0-9]{6}$"
POP_ID = r"^[0-9]{1,10}$"


def ids_to_fields(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    for event in Event.objects.filter(source__has_key="tdf").iterator():
        tdf = event.source["tdf"]
        data = tdf.get("data") if isinstance(tdf, dict) else None
        if not isinstance(data, dict):
            continue
        sanction = tdf.get("id", "")
        if sanction == "" or (isinstance(sanction, str) and re.fullmatch(SANCTION_ID, sanction)):
            event.sanction_id = tdf.pop("id", "")
        organizer = data.get("organizer")
        if isinstance(organizer, list) and len(organizer) == 2:
            popid, name = organizer
            data["organizer_name"] = name
            if popid == "" or (isinstance(popid, str) and re.fullmatch(POP_ID, popid)):
                event.organizer_pop_id = popid
                del data["organizer"]
        event.save(update_fields=["sanction_id", "organizer_pop_id", "source"])


def fields_to_ids(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    for event in Event.objects.filter(source__has_key="tdf").iterator():
        tdf = event.source["tdf"]
        data = tdf.get("data") if isinstance(tdf, dict) else None
        if not isinstance(data, dict):
            continue
        tdf.setdefault("id", event.sanction_id)
        if "organizer_name" in data:
            name = data.pop("organizer_name")
            data.setdefault("organizer", [event.organizer_pop_id, name])
        event.save(update_fields=["source"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0022_live_versions"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="organizer_pop_id",
            field=models.CharField(
                blank=True,
                help_text="The organiser's Play! Pokémon ID, digits (TOM <organizer popid>).",
                max_length=10,
                verbose_name="organiser's POP ID",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="sanction_id",
            field=models.CharField(
                blank=True,
                help_text="Play! Pokémon tournament ID, e.g. 25-01-000123 (TOM <data><id>).",
                max_length=12,
                verbose_name="sanction ID",
            ),
        ),
        migrations.RunPython(ids_to_fields, fields_to_ids),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("sanction_id", ""),
                    ("sanction_id__regex", "^[0-9]{2}-(0[1-9]|1[0-2])-[0-9]{6}$"),
                    _connector="OR",
                ),
                name="event_sanction_id_format",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("organizer_pop_id", ""),
                    ("organizer_pop_id__regex", "^[0-9]{1,10}$"),
                    _connector="OR",
                ),
                name="event_organizer_pop_id_digits",
            ),
        ),
    ]
