"""``manage.py import_wer PATH``: import a Wizards Event Reporter file; prints the slug."""

from pathlib import Path

from django.core.management.base import BaseCommand

from interchange.formats.wer import parse_wer

from ._imports import import_file, read_file


class Command(BaseCommand):
    help = "Import a Wizards Event Reporter (.wer) XML file: persons, rounds, games, drops."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        content = read_file(path)
        import_file(self, path, lambda: parse_wer(content))
