"""``manage.py import_event PATH [--create-users]``: import an event file; prints the slug.

An event JSON v1 file (``export_event``) becomes a new event under a new slug. An archive
(``export_event --archive``, format ``matchslip.archive.v1``) is restored as it was
written: same slug, private links, staff, audit trail (``tournaments.services.archive``).
A restore is refused, writing nothing, when the slug or a private link is already used
here, or when the archive names a user with no account here — unless ``--create-users``,
which creates those accounts with an unusable password (an administrator sets one).
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from interchange.formats.event_json import parse_event_json
from interchange.services.archive import ARCHIVE_FORMAT, ArchiveRefused, archive_restore

from ._imports import import_file, read_json


class Command(BaseCommand):
    help = "Import an event in the matchslip.event.v1 JSON format, or restore an archive."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--create-users",
            action="store_true",
            help="Restoring an archive: create the accounts it names that are not here "
            "(unusable password).",
        )

    def handle(self, *args, path: Path, create_users: bool = False, **options):
        doc = read_json(path)
        if isinstance(doc, dict) and doc.get("format") == ARCHIVE_FORMAT:
            try:
                event = archive_restore(doc, create_users=create_users)
            except ArchiveRefused as e:
                raise CommandError(f"{path}: {e}") from e
            self.stdout.write(event.slug)
            return
        import_file(self, path, lambda: parse_event_json(doc))
