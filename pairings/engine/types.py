"""Input and output shapes of the pairing engines.

Everything here is a frozen dataclass of plain values: the adapters build these from the
database, the engines never see a model.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """One player eligible to be paired in the next Swiss round.

    id: the registration id as a string.
    match_points: points so far in this phase (P-SW-2 brackets are built from them).
    opponents: ids of everyone this player already met in this phase (P-SW-4).
    had_bye: True once the player received a bye in this event (P-SW-5).
    division: ``junior`` / ``senior`` / ``masters`` / ``open``; used by age-modified
        pairing (P-AGE-3, I-4), ignored otherwise.
    """

    id: str
    match_points: int = 0
    opponents: frozenset[str] = field(default_factory=frozenset)
    had_bye: bool = False
    division: str = "open"


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round.

    table: 1-based table number in bracket order (P-SW-8); ``None`` for the bye.
    players: two ids for a match (higher seed / higher bracket first), one for a bye.
    why: a short human explanation ("same record", "paired down from 6 points",
        "bye: lowest bracket, random", "rematch: no alternative").
    pair_down: True when the two players come from different brackets.
    rematch: True when the players already met (only when unavoidable, P-SW-4).
    """

    table: int | None
    players: tuple[str, ...]
    why: str = ""
    pair_down: bool = False
    rematch: bool = False

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1


#: Setters of the slots of :class:`Pairing`, in field order. A frozen dataclass's
#: ``__init__`` stores each field through ``object.__setattr__``; building a round of
#: 4,096 players, ``swiss`` makes its 2,048 tables with ``object.__new__(Pairing)`` and
#: these setters in about half the time. The result is an ordinary ``Pairing``.
PAIRING_SLOTS = tuple(
    Pairing.__dict__[name].__set__ for name in ("table", "players", "why", "pair_down", "rematch")
)
if len(PAIRING_SLOTS) != len(fields(Pairing)):  # a new field must be set there too
    raise TypeError("PAIRING_SLOTS must set every field of Pairing")


@dataclass(frozen=True, slots=True)
class SwissRound:
    """The engine's answer: the pairings plus counters used by tests and benchmarks.

    notes: sentences for the organiser about anything unusual in this round (an
        unavoidable rematch, P-SW-4; a bye that had to move up or go to a player for the
        second time, P-SW-5). Empty for an ordinary round.
    proven_optimal: False only when a large event needed a local repair whose result the
        engine could not prove to be the best possible (see ``pairings/engine/_swiss_solve``);
        the pairing is valid either way.
    """

    pairings: tuple[Pairing, ...]
    pair_downs: int = 0
    rematches: int = 0
    notes: tuple[str, ...] = ()
    proven_optimal: bool = True

    @property
    def bye(self) -> str | None:
        return next((p.players[0] for p in self.pairings if p.is_bye), None)
