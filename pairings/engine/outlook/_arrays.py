"""The arrays of the cut-line outlook's simulation (private): shapes, the packed
counters, one chunk's state, and the random bytes the rounds draw."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

I16 = NDArray[np.int16]


I32 = NDArray[np.int32]


IP = NDArray[np.intp]


U64 = NDArray[np.uint64]


F64 = NDArray[np.float64]


Bool = NDArray[np.bool_]


Scalar = TypeVar("Scalar", bound=np.generic)


# Result codes of one player in one round.
NONE, LOSS, TIE, WIN, BYE = 0, 1, 2, 3, 4


# The packed counters: points (8 bits) | matches (8) | counted (8) | bye flag | score (7).
POINTS, MATCHES, COUNTED, SCORE = 24, 16, 8, 0


HAD_BYE = 1 << 7


BYTE, SCORE_MASK = 0xFF, 0x7F


MOST_POINTS = 127


REMATCH_LIMIT = 63  # the players' meetings fit one 64-bit mask per player


#: Rows per chunk times players: about half a million cells keeps a chunk's arrays in
#: the processor's cache (``bench/outlook.py``).
CHUNK_CELLS = 1 << 19


@dataclass(frozen=True)
class Group:
    """The arrays one simulation starts from (built once by ``outlook``).

    packed: per player, the counters (module notes). active: still playing. late:
    tardy (P-TB-1). division: index of the player's division. past: opponents met in
    the tiebreaker phase, one column per match, padded with ``n`` (no opponent).
    frozen1: the first tiebreaker of players no longer active, as the standings froze
    it (R-2), NaN for the others.
    """

    packed: I32
    active: Bool
    late: Bool
    division: I16
    past: IP
    frozen1: F64
    age_modified: bool

    @property
    def n(self) -> int:
        return int(self.packed.shape[0])


@dataclass(frozen=True)
class Rules:
    """What a result code (NONE, LOSS, TIE, WIN, BYE) adds to the packed counters
    (``step``), the win measure's floor, its cap for a player no longer active (R-2),
    the first tiebreaker of a player without opponents (``empty1``), whether a second
    tiebreaker (the opponents' mean of the first, OOWP) follows, the draw rate, and
    whether tiebreakers are simulated at all (``ranked``); ``first_seat`` and
    ``second_seat`` (derived) turn a random 16-bit number into each seat's step, and
    ``codes`` into the first seat's result code."""

    step: I32
    floor: float
    cap: float
    empty1: float
    second: bool
    draw: float
    ranked: bool = True
    first_seat: I32 = field(init=False)
    second_seat: I32 = field(init=False)
    codes: NDArray[np.int8] = field(init=False)

    def __post_init__(self) -> None:
        # A table's result from one random 16-bit number u: the first seat wins below
        # ``win``, a draw up to ``win + draw``, else the second seat wins; as steps.
        u = (np.arange(1 << 16) + 0.5) / (1 << 16)
        win = (1.0 - self.draw) / 2.0
        code = np.where(u < win, WIN, np.where(u < win + self.draw, TIE, LOSS))
        object.__setattr__(self, "first_seat", self.step[code])
        object.__setattr__(self, "second_seat", self.step[4 - code])
        object.__setattr__(self, "codes", code.astype(np.int8))


@dataclass(frozen=True)
class Played:
    """One simulated round: who sat where (``player``, flat), the tables played in each
    row, the random numbers that decided them (``Rules.first_seat``) and the players
    still in (the bye, if any, sat at ``live - 1``)."""

    player: IP
    tables: NDArray[np.int64]
    draws: NDArray[np.uint16]
    live: NDArray[np.int64]


@dataclass
class State:
    """One chunk of simulations, ``rows`` × ``n``, in table order (module notes).

    player: who sits in each column, as a flat index ``row × n + player`` (``base``:
    ``row × n``). offsets: ``row × width`` of these arrays (``n``, or fewer once Day 2
    leaves out the players who did not make it). rounds: each simulated round of the
    tiebreaker phase (:class:`Played`). first: the packed counters after the first
    simulated round with their ``player`` (the outlook's "next round").
    """

    packed: I32
    player: IP
    active: Bool
    offsets: IP
    base: IP
    met: NDArray[np.uint64] | None
    rounds: list[Played] = field(default_factory=list)
    first: tuple[I32, IP] | None = None
    use_past: bool = True

    @property
    def points(self) -> I32:
        return self.packed >> POINTS


def random_bytes(rng: np.random.Generator, rows: int, n: int) -> NDArray[np.uint8]:
    """``rows × n`` random bytes straight from the generator's bit stream (the cheapest
    draw NumPy offers; reproducible from the seed like any other)."""
    words = -(-rows * n // 8)
    raw = np.asarray(rng.bit_generator.random_raw(words), dtype=np.uint64)
    return raw.view(np.uint8)[: rows * n].reshape(rows, n)


def in_player_order(s: State, values: NDArray[Scalar], n: int) -> NDArray[Scalar]:
    """``values`` (in table order) rearranged by player, rows × ``n``; players left out
    (Day 2) get 0."""
    out: NDArray[Scalar] = np.zeros((values.shape[0], n), dtype=values.dtype)
    out.ravel()[s.player.ravel()] = values.ravel()
    return out
