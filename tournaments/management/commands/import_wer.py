"""``manage.py import_wer PATH``: import a Wizards Event Reporter file; prints the slug."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.formats.wer import WerError, parse_wer
from tournaments.services.imports import event_import


class Command(BaseCommand):
    help = "Import a Wizards Event Reporter (.wer) XML file: persons, rounds, games, drops."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        try:
            data = parse_wer(path.read_bytes())
        except OSError as e:
            raise CommandError(f"{path}: {e.strerror}") from e
        except WerError as e:
            raise CommandError(f"{path}: {e}") from e
        event = event_import(data=data, by=None)
        self.stdout.write(event.slug)
