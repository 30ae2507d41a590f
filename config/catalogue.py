"""Compile the translation catalogues (``locale/<lang>/LC_MESSAGES/django.po`` → ``.mo``)
in pure Python with polib, so a fresh machine needs no gettext system package.

Run by ``make install`` (``python -m config.catalogue``) and by the Dockerfile; the same
code is ``manage.py compile_catalogue``. ``--check`` compiles in memory and exits 1 when a
``.mo`` is missing or differs from its ``.po`` (the test suite runs it).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def mo_bytes(po_path: Path) -> bytes:
    """The compiled ``.mo`` content of one ``.po`` file (fuzzy entries are left out, as
    msgfmt does). Raises OSError or ValueError (polib) on an unreadable catalogue."""
    po = polib.pofile(str(po_path))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "django.mo"
        po.save_as_mofile(str(out))
        return out.read_bytes()


def catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Every ``django.po`` under ``locale_dir``, sorted."""
    return sorted(locale_dir.glob("*/LC_MESSAGES/django.po"))


def compile_all(locale_dir: Path = LOCALE_DIR, *, check: bool = False) -> list[Path]:
    """Write each catalogue's ``.mo`` (or, with ``check``, write nothing). Returns the
    ``.mo`` paths that were out of date (missing or different bytes)."""
    stale = []
    for po_path in catalogues(locale_dir):
        mo_path = po_path.with_suffix(".mo")
        data = mo_bytes(po_path)
        if not mo_path.exists() or mo_path.read_bytes() != data:
            stale.append(mo_path)
            if not check:
                mo_path.write_bytes(data)
    return stale


def untranslated(locale_dir: Path = LOCALE_DIR) -> list[tuple[Path, str]]:
    """(catalogue, msgid) of every entry still to translate: empty, fuzzy, or a plural
    form left empty. Obsolete entries are ignored."""
    todo = []
    for po_path in catalogues(locale_dir):
        for entry in polib.pofile(str(po_path)):
            if entry.obsolete:
                continue
            empty = (
                not entry.msgstr
                if not entry.msgid_plural
                else not all(entry.msgstr_plural.values())
            )
            if empty or entry.fuzzy:
                todo.append((po_path, entry.msgid))
    return todo


def main(argv: list[str]) -> int:
    if "--untranslated" in argv:
        todo = untranslated()
        for po_path, msgid in todo:
            print(f"{po_path.relative_to(LOCALE_DIR.parent)}: {msgid!r}")
        print(f"{len(todo)} untranslated")
        return 1 if todo else 0
    check = "--check" in argv
    stale = compile_all(check=check)
    for path in stale:
        print(f"{'out of date' if check else 'compiled'}: {path.relative_to(LOCALE_DIR.parent)}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
