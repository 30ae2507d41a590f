"""The pod engine's fill (``pairings.engine._pods_fill.fill_top_to_bottom``, step 2 of
``pairings.engine.pods``) on many simulated rows at once (private to ``pods``; the
arrays are ``_pod_rounds``').

Table by table, a table takes, in standings order, the first unseated players who never
shared a pod with anyone seated there (MP-PAIR-1) and, at a smaller pod, who never sat
in one (MP-POD-2); the players it skips stay unseated and are the next table's first
candidates; seats nobody fits stay open. Since most tables of most rows take the next
players of the order as they come, every such block of every row is checked at once
(``_blocks``) and only the other tables are scanned candidate by candidate (``_walk``:
the first ``FIRST`` candidates of every row together, then one at a time). A row that
needs more than ``WINDOW`` candidates for a table, or skips more than ``PENDING``
players, is handed back (``Seating.ok`` False).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._arrays import IP, U64, Bool
from ._pod_rounds import PENDING, Field, Ordered, Seating

#: Candidates a row's fill looks at for one table (the players it skipped first).
WINDOW = 32

#: Candidates of every row read at once by ``_walk``.
FIRST = 4

#: The pairs of those candidates, the later one and the earlier one: (1, 0), (2, 0),
#: (2, 1), (3, 0), …
_LATER, _EARLIER = (
    np.array(x, dtype=np.intp)
    for x in zip(*((c, v) for c in range(FIRST) for v in range(c)), strict=True)
)


def fill(f: Field, o: Ordered) -> Seating:
    """The engine's fill of every row (module notes), before its swaps.

    A row that has seated everyone before table ``t``'s first position and skipped
    nobody gives the table the next ``size`` players when they never met (and are fresh
    at a smaller pod); all such blocks are checked at once (``_blocks``), the other rows'
    tables scanned by ``_walk``."""
    m, rows = o.fresh.shape
    sizes = np.array(f.sizes)
    offsets = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    seats = np.arange(sizes.max())
    block = np.where(seats < sizes[:, None], offsets[:, None] + seats, -1)
    st = Seating(
        pos=np.repeat(block[:, :, None], rows, axis=2),
        seated=np.repeat(sizes[:, None], rows, axis=1),
        pend=np.zeros((PENDING, rows), dtype=np.intp),
        count=np.zeros(rows, dtype=np.intp),
        nxt=np.zeros(rows, dtype=np.intp),
        ok=np.ones(rows, dtype=bool),
        repair=np.zeros(rows, dtype=bool),
    )
    bad = _blocks(f, o)
    for t, size in enumerate(f.sizes):
        plain = (st.count == 0) & (st.nxt == offsets[t]) & ~bad[t]
        st.nxt[plain] += size
        odd = np.flatnonzero(st.ok & ~plain)
        if odd.size:
            _walk(f, o, t, size, st, odd)
    return st


def _blocks(f: Field, o: Ordered) -> Bool:
    """tables × rows: True where a table's block of the order may not sit together at
    no cost (two of its players met, or a smaller pod holds someone not fresh)."""
    rows = o.fresh.shape[1]
    bad: Bool = np.zeros((len(f.sizes), rows), dtype=bool)
    start = table = 0
    for size in sorted(set(f.sizes), key=f.sizes.index):  # runs of one size, in order
        count = f.sizes.count(size)
        end = start + size * count
        player = o.player[start:end].reshape(count, size, rows)
        theirs = [w[start:end].reshape(count, size, rows) for w in o.theirs]
        mine = [w[start:end].reshape(count, size, rows) for w in o.mine]
        here = bad[table : table + count]
        for i in range(size):
            for j in range(i + 1, size):
                a = (player[:, i], [w[:, i] for w in theirs])
                here |= o.meets(a, (player[:, j], [w[:, j] for w in mine]))
        if size < f.standard:
            here |= ~o.fresh[start:end].reshape(count, size, rows).all(axis=1)
        start, table = end, table + count
    return bad


def _walk(f: Field, o: Ordered, t: int, size: int, st: Seating, odd: IP) -> None:
    """The engine's scan for table ``t`` in the rows ``odd``, candidate by candidate
    (skipped players first): a candidate joins when they met nobody seated there (and
    are fresh at a smaller pod), until ``size`` sit there or every player left was
    looked at. Updates ``st``; a row needing more than ``WINDOW`` candidates is no
    longer ok. Arrays are seat or candidate by row of ``odd``: the first ``FIRST``
    candidates of every row are read at once, the rows still looking after them go on
    one candidate at a time."""
    m, rows = o.fresh.shape
    n = odd.size
    before, nxt = st.count[odd], st.nxt[odd]
    j = np.arange(FIRST)[:, None]
    at = np.where(j < before, st.pend[:FIRST][:, odd], nxt + j - before)
    inside = at < m
    at = np.minimum(at, m - 1)
    flat = at * rows + odd
    player = np.take(o.player, flat)
    theirs = [np.take(x, flat) for x in o.theirs]
    mine = [np.take(x, flat) for x in o.mine]
    ok = inside & np.take(o.fresh, flat) if size < f.standard else inside
    # who met whom among them: clash[c(c-1)/2 + v] for candidates v < c
    clash = o.meets(
        (player[_LATER], [x[_LATER] for x in theirs]),
        (player[_EARLIER], [x[_EARLIER] for x in mine]),
    )
    chosen = np.zeros((WINDOW, n), dtype=bool)
    seated = np.zeros(n, dtype=np.intp)
    seat = np.empty((FIRST, n), dtype=np.intp)  # the seat a candidate takes if chosen
    for c in range(FIRST):
        fit = ok[c] & (seated < size)
        if c:
            start = c * (c - 1) // 2
            fit &= ~(clash[start : start + c] & chosen[:c]).any(axis=0)
        chosen[c] = fit
        seat[c] = seated
        seated += fit
    w = _Walk(
        pos=np.full((size, n), -1, dtype=np.intp),
        players=np.zeros((size, n), dtype=np.intp),
        lanes=[np.zeros((size, n), dtype=np.uint64) for _ in o.mine],
        seated=seated,
        taken=chosen,
        last=np.where(seated > 0, FIRST - 1 - np.argmax(chosen[FIRST - 1 :: -1], axis=0), -1),
        out=(seated < size) & ~inside.all(axis=0),
    )
    live = np.flatnonzero((seated < size) & ~w.out)
    # each chosen candidate to its seat, in order (flat indices: one axis is quicker)
    flat = np.flatnonzero(chosen[:FIRST])
    into = np.take(seat, flat) * n + flat % n
    w.pos.ravel()[into] = np.take(at, flat)
    w.players.ravel()[into] = np.take(player, flat)
    for x, y in zip(w.lanes, mine, strict=True):
        x.ravel()[into] = np.take(y, flat)
    if live.size:
        _walk_on(f, o, size, st, odd, w, live)
    count = w.seated
    st.pos[t, :size][:, odd] = w.pos
    st.seated[t, odd] = count
    st.ok[odd[(count < size) & ~w.out]] = False  # more candidates than the window
    _carry(st, odd, w, m)


@dataclass
class _Walk:
    """One table's scan in the rows of ``odd`` (seat or candidate × row): positions
    seated, their players and lanes, how many, which candidates were taken, the last
    taken, and whether every player left was looked at."""

    pos: IP
    players: IP
    lanes: list[U64]
    seated: IP
    taken: Bool
    last: IP
    out: Bool

    def take(self, c: int, live: IP, hit: IP, at: IP, player: IP, lanes: list[U64]) -> None:
        """Seat candidate ``c`` in the rows ``live[hit]`` (``at``, ``player``, ``lanes``:
        by index into ``live``)."""
        rows = live[hit]
        seat = self.seated[rows]
        self.pos[seat, rows] = at[hit]
        self.players[seat, rows] = player[hit]
        for x, y in zip(self.lanes, lanes, strict=True):
            x[seat, rows] = y[hit]
        self.seated[rows] += 1
        self.taken[c, rows] = True
        self.last[rows] = c


def _walk_on(f: Field, o: Ordered, size: int, st: Seating, odd: IP, w: _Walk, live: IP) -> None:
    """``_walk`` past its first candidates for the rows ``live`` (by index into ``odd``),
    one candidate at a time."""
    m, rows = o.fresh.shape
    for c in range(FIRST, WINDOW):
        row = odd[live]
        before, nxt = st.count[row], st.nxt[row]
        at = np.where(c < before, st.pend[min(c, PENDING - 1), row], nxt + (c - before))
        inside = at < m
        flat = np.minimum(at, m - 1) * rows + row
        player = np.take(o.player, flat)
        fit = inside & np.take(o.fresh, flat) if size < f.standard else inside.copy()
        seated = w.seated[live]
        met = o.meets(
            (player, [np.take(x, flat) for x in o.theirs]),
            (w.players[:, live], [x[:, live] for x in w.lanes]),
        )
        fit &= ~(met & (np.arange(size)[:, None] < seated)).any(axis=0)
        w.take(c, live, np.flatnonzero(fit), at, player, [np.take(y, flat) for y in o.mine])
        w.out[live[~inside]] = True
        live = live[(w.seated[live] < size) & inside]
        if not live.size:
            return


def _carry(st: Seating, odd: IP, w: _Walk, m: int) -> None:
    """After a table: the positions looked at and not seated, in order, and the next
    position not looked at."""
    before, nxt = st.count[odd], st.nxt[odd]
    reached = np.where(w.out, before + m - nxt, w.last + 1)
    region = np.maximum(reached, before)
    kept = region - w.seated  # every seated one was looked at
    short = region <= 2 * FIRST  # most rows: a narrow region
    for group in (np.flatnonzero((kept > 0) & short), np.flatnonzero((kept > 0) & ~short)):
        if not group.size:
            continue
        width = int(region[group].max())  # at most ``WINDOW``
        keep = ~w.taken[:width, group] & (np.arange(width)[:, None] < region[group])
        slot, i = np.nonzero(keep)
        seat = np.cumsum(keep, axis=0)[slot, i] - 1
        b, row = before[group][i], odd[group][i]
        at = np.where(
            slot < b, st.pend[np.minimum(slot, PENDING - 1), row], nxt[group][i] + slot - b
        )
        fits = seat < PENDING
        st.pend[seat[fits], row[fits]] = at[fits]
    st.count[odd] = kept
    st.nxt[odd] = nxt + np.maximum(0, reached - before)
    st.ok[odd[kept > PENDING]] = False
