"""``manage.py export_event SLUG PATH``: write the event as event JSON v1 (a full backup)."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.services.exports import event_export


class Command(BaseCommand):
    help = "Write an event in the matchslip.event.v1 JSON format."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("path", type=Path)

    def handle(self, *args, slug: str, path: Path, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event with slug {slug!r}.")
        path.write_text(
            json.dumps(event_export(event), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
