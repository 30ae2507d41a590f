"""The pod engine's swaps (``pairings.engine._pods_fill.swap_repair``, step 3 of
``pairings.engine.pods``) on many simulated rows at once (private to ``pods``).

After the fill, each player left over, in standings order, takes the first open seat
(open tables in table order) where they fit; else, for each open table in order, the
tables nearest to it (the one above first: ``_pods_fill._nearest``) are tried, each
table's players from the one nearest in the standings (its worst when the table is
above, its best when below): the first player who fits the open seat while the left-over
player fits that player's table changes places with them. A player neither way seats
stays over, and the engine goes on to repair the row (``Seating.repair``).

All rows with a player over are served together: the candidates of the two nearest
tables, then of the next six, then the next eight, each row taking its first success in
the engine's order, so every row makes the engine's own choice. Bounds: at most ``OPEN``
open tables and the ``NEAR`` nearest tables to each; a row needing more is handed back
to the engine (``Seating.ok`` False). A row's "stays over" is certain only when the
nearest tables covered them all; otherwise the row is handed back too.
"""

from __future__ import annotations

import numpy as np

from ._arrays import IP, Bool
from ._pod_rounds import PENDING, Field, Ordered, Seating

#: Open tables a row may have after the fill.
OPEN = 4

#: Nearest tables tried for each open table.
NEAR = 16


def swap_repair(f: Field, o: Ordered, st: Seating) -> None:
    """Seat every row's left-over players (``st.pend``) as the engine's swaps do."""
    count = len(f.sizes)
    near = _nearest_tables(count)
    certain = count - 1 <= NEAR
    sizes = np.array(f.sizes)
    for j in range(PENDING):
        rows = np.flatnonzero(st.ok & ~st.repair & (st.count > j))
        if not rows.size:
            return
        opened = sizes > st.seated[:, rows].T  # rows × tables
        many = opened.sum(axis=1) > OPEN
        st.ok[rows[many]] = False
        rows, opened = rows[~many], opened[~many]
        u = st.pend[j, rows]
        # open tables in table order, padded with -1
        tables = np.sort(np.where(opened, np.arange(count), count), axis=1)[:, :OPEN]
        tables[tables == count] = -1
        left = _seat(f, o, st, rows, u, tables, sizes)
        left = _swap(f, o, st, rows, u, tables, near, sizes, left)
        if certain:
            st.repair[rows[left]] = True
        else:  # the engine would look further
            st.ok[rows[left]] = False


def _nearest_tables(count: int) -> IP:
    """For each table, the first ``NEAR`` other tables by distance, the one above
    first (−1 past the last)."""
    near = np.full((max(count, 1), NEAR), -1, dtype=np.intp)
    for k in range(count):
        order = [q for d in range(1, count) for q in (k - d, k + d) if 0 <= q < count]
        near[k, : min(NEAR, len(order))] = order[:NEAR]
    return near


def _fits(
    f: Field,
    o: Ordered,
    st: Seating,
    rows: IP,
    who: IP,
    table: IP,
    sizes: IP,
    leave: IP | None = None,
) -> Bool:
    """Whether the players at positions ``who`` may join ``table``'s seated players (less
    the seat ``leave``) at no cost: no previous pod-mate there, and fresh for a smaller
    pod (``Problem.fits``). ``who``, ``table``, ``leave``: candidates × rows (or rows);
    ``rows``: the rows."""
    seats = st.pos.shape[1]
    seat = np.arange(seats).reshape((seats,) + (1,) * max(who.ndim, table.ndim))
    members = np.take(st.pos, (table * seats + seat) * st.pos.shape[2] + rows)  # seat first
    among = seat < np.take(st.seated, table * st.seated.shape[1] + rows)
    if leave is not None:
        among &= seat != leave
    player, theirs = o.at(who, rows)
    mates = o.mine_at(np.maximum(members, 0), rows)
    met = o.meets((player, theirs), mates)
    fresh: Bool = np.take(o.fresh, who * o.fresh.shape[1] + rows)
    ok: Bool = ~(met & among).any(axis=0) & ((sizes[table] >= f.standard) | fresh)
    return ok


