"""The simulated Swiss rounds of the cut-line outlook (private to the engine).

Many simulated endings of one pairing group are played side by side as NumPy arrays
(one row per simulation), a chunk of rows at a time. What each simulated round keeps of
the Swiss pairing rules (``swiss.pair_swiss``):

* score brackets (P-SW-2): players are ordered by match points, highest first, in an
  order random within each bracket, and paired two by two down that order; an odd
  bracket's last player is so paired down into the next bracket (P-SW-3);
* the bye (P-SW-5): with an odd number of players still in, the lowest bracket holding a
  player without a bye, a random one of them (every player had one: the lowest bracket);
* age-modified groups (P-AGE-3): the division comes before the record in that order;
* rematches (P-SW-4): in a group of at most ``REMATCH_LIMIT`` players a table whose
  players already met (this phase) changes one seat with another table so that neither
  is a rematch, moving the fewest match points between brackets (P-SW-7); above that
  size rematches are allowed (the players' points come out the same whoever of their
  bracket they meet; only their tiebreakers differ a little).

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

import numpy as np
from numpy.typing import NDArray

from ._arrays import (
    BYE,
    HAD_BYE,
    IP,
    MOST_POINTS,
    POINTS,
    REMATCH_LIMIT,
    Bool,
    Group,
    Played,
    Rules,
    State,
    random_bytes,
)


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
