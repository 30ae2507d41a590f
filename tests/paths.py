"""Where the real event files live in the repo: ``tests/data`` (see its README.md).

The specification they are checked against is ``docs/rules.md``; the file formats and
commands are ``docs/interfaces.md``."""

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
