"""``manage.py import_event PATH [--create-users]``: import an event file; prints the slug.

An event JSON v1 file (``export_event``) becomes a new event under a new slug. An archive
(``export_event --archive``, format ``matchslip.archive.v1``) is restored as it was
written: same slug, private links, staff, audit trail (``tournaments.services.archive``).
A restore is refused, writing nothing, when the slug or a private link is already used
here, or when the archive names a user with no account here — unless ``--create-users``,
which creates those accounts with an unusable password (an administrator sets one).

``--from-venue``: the file is a venue laptop's archive of an event taken there with
``export_event --archive --to-venue``; it replaces the event here if nothing changed here
since it was taken, and is refused listing every change otherwise
(``interchange.services.venue.venue_return``). ``--discard-online-changes SAVED`` brings it
back anyway after writing the copy here to SAVED.
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from interchange.formats.event_json import parse_event_json
from interchange.services.archive import ARCHIVE_FORMAT, ArchiveRefused, archive_restore
from interchange.services.venue import venue_return
from tournaments.errors import MatchslipError

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
        parser.add_argument(
            "--from-venue",
            action="store_true",
            help="Bring back an event taken to a venue (export_event --archive --to-venue): "
            "replace it here with the venue's archive, refused if it changed here meanwhile.",
        )
        parser.add_argument(
            "--discard-online-changes",
            type=Path,
            metavar="SAVED",
            help="With --from-venue: when the event changed here meanwhile, write its archive "
            "to SAVED, then replace it with the venue's copy anyway.",
        )

    def handle(
        self,
        *args,
        path: Path,
        create_users: bool = False,
        from_venue: bool = False,
        discard_online_changes: Path | None = None,
        **options,
    ):
        doc = read_json(path)
        if discard_online_changes is not None and not from_venue:
            raise CommandError("--discard-online-changes goes with --from-venue.")
        if from_venue:
            self.bring_back(path, doc, create_users, discard_online_changes)
            return
        if isinstance(doc, dict) and doc.get("format") == ARCHIVE_FORMAT:
            try:
                event = archive_restore(doc, create_users=create_users)
            except ArchiveRefused as e:
                raise CommandError(f"{path}: {e}") from e
            self.stdout.write(event.slug)
            return
        import_file(self, path, lambda: parse_event_json(doc))

    def bring_back(self, path: Path, doc: object, create_users: bool, saved: Path | None) -> None:
        """``--from-venue``: print what came back and the slug (last line)."""

        def keep(online: dict) -> None:
            assert saved is not None
            text = json.dumps(online, indent=2, ensure_ascii=False) + "\n"
            try:
                saved.write_text(text, encoding="utf-8")
            except OSError as e:
                raise CommandError(f"{saved}: {e.strerror}") from e

        try:
            back = venue_return(
                doc, by=None, create_users=create_users, keep_online=keep if saved else None
            )
        except MatchslipError as e:
            raise CommandError(f"{path}: {e}") from e
        if back.replaced_online:
            self.stderr.write(
                f"Replaced {len(back.replaced_online)} change(s) made here, kept in {saved}:"
            )
            for line in back.replaced_online:
                self.stderr.write(f"- {line}")
        self.stderr.write(f"Brought back {back.venue_changes} audited change(s) from the venue.")
        self.stdout.write(back.event.slug)
