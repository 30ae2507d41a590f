"""``manage.py import_melee PATH``: import a melee.gg tournament JSON; prints the slug.

The event gets melee.gg's options (``mwp_floor`` 1/3 and ``melee_ranking``, R-7), set by
``melee_to_event_data``. A malformed file is refused naming the field; nothing is written.
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.errors import MatchslipError
from tournaments.formats.melee import MeleeError, melee_to_event_data
from tournaments.services.imports import event_import


class Command(BaseCommand):
    help = "Import a melee.gg tournament JSON (Rounds[].Matches[], Standings[])."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        try:
            doc = json.loads(path.read_bytes())
            data = melee_to_event_data(doc)
        except OSError as e:
            raise CommandError(f"{path}: {e.strerror}") from e
        except (ValueError, MeleeError) as e:  # JSONDecodeError and UnicodeError too
            raise CommandError(f"{path}: {e}") from e
        try:
            event = event_import(data=data, by=None)
        except MatchslipError as e:
            raise CommandError(f"{path}: {e}") from e
        self.stdout.write(event.slug)
