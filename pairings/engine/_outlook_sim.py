"""The compact Swiss simulation behind the cut-line outlook (private to the engine).

Many simulated endings of one pairing group are played side by side as NumPy arrays
(one row per simulation), a chunk of rows at a time. What each simulated round keeps of
the Swiss pairing rules (``swiss.pair_swiss``):

* score brackets (P-SW-2): players are ordered by match points, highest first, in an
  order random within each bracket, and paired two by two down that order; an odd
  bracket's last player is so paired down into the next bracket (P-SW-3);
* the bye (P-SW-5): with an odd number of players still in, the lowest bracket holding a
  player without a bye, a random one of them (every player had one: the lowest bracket);
* age-modified groups (P-AGE-3): the division comes before the record in that order;
* rematches (P-SW-4): in a group of at most ``REMATCH_LIMIT`` players each table whose
  players already met (this phase) takes the first later player who is not a rematch,
  as the engine's greedy pass does; above that rematches are allowed.

Results are even: a draw with the draw rate seen so far, else each player wins half the
time. The random order within a bracket is the previous round's order sorted again by
a fresh random byte (a stable radix sort on 16-bit keys, the fast path of NumPy's
sort): ties between equal bytes keep the previous, itself random, order.

Layout, chosen for speed (``bench/outlook.py``): the arrays are in *table order* — the
column is the seat of the last round (seats 0 and 1 at table 1, …) and ``player`` says
who sits there — so a round's results are added to neighbouring columns, with no
scatter. A player's counters are packed in one 32-bit integer: match points, matches
against an opponent, the numerator and denominator of their own win measure and a bye
flag, so a result is one table look-up and one addition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

I16 = NDArray[np.int16]
I32 = NDArray[np.int32]
IP = NDArray[np.intp]
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


def start(g: Group, rows: int, rng: np.random.Generator) -> State:
    """``rows`` copies of the group, each seated in its own random order."""
    n = g.n
    offsets = (np.arange(rows, dtype=np.intp) * n)[:, None]
    shuffle = rng.integers(0, 1 << 16, (rows, n), dtype=np.uint16)
    local = np.argsort(shuffle, axis=1, kind="stable")
    met = None
    if n <= REMATCH_LIMIT:
        masks = np.zeros(n, dtype=np.uint64)
        for i in range(n):
            for j in g.past[i]:
                if j < n:
                    masks[i] |= np.uint64(1) << np.uint64(j)
        met = np.tile(masks, (rows, 1))
    return State(
        packed=g.packed[local],
        player=local + offsets,
        active=g.active[local],
        offsets=offsets,
        base=offsets,
        met=met,
    )


def key_bits(g: Group, top_points: int) -> tuple[int, int, int]:
    """Bit widths of the 16-bit sort key: (division, points, random). Raises ValueError
    when fewer than 6 random bits would be left."""
    divisions = int(g.division.max()) + 1 if g.age_modified and g.n else 1
    div_bits = (divisions - 1).bit_length()
    point_bits = (top_points + 2).bit_length()
    rand_bits = min(8, 16 - div_bits - point_bits)
    if rand_bits < 6 or top_points > MOST_POINTS:
        raise ValueError("too many match points to simulate")
    return div_bits, point_bits, rand_bits


def play_round(g: Group, r: Rules, s: State, rng: np.random.Generator, top_points: int) -> None:
    """Pair and play one Swiss round in every row of ``s`` (module notes)."""
    rows, n = s.packed.shape
    div_bits, point_bits, rand_bits = key_bits(g, top_points)
    # (points + 2) << rand_bits, then a random byte below: brackets, random within.
    key = ((s.packed >> (POINTS - rand_bits)) + (2 << rand_bits)).astype(np.uint16)
    key &= np.uint16(0xFFFF ^ ((1 << rand_bits) - 1))
    key |= random_bytes(rng, rows, n) >> np.uint8(8 - rand_bits)
    if div_bits:
        rank = (int(g.division.max()) - g.division).astype(np.uint16)
        key |= rank[s.player - s.base] << np.uint16(point_bits + rand_bits)
    everyone = bool(s.active.all())
    if not everyone:
        key[~s.active] = 0
    seat = np.argsort(~key, axis=1, kind="stable") + s.offsets
    s.packed = np.take(s.packed, seat)
    s.player = np.take(s.player, seat)
    if not everyone:
        s.active = np.take(s.active, seat)
    live = s.active.sum(axis=1) if not everyone else np.full(rows, n)
    odd = np.nonzero(live % 2)[0]
    if odd.size:
        _bye(s, odd, live)
    tables = live // 2
    if s.met is not None:
        _avoid_rematches(s, tables)
    _results(r, s, rng, tables, odd, live)


def _bye(s: State, odd: IP, live: IP) -> None:
    """P-SW-5: the bye goes to the last seat still in (``live - 1``), which is a random
    player of the lowest bracket. Where that player already had a bye, the last player
    without one — a random one of the lowest bracket holding such a player — moves to
    that seat (the seats between move up one); when everyone had a bye, the lowest
    bracket's player keeps it."""
    last = live[odd] - 1
    again = np.nonzero(s.packed[odd, last] & HAD_BYE)[0]
    for row, end in zip(odd[again], last[again], strict=True):
        fresh = np.nonzero((s.packed[row, : end + 1] & HAD_BYE) == 0)[0]
        if fresh.size:
            at = int(fresh[-1])
            for arr in (s.packed, s.player, s.active):
                arr[row, at : end + 1] = np.roll(arr[row, at : end + 1], -1)


