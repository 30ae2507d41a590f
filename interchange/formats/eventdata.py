"""A whole event as plain data: what every importer produces and the exporter reads.

Pure Python (no Django), so file formats can be parsed and validated without a database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PlayerData:
    id: str
    name: str
    division: str = "open"
    birth_year: int | None = None
    player_id: str = ""
    late: bool = False
    dropped_after_round: int | None = None
    disqualified: bool = False
    flight: int | None = None  # P-FL: the flight of a flighted division (TOM subgroup)
    where: str = field(default="", compare=False)  # the file's name for it, for messages


@dataclass(frozen=True)
class DivisionData:
    code: str
    group: str  # the key of the Swiss pairing group it is paired in
    swiss_rounds: int
    top_cut: int = 0
    flights: int = 0  # P-FL: 2, 4, 8 or 16 flights (TOM subgroups), 0 = none
    where: str = field(default="", compare=False)  # the file's name for it, for messages
    day2_rounds: int = 0  # P-D2-1: Day 2 Swiss rounds (``EventData.day2_rounds`` is the largest)


@dataclass(frozen=True)
class MatchData:
    """players in seat order; outcome an ``Outcome`` value; winner a player id or None."""

    table: int | None
    players: tuple[str, ...]
    outcome: str
    winner: str | None = None
    games: list[int] | None = None
    conceded: tuple[str, ...] = ()  # pod seats with no share of a draw (MP-PTS-1)
    why: str = ""  # the pairing's reason as stored, for people only
    where: str = field(default="", compare=False)  # the file's name for it, for messages
    third_place: bool = False  # the 3rd/4th place playoff of a bracket (P-TC-4, P-SE-6)


@dataclass(frozen=True)
class RoundData:
    number: int
    phase: str
    matches: tuple[MatchData, ...]
    where: str = field(default="", compare=False)  # the file's name for it, for messages
    seeds: dict[str, int] = field(default_factory=dict)  # pairing group → stored seed (I-1)


@dataclass
class EventData:
    """A whole event, normalised from a file, ready to be created.

    ``fields`` names where the file holds ``name``, ``date`` and ``location`` (the event
    JSON key by default: ``"name": "<data><name>"`` for a TOM file), so
    ``formats.checks`` can name them in its messages. ``sanction_id`` and
    ``organizer_pop_id``: the Play! Pokémon IDs (``tournaments.identities``), "" unknown."""

    name: str
    ruleset: str
    players: list[PlayerData]
    divisions: list[DivisionData]
    rounds: list[RoundData]
    options: dict[str, Any] = field(default_factory=dict)
    source: dict[str, Any] = field(default_factory=dict)
    date: Any = None
    location: str = ""
    third_place_playoff: bool = False
    day2_rounds: int = 0  # P-D2-1: Swiss rounds on Day 2 (phase ``swiss-day2``), 0 = one day
    structure: str = ""  # S-1 ``swiss``, ``swiss-top-cut``, ``single-elimination``; "" = inferred
    sanction_id: str = ""
    organizer_pop_id: str = ""
    fields: dict[str, str] = field(default_factory=dict)
