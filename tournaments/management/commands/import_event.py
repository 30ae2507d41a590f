"""``manage.py import_event PATH``: import an event JSON v1 file; prints the new slug."""

from pathlib import Path

from django.core.management.base import BaseCommand

from tournaments.formats.event_json import parse_event_json

from ._imports import import_file, read_json


class Command(BaseCommand):
    help = "Import an event in the matchslip.event.v1 JSON format."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        doc = read_json(path)
        import_file(self, path, lambda: parse_event_json(doc))
