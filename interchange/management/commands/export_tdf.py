"""``manage.py export_tdf SLUG PATH``: write a Pokémon event as a TOM ``.tdf`` file.

It lives in ``standings`` because the file carries the standings, which ``tournaments``
cannot compute (it imports neither ``standings`` nor ``pairings``).
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from interchange.services.tdf_exports import event_tdf
from standings.services import standings_data
from tournaments.models import Event


class Command(BaseCommand):
    help = "Write a Pokémon event as a TOM .tdf file."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("path", type=Path)

    def handle(self, *args, slug: str, path: Path, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event with slug {slug!r}.")
        text = event_tdf(event=event, standings=standings_data(event))
        try:
            path.write_text(text, encoding="utf-8", newline="\n")
        except OSError as e:
            raise CommandError(f"{path}: {e.strerror}") from e
