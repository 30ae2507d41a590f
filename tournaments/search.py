"""Finding a player by what someone types on a phone in a noisy hall.

One rule, used by "Find my table" (the stored name list and its PostgreSQL fallback), the
staff round page's search and the Corrections search: a name matches when every word typed
is part of it, ignoring case and accents, in any order. So "tomas" finds "Tomás Díaz",
"muller" finds "Müller", and "Ketchum, Ash" finds "Ash Ketchum". Pure Python, no Django.
"""

from __future__ import annotations

import re
import unicodedata

# Letters that carry no combining mark to strip, spelled as people type them without the key.
_PLAIN = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"}
)
_WORD_SEPARATORS = re.compile(r"[\s,;]+")


def folded(text: str) -> str:
    """``text`` lower-cased (``casefold``: ß → ss) without accents: "Tomás Müller" →
    "tomas muller". Input and output are ``str``; never raises."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.translate(_PLAIN)


def query_words(query: str) -> list[str]:
    """The folded words of a search (commas, semicolons and spaces separate them); an
    empty list for an empty or blank query."""
    return [w for w in _WORD_SEPARATORS.split(folded(query)) if w]


def name_matches(name: str, words: list[str]) -> bool:
    """Whether every word of ``words`` (from :func:`query_words`) is part of ``name``,
    ignoring case and accents. An empty ``words`` matches nothing (a search needs a word)."""
    if not words:
        return False
    haystack = folded(name)
    return all(w in haystack for w in words)


def table_matches(table: int | None, names: list[str], query: str) -> bool:
    """Whether a table answers a staff search (the round page, Corrections): ``query`` is
    its number (digits), or every word of it is part of one player's name (``names``:
    the table's players). Every table matches an empty query."""
    query = query.strip()
    if not query:
        return True
    if query.isdigit():
        return table == int(query)
    words = query_words(query)
    return any(name_matches(name, words) for name in names)
