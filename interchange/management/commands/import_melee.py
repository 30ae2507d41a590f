"""``manage.py import_melee PATH``: import a melee.gg tournament JSON; prints the slug.

The event gets melee.gg's options (``mwp_floor`` 1/3 and ``melee_ranking``, R-7), set by
``melee_to_event_data``. A malformed file is refused naming the field; nothing is written.
"""

from pathlib import Path

from django.core.management.base import BaseCommand

from interchange.formats.melee import melee_to_event_data

from ._imports import import_file, read_json


class Command(BaseCommand):
    help = "Import a melee.gg tournament JSON (Rounds[].Matches[], Standings[])."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        doc = read_json(path)
        import_file(self, path, lambda: melee_to_event_data(doc))
