"""Infractions a judge names on a penalty note, and which of them a player repeated.

Pure Python (no Django). Each ruleset module declares its infractions as data
(``Ruleset.infractions``: the Play! Pokémon penalty guidelines' categories in
``rulesets/pokemon.py``, the Magic Infraction Procedure Guide's names in
``rulesets/mtg.py``); the penalty form offers them and the floor board and a player's
staff page flag a name noted twice or more for one player (the documents' "repeated
infractions": the judge considers an upgraded penalty). RULES.md is silent on penalties:
the names are the documents', the lists are data a ruleset may change.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

_DASHES = re.compile(r"\s*[-‐‑‒–—―]\s*")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Infraction:
    """One infraction a ruleset names.

    name: the English name as the ruleset's penalty document writes it (stored on the
    penalty note; pages translate it, ``|translated``). category: the heading it is
    listed under (the form's group). section: the document's section number, "" when
    the document has none that lasts between revisions.
    """

    name: str
    category: str
    section: str = ""


def infraction_key(name: str) -> str:
    """The form two spellings of one infraction share: case, accents' composition,
    runs of spaces and the kind of dash ignored. ``"Gameplay Error – Minor"`` and
    ``"gameplay error - minor"`` → ``"gameplay error-minor"``."""
    folded = unicodedata.normalize("NFC", name).casefold().strip()
    return _DASHES.sub("-", _SPACES.sub(" ", folded))


def infraction_named(infractions: Sequence[Infraction], name: str) -> Infraction | None:
    """The infraction of ``infractions`` that ``name`` spells (:func:`infraction_key`),
    or None when the list has no such name."""
    key = infraction_key(name)
    return next((i for i in infractions if infraction_key(i.name) == key), None)


def repeated_infractions(notes: Iterable[tuple[K, str]]) -> dict[K, dict[str, int]]:
    """Repeated infractions.

    notes: one ``(player, infraction name)`` per penalty noted at the event, ``player``
    any hashable key (a registration id). Returns, for each player who has an
    infraction noted twice or more, ``{name: count}`` of those infractions only (the
    name as first noted; spellings that share :func:`infraction_key` count together).
    A player with no repeated infraction is absent. Raises nothing.
    """
    counts: Counter[tuple[K, str]] = Counter()
    first: dict[tuple[K, str], str] = {}
    for player, name in notes:
        key = (player, infraction_key(name))
        if not key[1]:
            continue
        counts[key] += 1
        first.setdefault(key, name.strip())
    out: dict[K, dict[str, int]] = {}
    for pair, count in counts.items():
        if count >= 2:
            out.setdefault(pair[0], {})[first[pair]] = count
    return out
