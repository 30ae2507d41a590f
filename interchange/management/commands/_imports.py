"""What the import commands share (not a command: Django skips modules named ``_…``).

A file is read only up to ``MAX_FILE_BYTES``; JSON that is not UTF-8, nests too deeply,
holds a number too long to read or a key twice in one object is refused like any malformed file; a file the format or
``event_import`` refuses exits non-zero with the message naming the element or field
(``CommandError``), and nothing is written (docs/interfaces.md).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from interchange.formats.checks import MAX_FILE_BYTES, FileRefused
from interchange.formats.eventdata import EventData
from interchange.formats.plain import decode_json
from interchange.services.imports import event_import, file_too_large
from tournaments.errors import MatchslipError
from tournaments.stored_text import shown


def read_file(path: Path) -> bytes:
    """The file's bytes; CommandError when it cannot be read or is too large."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise CommandError(f"{path}: {file_too_large(size)}")
        return path.read_bytes()
    except OSError as e:
        raise CommandError(f"{path}: {e.strerror}") from e


def read_json(path: Path) -> Any:
    """The decoded JSON document of the file (``formats.plain.decode_json``); CommandError
    naming what is wrong, a key given twice in one object included."""
    content = read_file(path)
    try:
        return decode_json(content)
    except FileRefused as e:  # also an object holding a key twice
        raise CommandError(f"{path}: {e}") from e


def import_file(command: BaseCommand, path: Path, parse: Callable[[], EventData]) -> None:
    """Parse with ``parse`` and import the event; print its slug alone on the last line.

    Each official record kept as recorded though the live rules refuse it (a 3-0 in a
    best-of-3, ``formats.checks``) is printed as a ``warning:`` line on standard error;
    the event keeps the same notes for its staff dashboard (``Event.import_notes``)."""
    try:
        data = parse()
    except FileRefused as e:
        raise CommandError(f"{path}: {e}") from e
    try:
        event = event_import(data=data, by=None)
    except MatchslipError as e:
        raise CommandError(f"{path}: {e}") from e
    for note in event.import_notes:
        command.stderr.write(f"warning: {path}: {shown(note)}")
    command.stdout.write(event.slug)
