"""``manage.py import_event PATH``: import an event JSON v1 file; prints the new slug."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.formats.event_json import EventFileError, parse_event_json
from tournaments.services.imports import event_import


class Command(BaseCommand):
    help = "Import an event in the matchslip.event.v1 JSON format."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        try:
            data = parse_event_json(json.loads(path.read_text(encoding="utf-8")))
        except OSError as e:
            raise CommandError(f"{path}: {e.strerror}") from e
        except json.JSONDecodeError as e:
            raise CommandError(
                f"{path}: not JSON (line {e.lineno}, column {e.colno}): {e.msg}"
            ) from e
        except EventFileError as e:
            raise CommandError(f"{path}: {e}") from e
        event = event_import(data=data, by=None)
        self.stdout.write(event.slug)
