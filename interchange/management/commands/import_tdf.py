"""``manage.py import_tdf PATH``: import a Pokémon TOM file; prints the new event's slug."""

from pathlib import Path

from django.core.management.base import BaseCommand

from interchange.formats.tdf import parse_tdf
from interchange.formats.tdf_event import tdf_event_data

from ._imports import import_file, read_file


class Command(BaseCommand):
    help = "Import a Pokémon TOM .tdf file (players, pods, rounds, matches, drops, top cut)."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        content = read_file(path)
        import_file(self, path, lambda: tdf_event_data(parse_tdf(content)))
