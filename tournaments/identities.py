"""How an event and its players are known to the organisation that sanctions them
: the Play! Pokémon sanction ID and organiser's POP ID of an event,
and the id a player is written under in exported files. No database access.

* A **sanction ID** (TOM ``<data><id>``, the "tournament ID" Play! Pokémon issues) is
  two-digit year, month and a six-digit number: ``25-11-024905`` (the shared real TOM
  file), ``26-01-004635``. An event without one yet has ``""``.
* A **POP ID** (TOM ``<organizer popid>``, the organiser's Play! Pokémon ID) is digits
  only: ``2289823``; real ones have 7 digits, older ones fewer.
* A player's **file id** (TOM ``userid``, the CSV "player id"): their Play! Pokémon ID
  (``Player.player_id``) when they have one, else the registration's own id in the event
  (``Registration.external_id``, e.g. ``p12``) — see :func:`file_ids`.

The model's check constraints (``Event``), the settings service, the import checks
(``formats.checks``) and the settings form all use these patterns and functions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from .stored_text import gettext_storable

SANCTION_ID_LENGTH = 12
#: ``YY-MM-NNNNNN``; anchored, ASCII digits only (PostgreSQL ``~`` and Python ``re``).
SANCTION_ID_PATTERN = r"^[0-9]{2}-(0[1-9]|1[0-2])-[0-9]{6}$"
SANCTION_ID_EXAMPLE = "25-01-000123"
POP_ID_LENGTH = 10
POP_ID_PATTERN = r"^[0-9]{1,10}$"


def sanction_id_problem(value: str) -> str | None:
    """Why ``value`` is not a Play! Pokémon sanction ID (a sentence), or None when it is
    one or is empty (not known yet)."""
    if value == "" or re.fullmatch(SANCTION_ID_PATTERN, value):
        return None
    return gettext_storable(
        "%(value)r is not a sanction ID: it is written like %(example)s "
        "(year, month, then six digits)."
    ) % {"value": value[:40], "example": SANCTION_ID_EXAMPLE}


def pop_id_problem(value: str) -> str | None:
    """Why ``value`` is not a Play! Pokémon ID (POP ID), or None when it is one or empty."""
    if value == "" or re.fullmatch(POP_ID_PATTERN, value):
        return None
    return gettext_storable("%(value)r is not a POP ID: it is digits only, at most %(length)s.") % {
        "value": value[:40],
        "length": POP_ID_LENGTH,
    }


def file_ids(players: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``{external_id: file id}`` for an event's registrations given as
    ``(external_id, player_id)`` pairs (external ids are unique in an event).

    The file id is the player's Play! Pokémon ID (``player_id``), so that TOM and the
    Play! Pokémon site know the player; the registration's ``external_id`` when the
    player has none, or when that ID would not name them alone: another registration
    has the same ``player_id``, or has it as its ``external_id``. File ids are therefore
    unique in the event. A file imported from TOM has ``player_id == external_id`` for
    every player, so its ids come back unchanged."""
    rows = list(players)
    player_ids = Counter(pid for _, pid in rows if pid)
    external = {ext for ext, _ in rows}
    out = {}
    for ext, pid in rows:
        alone = pid and player_ids[pid] == 1 and (pid == ext or pid not in external)
        out[ext] = pid if alone else ext
    return out