def _seat(f: Field, o: Ordered, st: Seating, rows: IP, u: IP, tables: IP, sizes: IP) -> Bool:
    """Seat each row's ``u`` (a position) at the first open table they fit; True where
    none."""
    left = np.ones(rows.size, dtype=bool)
    for k in range(tables.shape[1]):
        i = np.flatnonzero(left & (tables[:, k] >= 0))
        if not i.size:
            break
        table = tables[i, k]
        fit = _fits(f, o, st, rows[i], u[i], table, sizes)
        i, table = i[fit], table[fit]
        _put(st, rows[i], table, u[i])
        left[i] = False
    return left


#: The nearest tables ``_swap`` tries together: the two nearest, then the next six, the
#: next eight (most rows find their swap at the nearest table).
_STEPS = ((0, 2), (2, 8), (8, NEAR))


def _swap(
    f: Field,
    o: Ordered,
    st: Seating,
    rows: IP,
    u: IP,
    tables: IP,
    near: IP,
    sizes: IP,
    left: Bool,
) -> Bool:
    """The engine's swap for each row whose ``u`` is still over; True where none (or,
    with more tables than ``NEAR`` + 1, where none near the first open table). The
    candidates of a few nearest tables are tried at once, in the engine's order (table
    by table, each table's players nearest first), each row taking its first success."""
    seats = st.pos.shape[1]
    slot = np.arange(seats)[None, :, None]
    for c in range(tables.shape[1]):
        for lo, hi in _STEPS:
            i = np.flatnonzero(left & (tables[:, c] >= 0))
            if not i.size:
                return left
            k, r = tables[i, c], rows[i]
            q = near[k, lo:hi].T[:, None, :]  # tables × 1 × rows
            table = np.maximum(q, 0)
            members = np.take(st.pos, (table * seats + slot) * st.pos.shape[2] + r)
            count = np.take(st.seated, table * st.seated.shape[1] + r)
            # each table's players by standings position, the one nearest to table k first
            ranked = np.argsort(np.where(members >= 0, members, np.iinfo(np.intp).max), axis=1)
            nth = np.where(q < k, count - 1 - slot, slot)
            col = np.take_along_axis(ranked, np.clip(nth, 0, seats - 1), axis=1)
            x = np.take_along_axis(members, col, axis=1)
            # u may take x's seat when u met none of the table's other players
            player, theirs = o.at(u[i], r)
            met = o.meets((player, theirs), o.mine_at(np.maximum(members, 0), r))
            met &= slot < count
            others = met.sum(axis=1, keepdims=True) - np.take_along_axis(met, col, axis=1)
            fresh = np.take(o.fresh, u[i] * o.fresh.shape[1] + r)
            ok = (q >= 0) & (slot < count) & (others == 0) & ((sizes[table] >= f.standard) | fresh)
            q, col, x, ok = (
                np.broadcast_to(a, x.shape).reshape(-1, i.size) for a in (q, col, x, ok)
            )  # candidates in the engine's order: table by table, seat by seat
            ok = ok & _fits(f, o, st, r, np.maximum(x, 0), k, sizes)
            found = ok.any(axis=0)
            first = np.argmax(ok, axis=0)[found]
            j = np.flatnonzero(found)
            k, r, q, col, x = k[j], r[j], q[first, j], col[first, j], x[first, j]
            st.pos[q, col, r] = u[i[j]]
            _put(st, r, k, x)
            left[i[j]] = False
        if len(f.sizes) - 1 > NEAR:  # the engine would try tables further from this one
            return left
    return left


def _put(st: Seating, rows: IP, table: IP, pos: IP) -> None:
    """Seat the player at position ``pos`` in the next open seat of ``table``."""
    at = st.seated[table, rows]
    st.pos[table, at, rows] = pos
    st.seated[table, rows] += 1
