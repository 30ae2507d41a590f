"""What live pages talk about: topics, a change of one topic, and how a change travels
between processes (the Redis pub/sub channel and message format). No database, no hub:
``versions`` (the counters) and ``hub`` (the open connections) both build on this.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings

PUBLIC = "public"
STAFF = "staff"
CLOCK = "clock"
FINISHED = "finished"
RESULTS = "results"  # a result was entered: the projector's "tables still playing"
OPTIONAL_PUBLIC = frozenset({CLOCK, RESULTS})  # public topics a page asks for by name
PLAYER_PREFIX = "reg:"
CHANNEL_PREFIX = "matchslip:live:"


@dataclass(frozen=True)
class Change:
    """One topic of one event reached ``version``."""

    event_id: int
    topic: str
    version: int


def player_topic(registration_id: int) -> str:
    """The topic of one player's own match and entry: ``reg:<registration id>``."""
    return f"{PLAYER_PREFIX}{registration_id}"


def channel() -> str:
    """The Redis pub/sub channel of this database (two test databases on one Redis server
    never hear each other)."""
    return CHANNEL_PREFIX + str(settings.DATABASES["default"]["NAME"])


def encode(changes: Iterable[Change]) -> str:
    """Changes as a pub/sub message: one ``event_id topic version`` per line."""
    return "\n".join(f"{c.event_id} {c.topic} {c.version}" for c in changes)


def parse(data: bytes | str) -> list[Change]:
    """The changes of a pub/sub message (lines that do not parse are skipped)."""
    text = data.decode() if isinstance(data, bytes) else data
    out = []
    for line in text.splitlines():
        parts = line.split(" ")
        if len(parts) == 3 and parts[0].isdigit() and parts[2].isdigit():
            out.append(Change(int(parts[0]), parts[1], int(parts[2])))
    return out
