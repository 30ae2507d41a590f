"""Reading numbers and JSON from a file exactly as written.

Python's readers are generous where an import must not be: ``int()`` reads ``1_0_0`` as
100 and Arabic-Indic ``١`` as 1, and ``json.loads`` lets the last of two equal keys in an
object silently win. An event file that says something twice, or a number in a form no
official software writes, is refused instead, naming the field:

* :func:`plain_int`: a whole number written with the ASCII digits 0–9 only (and a
  leading ``-``; the callers' ranges refuse what may not be negative);
* :func:`decode_json`: a JSON document (event JSON, melee.gg) refused as a whole when an
  object holds the same key twice, or when it is not UTF-8, not JSON, nested too deeply
  or holds a number too long to read.

No models: Django only for translated messages (``tournaments.stored_text``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from tournaments.stored_text import gettext_storable

from .checks import FileRefused, shown

_PLAIN_INT = re.compile(r"-?[0-9]+")  # ASCII only: str patterns' \d takes any script's digits


def plain_int(value: str) -> int:
    """``value`` (surrounding blanks ignored) read as a whole number when it is an
    optional ``-`` followed by the ASCII digits 0–9 only; ValueError otherwise (``1_0_0``,
    ``+5``, ``١``, ``1e3``, ""), as ``int()`` raises for text it cannot read at all, so a
    caller's ``except ValueError`` names the field."""
    text = value.strip()
    if not _PLAIN_INT.fullmatch(text):
        raise ValueError(f"not a plain whole number: {text!r}")
    return int(text)


class _Duplicates:
    """The objects that held a key twice, with that key (kept alive so ``id`` is valid)."""

    def __init__(self) -> None:
        self.found: dict[int, tuple[dict[str, Any], str]] = {}

    def hook(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
            self.found[id(obj)] = (obj, twice)
        return obj


def _key_path(where: str, key: str) -> str:
    shown_key = key if len(key) <= 40 and key.isprintable() else shown(key)
    return f"{where}.{shown_key}" if where else shown_key


def _first_duplicate(doc: Any, found: dict[int, tuple[dict[str, Any], str]]) -> str:
    """The path (``rounds[2].matches[0].result``) of the first repeated key, in document
    order (iterative: no recursion however deep the document)."""
    stack: list[tuple[str, Any]] = [("", doc)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, dict):
            if id(node) in found:
                return _key_path(where, found[id(node)][1])
            children = [(_key_path(where, k), v) for k, v in node.items()]
        elif isinstance(node, list):
            children = [(f"{where}[{i}]", v) for i, v in enumerate(node)]
        else:
            continue
        stack.extend(reversed(children))
    raise AssertionError("a duplicate was recorded but not found")  # pragma: no cover


def decode_json(content: bytes | str) -> Any:
    """The decoded JSON document of a file's bytes (or text).

    Raises FileRefused, the message naming what is wrong: an object holding the same key
    twice (``players[3].name: given twice in the same object``), bytes that are not
    UTF-8, text that is not JSON (line and column), nesting too deep for Python, an
    integer of thousands of digits."""
    duplicates = _Duplicates()
    try:
        doc = json.loads(content, object_pairs_hook=duplicates.hook)
    except json.JSONDecodeError as e:
        raise FileRefused(
            gettext_storable("not JSON (line %(lineno)s, column %(colno)s): %(msg)s")
            % {"lineno": e.lineno, "colno": e.colno, "msg": e.msg}
        ) from None
    except UnicodeDecodeError as e:
        raise FileRefused(
            gettext_storable("not UTF-8 text (byte %(start)s)") % {"start": e.start}
        ) from None
    except RecursionError:
        raise FileRefused(gettext_storable("not JSON we can read: nested too deeply")) from None
    except ValueError as e:  # an integer of thousands of digits
        raise FileRefused(gettext_storable("not JSON we can read: %(e)s") % {"e": e}) from None
    if duplicates.found:
        raise FileRefused(
            gettext_storable(
                "%(where)s: given twice in the same object; which one counts is unclear"
            )
            % {"where": _first_duplicate(doc, duplicates.found)}
        )
    return doc