def _meets(met: NDArray[np.uint64], rows: IP, x: IP, y: IP) -> Bool:
    """Whether player ``x`` already met player ``y`` (local indexes) in each row."""
    one = np.uint64(1)
    mask = np.take_along_axis(met[rows], x, axis=1) if x.ndim == 2 else met[rows, x]
    return ((mask >> y.astype(np.uint64)) & one).astype(bool)


def _avoid_rematches(s: State, tables: NDArray[np.int64]) -> None:
    """P-SW-4 for small groups, table by table from the top: when a table's two players
    (a, b) met, b changes seats with the player x of another table (x's opponent y then
    meets b) such that neither a–x nor y–b is a rematch, choosing the change that moves
    the fewest match points between brackets (none when x has b's points: the engine's
    fewest pair-downs, P-SW-7), then the nearest seat, later ones first. A rematch stays
    only when no such change exists (the engine then flags one too)."""
    assert s.met is not None
    rows, n = s.player.shape
    columns = np.arange(n)
    facing = np.minimum(columns ^ 1, n - 1)  # the last seat of an odd row faces nobody
    points = s.packed >> POINTS
    every = np.arange(rows)
    clash = _clashes(s, every, tables)
    for k in range(n // 2):
        if not clash[:, k].any():
            continue
        at = np.nonzero(clash[:, k])[0]
        local = s.player - s.base
        a, b = local[:, 2 * k], local[:, 2 * k + 1]
        seated, pts = local[at], points[at]
        a_at, b_at = a[at, None], b[at, None]
        partner = seated[:, facing]
        allowed = (columns < 2 * tables[at, None]) & (columns // 2 != k)
        allowed &= ~_meets(s.met, at, np.broadcast_to(a_at, seated.shape), seated)
        allowed &= ~_meets(s.met, at, partner, np.broadcast_to(b_at, seated.shape))
        p_a, p_b = pts[:, 2 * k, None], pts[:, 2 * k + 1, None]
        moved = np.abs(p_a - pts) + np.abs(pts[:, facing] - p_b)
        distance = np.abs(columns - (2 * k + 1)) * 2 + (columns < 2 * k)
        score = np.where(allowed, moved * (4 * n) + distance, np.iinfo(np.int64).max)
        found = allowed.any(axis=1)
        at, swap = at[found], score[found].argmin(axis=1)
        if not at.size:
            continue
        for arr in (s.player, s.packed, s.active):
            arr[at, 2 * k + 1], arr[at, swap] = arr[at, swap], arr[at, 2 * k + 1]
        points = s.packed >> POINTS
        clash[at] = _clashes(s, at, tables)


def _clashes(s: State, rows: IP, tables: NDArray[np.int64]) -> Bool:
    """For ``rows``, which tables seat two players who already met (rows × tables)."""
    assert s.met is not None
    local = s.player[rows] - s.base[rows]
    width = local.shape[1] // 2
    a, b = local[:, 0 : 2 * width : 2], local[:, 1 : 2 * width : 2]
    met = _meets(s.met, rows, a, b) & (np.arange(width) < tables[rows, None])
    return np.asarray(met, dtype=bool)


def _results(
    r: Rules, s: State, rng: np.random.Generator, tables: NDArray[np.int64], odd: IP, live: IP
) -> None:
    """Play the tables (``Rules.first`` / ``second``: what a random 16-bit number gives
    each seat); the bye sits after them."""
    rows, n = s.packed.shape
    width = int(tables.max(initial=0))
    u = random_bytes(rng, rows, 2 * width).view(np.uint16)
    step_a, step_b = r.first_seat[u], r.second_seat[u]
    if not (tables == width).all():
        empty = np.arange(width) >= tables[:, None]
        step_a[empty] = 0
        step_b[empty] = 0
    s.packed[:, 0 : 2 * width : 2] += step_a
    s.packed[:, 1 : 2 * width : 2] += step_b
    if odd.size:
        last = live[odd] - 1
        s.packed[odd, last] += r.step[BYE]
        s.packed[odd, last] |= HAD_BYE
    s.rounds.append(Played(s.player, tables, u, np.asarray(live, dtype=np.int64)))
    if s.met is not None:
        _remember(s, width, tables)
    if s.first is None:
        s.first = (s.packed, s.player)


def _remember(s: State, width: int, tables: NDArray[np.int64]) -> None:
    """Add this round's meetings to the small groups' masks (P-SW-4)."""
    assert s.met is not None
    local = s.player - s.base
    a, b = local[:, 0 : 2 * width : 2], local[:, 1 : 2 * width : 2]
    played = np.arange(width) < tables[:, None]
    one = np.uint64(1)
    rows = np.arange(s.player.shape[0])[:, None]
    for x, y in ((a, b), (b, a)):
        bits = np.where(played, one << y.astype(np.uint64), np.uint64(0))
        s.met[rows, x] |= bits  # each player sits once a round: no index repeats


def in_player_order(s: State, values: NDArray[Scalar], n: int) -> NDArray[Scalar]:
    """``values`` (in table order) rearranged by player, rows × ``n``; players left out
    (Day 2) get 0."""
    out: NDArray[Scalar] = np.zeros((values.shape[0], n), dtype=values.dtype)
    out.ravel()[s.player.ravel()] = values.ravel()
    return out


def day2(s: State, qualified: Bool) -> None:
    """Day 2 (P-D2-1, R-3): only the ``qualified`` (by player) play on, match points and
    byes carry over, the tiebreakers start again over the Day 2 rounds; the arrays keep
    only as many columns as the most players any row sent to Day 2."""
    rows = s.packed.shape[0]
    going = np.take(qualified, s.player)
    width = max(int(going.sum(axis=1).max(initial=0)), 1)
    keep = np.argsort(~going, axis=1, kind="stable")[:, :width] + s.offsets
    s.packed = np.take(s.packed, keep) & np.int32((-1 << POINTS) | HAD_BYE)
    s.player = np.take(s.player, keep)
    s.active = np.take(going, keep)
    s.offsets = (np.arange(rows, dtype=np.intp) * width)[:, None]
    s.rounds = []
    s.use_past = False
    if s.met is not None:
        s.met = np.zeros_like(s.met)


class Ending:
    """The simulated endings of a chunk, by player, and their tiebreakers on demand.

    Tiebreakers are computed only for the entries (row, player) a cut needs: the players
    level on match points at the cut line, and for the second tiebreaker only those
    still level on the first. Entries are parallel index arrays ``rows``, ``players``;
    ``players`` may hold ``n``, "no opponent", whose values count for nothing.
    """

    def __init__(self, g: Group, r: Rules, s: State) -> None:
        self.g, self.r, self.s = g, r, s
        self.packed = in_player_order(s, s.packed, g.n)
        self.active = in_player_order(s, s.active, g.n)
        self.points: I32 = self.packed >> POINTS
        self._seat: list[NDArray[np.int16] | None] = [None] * len(s.rounds)

    def _seats(self, k: int) -> NDArray[np.int16]:
        """Round ``k``'s seat of every player (by player), computed on first use."""
        if self._seat[k] is None:
            player = self.s.rounds[k].player
            rows, width = player.shape
            seat = np.full((rows, self.g.n), width, dtype=np.int16)
            seat.ravel()[player.ravel()] = np.tile(np.arange(width, dtype=np.int16), rows)
            self._seat[k] = seat
        found = self._seat[k]
        assert found is not None
        return found

    def _met(self, rows: IP, players: IP) -> list[IP]:
        """The opponents of each entry (real players), one array per match slot: the
        past ones, then each simulated round's (``n``: none, a bye or no table)."""
        n = self.g.n
        slots: list[IP] = []
        if self.s.use_past:
            slots += list(self.g.past[players].T)
        for k, played in enumerate(self.s.rounds):
            player, tables = played.player, played.tables
            seat = self._seats(k)[rows, players].astype(np.intp)
            facing = seat ^ 1
            seated = facing < 2 * tables[rows]
            other = player[rows, np.where(seated, facing, 0)] - rows * n
            slots.append(np.where(seated, other, n))
        return slots

    def tables(self, row: int) -> list[tuple[list[tuple[int, int, int]], int | None]]:
        """The simulated rounds of one ending: per round, its tables as (first player,
        second player, first player's result code) and the player with the bye (or
        None); players by index."""
        n, out = self.g.n, []
        for played in self.s.rounds:
            seats = (played.player[row] - row * n).tolist()
            codes = self.r.codes[played.draws[row]].tolist()
            count, live = int(played.tables[row]), int(played.live[row])
            tables = [(seats[2 * t], seats[2 * t + 1], codes[t]) for t in range(count)]
            out.append((tables, seats[live - 1] if live % 2 else None))
        return out

    def _matches(self, rows: IP, players: IP) -> I32:
        return (self.packed[rows, players] >> MATCHES) & BYTE

    def measure(self, rows: IP, players: IP) -> F64:
        """Each entry's own win measure (Pokémon win %, MTG match-win %) with the floor,
        and the cap for players no longer active; 0 for "no opponent"."""
        n = self.g.n
        real = players < n
        at = np.where(real, players, 0)
        packed = self.packed[rows, at]
        counted = ((packed >> COUNTED) & BYTE).astype(np.float64)
        score = (packed & SCORE_MASK).astype(np.float64)
        value = np.maximum(
            np.divide(score, counted, out=np.full(at.shape, self.r.floor), where=counted > 0),
            self.r.floor,
        )
        value = np.where(self.active[rows, at], value, np.minimum(value, self.r.cap))
        return np.where(real, value, 0.0)

    def first(self, rows: IP, players: IP) -> F64:
        """The first tiebreaker (OWP / OMW): the mean own measure of the opponents met;
        a player no longer active keeps their frozen one (R-2)."""
        n = self.g.n
        real = players < n
        at = np.where(real, players, 0)
        total = np.zeros(at.shape, dtype=np.float64)
        for opp in self._met(rows, at):
            total += self.measure(rows, opp)
        count = self._matches(rows, at)
        value = np.divide(total, count, out=np.full(at.shape, self.r.empty1), where=count > 0)
        if self.s.use_past:
            frozen = self.g.frozen1[at]
            value = np.where(np.isnan(frozen), value, frozen)
        return np.where(real, value, 0.0)

    def second(self, rows: IP, players: IP) -> F64:
        """The second tiebreaker (OOWP): the mean first tiebreaker of the opponents."""
        slots = self._met(rows, players)
        if not slots:
            return np.zeros(players.shape, dtype=np.float64)
        # Every opponent of every entry in one call.
        values = self.first(np.tile(rows, len(slots)), np.concatenate(slots))
        total = values.reshape(len(slots), -1).sum(axis=0)
        count = self._matches(rows, players)
        mean: F64 = np.divide(total, count, out=np.zeros(players.shape), where=count > 0)
        return mean


def _line(rank: I32, places: int) -> I32:
    """Each row's ``places``-th highest value of ``rank`` (small integers from -1 up;
    -1 where fewer are eligible): counted per value, which beats a partial sort."""
    rows = rank.shape[0]
    width = int(rank.max(initial=0)) + 2
    flat = (rank + 1 + (np.arange(rows) * width)[:, None]).ravel()
    counts = np.bincount(flat, minlength=rows * width).reshape(rows, width)
    from_top = np.cumsum(counts[:, ::-1], axis=1)
    reached = (from_top >= places).argmax(axis=1)  # 0 when a row never reaches: see below
    line = (width - 1 - reached) - 1
    line[from_top[:, -1] < places] = -1
    result: I32 = line.astype(np.int32)
    return result


def _rank(rows: IP, keys: list[F64], rng: np.random.Generator) -> tuple[IP, IP]:
    """The order of the entries (by row, then ``keys`` higher first, then at random)
    and each sorted entry's position within its row."""
    order = np.lexsort([rng.random(rows.size), *[-k for k in reversed(keys)], rows])
    row_sorted = rows[order]
    return order, np.arange(order.size) - np.searchsorted(row_sorted, row_sorted, side="left")


#: Orders the players ``entries`` of one row (a simulated ending) as the ruleset's own
#: standings order them; see :func:`cut`.
Finish = Callable[[int, list[int]], list[int]]


def cut(
    ending: Ending,
    late: Bool,
    eligible: Bool,
    places: int,
    rng: np.random.Generator,
    finish: Finish | None = None,
) -> Bool:
    """Who of ``eligible`` (rows × players, by player) takes the ``places`` places in
    each row: match points, then on time before late (P-TB-1), then the simulated
    tiebreakers (``Ending.first``, ``Ending.second``, higher first, equal to 9 decimals
    counting as level), then at random (I-6). The second tiebreaker is computed only for
    the players level on the first at the row's last place. ``finish``: where the last
    place is still level after them, the row's level players are ordered by it instead
    (the ruleset's own standings: head to head, last opponent, P-TB-4, P-TB-6)."""
    points = ending.points
    rows, n = points.shape
    if places <= 0:
        return np.zeros((rows, n), dtype=bool)
    if places >= n:
        return eligible.copy()
    rank = np.where(eligible, points * 2 + ~late, -1)
    line = _line(rank, places)
    above = rank > line[:, None]
    level = (rank == line[:, None]) & eligible
    slots = places - above.sum(axis=1)
    crowded = level.sum(axis=1) > slots
    made = above | (level & ~crowded[:, None])
    at_row, at_player = np.nonzero(level & crowded[:, None])
    if not at_row.size:
        return np.asarray(made, dtype=bool)
    keys: list[F64] = []
    if ending.r.ranked:
        keys.append(np.round(ending.first(at_row, at_player), 9))
    order, position = _rank(at_row, keys, rng)
    if keys and ending.r.second:
        needs = _level_at_the_line(rows, at_row, order, position, slots, keys)
        if needs.any():
            second = np.zeros(at_row.size, dtype=np.float64)
            second[needs] = np.round(ending.second(at_row[needs], at_player[needs]), 9)
            keys.append(second)
            order, position = _rank(at_row, keys, rng)
    chosen = position < slots[at_row[order]]
    made[at_row[order][chosen], at_player[order][chosen]] = True
    if finish is not None:
        needs = _level_at_the_line(rows, at_row, order, position, slots, keys)
        for row in np.unique(at_row[needs]).tolist():
            entries = at_player[at_row == row].tolist()
            made[row, entries] = False
            made[row, finish(row, entries)[: slots[row]]] = True
    return np.asarray(made, dtype=bool)


def _level_at_the_line(
    rows: int, at_row: IP, order: IP, position: IP, slots: IP, keys: list[F64]
) -> Bool:
    """The entries whose keys equal those of their row's last place, in the rows where
    the first player left out has the same keys (all of a row's entries when there are
    no keys)."""
    row_sorted = at_row[order]
    last_in = position == slots[row_sorted] - 1
    first_out = position == slots[row_sorted]
    level = np.ones(rows, dtype=bool)
    same = np.ones(at_row.size, dtype=bool)
    for key in keys:
        value = key[order]
        edge = np.full(rows, np.nan)
        edge[row_sorted[last_in]] = value[last_in]
        out = np.full(rows, np.inf)
        out[row_sorted[first_out]] = value[first_out]
        level &= edge == out
        same &= key == edge[at_row]
    return level[at_row] & same
