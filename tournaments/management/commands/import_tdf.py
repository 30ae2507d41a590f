"""``manage.py import_tdf PATH``: import a Pokémon TOM file; prints the new event's slug."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.formats.tdf import TdfError, parse_tdf
from tournaments.formats.tdf_event import tdf_event_data
from tournaments.services.imports import event_import


class Command(BaseCommand):
    help = "Import a Pokémon TOM .tdf file (players, pods, rounds, matches, drops, top cut)."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        try:
            data = tdf_event_data(parse_tdf(path.read_bytes()))
        except OSError as e:
            raise CommandError(f"{path}: {e.strerror}") from e
        except TdfError as e:
            raise CommandError(f"{path}: {e}") from e
        event = event_import(data=data, by=None)
        self.stdout.write(event.slug)
