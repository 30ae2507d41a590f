"""The simulated rounds of the pod outlook (private to ``pods``): many endings paired
side by side as NumPy arrays, one row per ending.

Each round, every row orders its live players by match points, highest first, in a
uniformly random order within each score bracket (one sort of 64-bit keys: points,
fresh random bits, position; two equal random parts, ordered by position, have a chance
below 10⁻⁸ in a row of 1,000 players). Then the pod engine's own first two steps run on
all rows at once:

* its fill (``pairings.engine._pods_fill.fill_top_to_bottom``, in ``_pod_fill``), table
  by table: a table
  takes, in that order, the first unseated players who never shared a pod with anyone
  seated there (MP-PAIR-1) and, at a smaller pod, who never sat in one (MP-POD-2); seats
  nobody fits stay open;
* its swaps (``swap_repair``, in ``_pod_swaps``): each player left over, in order, takes
  an open seat they fit, or changes places with a player of the nearest table who fits
  the open seat while they fit that player's table.

A row whose work goes past fixed bounds (``_pod_fill.WINDOW`` candidates a table,
``PENDING`` players skipped, ``_pod_swaps.OPEN`` open tables, ``_pod_swaps.NEAR`` nearest
tables)
is marked, and ``pods`` pairs that row's round with the engine's own functions; so is a
row where the swaps leave a cost (``repair``: the engine's repair follows). Every other
row holds exactly the pods ``pair_pods`` makes for that order, since the engine returns
the swaps' result as it is when no cost is left (``tests/engine/test_outlook_pods.py``
checks this against ``pair_pods``).

Who met whom: the real history as an m × m table (``Field.met``), each simulated round
as a *lane* of 8 bits (16 for 255 tables or more) in 64-bit words per player, holding
the player's table number + 1. Two players met in a simulated round exactly when one
lane holds the same number, not zero, in both: one test of a few bit operations for
all simulated rounds at once. The checks run in standings order (the words rearranged
once a round), so a table's candidates sit side by side.

This module holds the arrays (``Field``, ``Rows``, ``Ordered``, ``Seating``), the order
of each round (``reorder``) and its results (``play``).

Results are even: a pod is drawn at the draw rate, else each seat wins alike (one
random number a pod).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ._arrays import I32, IP, U64, Bool, Scalar

#: Players a row's fill may have skipped and not seated yet.
PENDING = 24


@dataclass(frozen=True)
class Field:
    """The live players of a pod Swiss, numbered 0 … m − 1 (built once by ``pods``).

    met: m × m, True where two players already shared a pod (either's history counts,
    as ``Problem.meets``). lane: bits a simulated round's lane. points: match points so
    far. fresh: never sat in a smaller pod. sizes: seats per table, table 1 first
    (``pod_sizes``). standard: the pod size.
    """

    met: Bool
    lane: int
    points: I32
    fresh: Bool
    sizes: tuple[int, ...]
    standard: int

    @property
    def per(self) -> int:
        """Lanes a word."""
        return 64 // self.lane

    def bits(self, ones: int) -> np.uint64:
        """A word with ``ones`` (a lane's value) in every lane."""
        return np.uint64(sum(ones << (self.lane * i) for i in range(self.per)))


def lane_bits(tables: int) -> int:
    """Bits a lane needs for table numbers 1 … ``tables``, with 0 (none) and the lane's
    highest value kept apart."""
    return 8 if tables < 255 else 16


@dataclass
class Rows:
    """One chunk of simulated endings, kept in the standings order of the round last
    paired, position by row (m × rows, so that work on every row at once runs along the
    long last axis): who stands there (``player``), their points, whether they are
    fresh (never in a smaller pod yet), and their lanes (``words`` × m × rows), one a
    simulated round."""

    player: IP
    points: I32
    fresh: Bool
    words: U64

    def lane(self, f: Field, played: int) -> tuple[int, int]:
        """The word and the bit shift of simulated round ``played``'s lane."""
        return played // f.per, played % f.per * f.lane

    def by_player(self, values: NDArray[Scalar]) -> NDArray[Scalar]:
        """``values`` (m × rows, in this order) as rows × m by player number."""
        out: NDArray[Scalar] = np.empty_like(values.T)
        np.put_along_axis(out, self.player.T, values.T, axis=1)
        return out


def start(f: Field, rows: int, rounds: int) -> Rows:
    """``rows`` copies of the field before the first simulated round."""
    m = f.points.shape[0]
    return Rows(
        player=np.repeat(np.arange(m)[:, None], rows, axis=1),
        points=np.repeat(f.points[:, None], rows, axis=1),
        fresh=np.repeat(f.fresh[:, None], rows, axis=1),
        words=np.zeros((-(-rounds // f.per), m, rows), dtype=np.uint64),
    )


def reorder(s: Rows, rng: np.random.Generator) -> None:
    """Put every row in its next standings order: by match points, highest first,
    uniformly at random within a bracket (MP-PAIR-1). One sort of 64-bit keys: the
    points, random bits, and the position (so the sort gives the order itself)."""
    m, rows = s.points.shape
    top, low = int(s.points.max()), int(s.points.min())
    index = max(1, (m - 1).bit_length())
    bits = 64 - (top - low).bit_length() - index  # random bits between points and position
    key = rng.bit_generator.random_raw(m * rows).reshape(m, rows)
    key >>= np.uint64(64 - bits)
    key |= (top - s.points).astype(np.uint64) << np.uint64(bits)
    key <<= np.uint64(index)
    key |= np.arange(m, dtype=np.uint64)[:, None]
    key.sort(axis=0)
    cells = (key & np.uint64((1 << index) - 1)).astype(np.intp) * rows + np.arange(rows)
    s.player, s.points, s.fresh = (np.take(x, cells) for x in (s.player, s.points, s.fresh))
    s.words = np.stack([np.take(w, cells) for w in s.words]) if len(s.words) else s.words


@dataclass
class Ordered:
    """One round in standings order, position by row (m × rows each, so that work on
    every row at once runs along the long last axis): ``player`` (the order), ``fresh``,
    and the simulated rounds' lanes, ``mine`` as they are and ``theirs`` with every
    empty lane filled with ones, so that ``theirs`` of one player and ``mine`` of
    another share a lane exactly when both hold the same number there. ``met``: the
    real history, flat (``met[a * m + b]``)."""

    player: IP
    fresh: Bool
    mine: list[U64]
    theirs: list[U64]
    met: Bool
    ones: np.uint64
    high: np.uint64

    def meets(self, a: Seats, b: Seats) -> Bool:
        """Whether players ``a`` and ``b`` (arrays of one shape, or broadcast) already
        shared a pod; ``a`` with its ``theirs`` words, ``b`` with its ``mine``."""
        m = self.player.shape[0]
        found: Bool = np.take(self.met, a[0] * m + b[0])
        for x, y in zip(a[1], b[1], strict=True):
            z = x ^ y
            found |= ((z - self.ones) & ~z & self.high) != 0  # a lane of z is zero
        return found

    def at(self, pos: IP, rows: IP) -> Seats:
        """The players at standings positions ``pos`` of ``rows`` (broadcast), with their
        ``theirs`` words."""
        flat = pos * self.player.shape[1] + rows
        return np.take(self.player, flat), [np.take(w, flat) for w in self.theirs]

    def mine_at(self, pos: IP, rows: IP) -> Seats:
        """As :meth:`at`, with the ``mine`` words."""
        flat = pos * self.player.shape[1] + rows
        return np.take(self.player, flat), [np.take(w, flat) for w in self.mine]


#: Players (their numbers) and their lane words, one array of one shape each.
Seats = tuple[IP, list[U64]]


def ordered(f: Field, s: Rows, played: int) -> Ordered:
    """Every row's round in its standings order (``reorder``)."""
    words = list(s.words[: -(-played // f.per)])
    low, high = f.bits((1 << (f.lane - 1)) - 1), f.bits(1 << (f.lane - 1))
    full = np.uint64((1 << f.lane) - 1)
    theirs = []
    for w in words:
        empty = ~(((w & low) + low) | w) & high  # the top bit of every empty lane
        theirs.append(w | (empty >> np.uint64(f.lane - 1)) * full)
    return Ordered(s.player, s.fresh, words, theirs, f.met.ravel(), f.bits(1), high)


@dataclass
class Seating:
    """One round's seats in every row (tables × seats × rows, −1 for a seat not taken):
    ``pos`` the standings positions, ``seated`` per table (tables × rows). The fill's
    state: positions it skipped and has not seated (``pend``, ``PENDING`` × rows, in
    order, ``count`` of them) and the next position it has not looked at (``nxt``).
    ``ok``: the row is still the engine's own result; ``repair``: the engine's swaps
    leave a cost."""

    pos: IP
    seated: IP
    pend: IP
    count: IP
    nxt: IP
    ok: Bool
    repair: Bool


def play(
    f: Field,
    s: Rows,
    st: Seating,
    played: int,
    rng: np.random.Generator,
    *,
    draw_rate: float,
    win: int,
    tie: int,
) -> None:
    """Play one round of complete tables (``st.pos``, every seat of a table's size
    taken): add the points, note each player's table in the round's lane, and mark
    whoever sat in a smaller pod."""
    count, width, rows = st.pos.shape
    sizes = np.array(f.sizes)[:, None]
    cells = st.pos * rows + np.arange(rows)
    sat = st.pos >= 0
    u = rng.random((count, rows))
    drawn = u < draw_rate
    rest = 1.0 - draw_rate if draw_rate < 1.0 else 1.0  # u above the draw rate: a seat
    seat = np.clip(((u - draw_rate) / rest * sizes).astype(np.intp), 0, sizes - 1)
    points = s.points.ravel()
    points[np.take_along_axis(cells, seat[:, None], axis=1)[:, 0][~drawn]] += win
    points[cells[drawn[:, None] & sat]] += tie
    word, shift = s.lane(f, played)
    name = (np.arange(1, count + 1, dtype=np.uint64) << np.uint64(shift))[:, None, None]
    s.words[word].ravel()[cells[sat]] |= np.broadcast_to(name, cells.shape)[sat]
    smaller = sizes[:, 0] < f.standard
    if smaller.any():
        s.fresh.ravel()[cells[smaller][sat[smaller]]] = False
