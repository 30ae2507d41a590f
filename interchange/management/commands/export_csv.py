"""``manage.py export_csv SLUG standings|pairings PATH`` (docs/interfaces.md): the current
standings (place, id, name, record, points and every tiebreaker column the event's
ruleset declares, headed as on the pages) or the current round's pairings and results,
as CSV in UTF-8 with a byte-order mark (``interchange.services.csv_exports``; the staff pages offer
the same files)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from interchange.services.csv_exports import ENCODING, csv_text, pairings_rows, standings_rows
from tournaments.models import Event

__all__ = ["Command", "pairings_rows", "standings_rows"]  # the row builders, re-exported


class Command(BaseCommand):
    help = "Write the current standings or pairings of an event as CSV (UTF-8 with BOM)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("what", choices=["standings", "pairings"])
        parser.add_argument("path", type=Path)

    def handle(self, *args, slug: str, what: str, path: Path, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event with slug {slug!r}.")
        rows = standings_rows(event) if what == "standings" else pairings_rows(event)
        try:
            path.write_text(csv_text(rows), encoding=ENCODING, newline="")
        except OSError as e:
            raise CommandError(f"{path}: {e.strerror}") from e
