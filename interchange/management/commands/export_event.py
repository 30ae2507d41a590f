"""``manage.py export_event SLUG PATH [--archive]``: write an event to a file.

Without ``--archive``: the portable event JSON v1 (docs/interfaces.md): players, rounds and
results, which ``import_event`` continues under a new slug. It is not a backup: it has
no audit trail, penalties, staff, self-reports, private links or slug.

With ``--archive``: the event's archive ``matchslip.archive.v1``
(``tournaments.services.archive``): everything the event holds, which ``import_event``
restores identically (same slug and private links) — the backup.

With ``--archive --to-venue``: the same archive, and the event is marked as taken to a
venue laptop (``interchange.services.venue.venue_take``, audited): the laptop's copy can
later come back with ``import_event PATH --from-venue`` if nothing changed here meanwhile.
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from interchange.services.archive import event_archive
from interchange.services.exports import event_export
from interchange.services.venue import venue_take
from tournaments.models import Event


class Command(BaseCommand):
    help = (
        "Write an event in the matchslip.event.v1 JSON format, or with --archive everything "
        "it holds (matchslip.archive.v1, a backup import_event restores identically)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--archive",
            action="store_true",
            help="Write the full archive (audit trail, staff, private links, slug …).",
        )
        parser.add_argument(
            "--to-venue",
            action="store_true",
            help="With --archive: take the event to a venue laptop (import_event there); "
            "its copy comes back with import_event --from-venue if nothing changed here.",
        )

    def handle(
        self, *args, slug: str, path: Path, archive: bool = False, to_venue: bool = False, **options
    ):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event with slug {slug!r}.")
        if to_venue and not archive:
            raise CommandError("--to-venue takes the whole event: add --archive.")
        if to_venue:  # the file written, or the trip not recorded
            with transaction.atomic():
                write(path, venue_take(event=event, by=None))
            return
        write(path, event_archive(event) if archive else event_export(event))


def write(path: Path, doc: dict) -> None:
    """``doc`` as indented UTF-8 JSON in ``path``; CommandError when it cannot be written."""
    try:
        path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as e:
        raise CommandError(f"{path}: {e.strerror}") from e
