"""The end of the simulated endings (private): each player's tiebreakers on demand
and who takes the cut's places in each ending."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ._arrays import (
    BYTE,
    COUNTED,
    F64,
    I32,
    IP,
    MATCHES,
    POINTS,
    SCORE_MASK,
    Bool,
    Group,
    Rules,
    State,
    in_player_order,
)


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
