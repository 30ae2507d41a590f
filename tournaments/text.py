"""The one text rule for names: what a player's name, an event's name
or its venue may hold, on every path that writes one — the Add-player and Edit-player
forms, the event forms, the pasted lists and spreadsheets, and every import (TOM, event
JSON, WER, melee.gg) — so that nothing the app accepts breaks a page or a file it writes
(a TOM file is XML 1.0, which cannot hold most control characters at all).

A name is refused, with a message naming the field, when it holds

* a **control character** (Unicode category ``Cc``: U+0000–U+001F, U+007F–U+009F, tab and
  newline included — a pasted list or sheet reads a tab or a line break as a separator
  *before* its cells reach this rule, so they never become part of a name);
* a **bidirectional embedding, override or isolate** (U+202A–U+202E, U+2066–U+2069):
  they reorder the text around the name on a page; the marks U+200E/U+200F (which
  reorder nothing beyond themselves) and the joiners U+200C/U+200D (needed to spell
  Persian, Indic and emoji names) are kept;
* a **surrogate or noncharacter** (U+D800–U+DFFF, U+FDD0–U+FDEF, U+xFFFE/U+xFFFF), which
  is not text and XML cannot hold;
* **nothing visible**: empty once whitespace and invisible format characters (category
  ``Cf``: U+200B zero-width space, U+FEFF, U+00AD soft hyphen, the marks …) are removed.

An accepted name is normalised: every run of whitespace (any Unicode space) becomes one
plain space, and whitespace and invisible format characters at either end are removed.
So an accepted name is written to a TOM file and read back unchanged (a TOM file splits
it at its last space into first and last name and joins them with one).

Pure Python, no database. :func:`name_problem` says why a value is refused (for a form
field or a preview row); :func:`clean_name` returns the normalised name or raises
:class:`TextRefused`.
"""

from __future__ import annotations

import unicodedata

from rulesets.i18n import Text

from .errors import InvalidInput
from .stored_text import gettext_storable

#: Bidirectional embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


class TextRefused(InvalidInput):
    """A name the text rule refuses; the message names the field (``"Line 3, name: …"``)."""


def code_point(char: str) -> str:
    """``"\\x0b"`` → ``"U+000B"``: how a message shows an invisible character."""
    return f"U+{ord(char):04X}"


def _not_text(char: str) -> bool:
    n = ord(char)
    return 0xD800 <= n <= 0xDFFF or 0xFDD0 <= n <= 0xFDEF or (n & 0xFFFE) == 0xFFFE


def _invisible(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) == "Cf"


def name_problem(value: str, *, required: bool = True) -> Text | None:
    """Why ``value`` cannot be a name, as the end of a sentence ("contains the control
    character U+000B, which a name cannot hold"), or None when the rule takes it (module
    docstring). ``required`` False: an empty value is taken (a venue)."""
    for char in value:
        category = unicodedata.category(char)
        if category == "Cc":
            return gettext_storable(
                "contains the control character %(code)s, which a name cannot hold"
            ) % {"code": code_point(char)}
        if char in BIDI_CONTROLS:
            return gettext_storable(
                "contains the bidirectional control %(code)s, which a name cannot hold"
            ) % {"code": code_point(char)}
        if _not_text(char):
            return gettext_storable("contains %(code)s, which is not a character") % {
                "code": code_point(char)
            }
    if not required or any(not _invisible(c) for c in value):
        return None
    hidden = [code_point(c) for c in value if not c.isspace()]
    if not hidden:
        return gettext_storable("must not be empty")
    return gettext_storable("has only invisible characters (%(codes)s)") % {
        "codes": ", ".join(dict.fromkeys(hidden))
    }


def normalised_name(value: str) -> str:
    """``value`` with each run of whitespace as one space and no whitespace or invisible
    format character at either end; meant for a value :func:`name_problem` takes."""
    spaced = " ".join(value.split())
    start, end = 0, len(spaced)
    while start < end and _invisible(spaced[start]):
        start += 1
    while end > start and _invisible(spaced[end - 1]):
        end -= 1
    return spaced[start:end]


def clean_name(value: str, field: str, *, required: bool = True) -> str:
    """The name ``value`` normalised (:func:`normalised_name`), for the field called
    ``field`` in messages ("Name", "Line 3, name", "players[2].name").

    Raises :class:`TextRefused` ("<field>: <problem>") when :func:`name_problem`
    refuses it; ``required`` False lets an empty value through as ``""``."""
    problem = name_problem(value, required=required)
    if problem is not None:
        raise TextRefused(
            gettext_storable("%(where)s: %(problem)s") % {"where": field, "problem": problem}
        )
    return normalised_name(value)
