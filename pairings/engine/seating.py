"""Table numbers after pairing: fixed seats and the tables they reserve.

Pairing decides who meets; numbering decides where. The pairing engines number their
tables 1, 2, … in bracket order (P-SW-8: table 1 holds the highest bracket; pods the
same, MP-PAIR-1), and the hall numbers a pairing group's tables from its first table.
This module turns those bracket places into the hall's table numbers when some players
have a **fixed seat**: a table staff gave them for the whole event (mobility, sight …).

:func:`number_tables` (a Swiss round, head to head or pods):

* a table with a fixed-seat player sits at that player's fixed table; with two or more
  fixed-seat players at one table, the **lowest** of their fixed tables (the others stay
  empty this round);
* every other table takes, in bracket order, the next number from ``first`` that is not
  a fixed table — neither one used this round nor one ``reserved`` for a player elsewhere
  (another pairing group of the hall, a bye, …): no other match ever sits at a fixed
  table;
* a fixed table in ``unavailable`` (in use right now by another group's round, paired
  before the seat was given) is not taken: that table is numbered like the others and
  reported in ``displaced``;
* without any fixed or reserved table the numbers are ``first + place - 1``, as before.

An elimination round (``move_fixed`` False) keeps its bracket order — the table order
*is* the bracket (P-SE-1: winners of consecutive tables meet) — so no table is moved to a
fixed seat; the fixed tables are still skipped.

A fixed table that sits lower than its bracket place (``first + place - 1``) is marked
``not_top``: a player in the middle of the standings at table 2 must not be taken for
the second-best match (for coverage, for the audience). :func:`keep_fixed_in_place`
serves the minimal re-pair (P-SW-9), which renumbers only the tables it changed.

Pure: no Django, plain values in and out.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from itertools import count


@dataclass(frozen=True, slots=True)
class FixedClash:
    """Two or more fixed-seat players paired at one table: they play at ``table`` (the
    lowest of their fixed tables); ``empty`` are their other fixed tables, left empty."""

    players: tuple[str, ...]
    table: int
    empty: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableNumbers:
    """The hall's table numbers of one round.

    numbers: one table number per input table, in the input's order, all different.
    fixed: per table, True when it sits at a fixed seat of one of its players.
    not_top: per table, True for a fixed table numbered lower than its bracket place.
    clashes: the tables where fixed-seat players met (:class:`FixedClash`).
    displaced: ``(player, fixed table)`` of the fixed-seat players whose table was
        ``unavailable``; their table is numbered like the others.
    """

    numbers: tuple[int, ...]
    fixed: tuple[bool, ...]
    not_top: tuple[bool, ...]
    clashes: tuple[FixedClash, ...] = ()
    displaced: tuple[tuple[str, int], ...] = ()


def _free(first: int, skip: Set[int]) -> Iterator[int]:
    return (n for n in count(first) if n not in skip)


def _wanted(players: Sequence[str], fixed: Mapping[str, int]) -> list[tuple[int, str]]:
    """``(fixed table, player)`` of the table's fixed-seat players, lowest table first."""
    return sorted((fixed[p], p) for p in players if p in fixed)


def number_tables(
    tables: Sequence[Sequence[str]],
    fixed: Mapping[str, int],
    *,
    first: int = 1,
    places: Sequence[int] | None = None,
    reserved: Set[int] = frozenset(),
    unavailable: Set[int] = frozenset(),
    move_fixed: bool = True,
) -> TableNumbers:
    """Number the played tables of a round (module docstring).

    tables: each table's player ids (2 for a match, 3–5 for a pod; no byes), in bracket
        order unless ``places`` says otherwise.
    fixed: player id → fixed table (1-based) of the players of this round who have one.
    first: the pairing group's first table (≥ 1).
    places: each table's bracket place (the engine's table number, distinct, ≥ 1);
        default 1, 2, … in the given order. Gaps are kept, as the numbers before were.
    reserved: fixed tables of players not at these tables; never given to a table.
    unavailable: numbers a fixed table cannot take now (another group's round uses them).
    move_fixed: False for an elimination round: nothing moves, fixed tables are skipped.
    Returns :class:`TableNumbers`. Raises ValueError for ``first`` < 1, a fixed table
    < 1, or places that are not distinct positive numbers of the tables' count.
    """
    order = list(places) if places is not None else list(range(1, len(tables) + 1))
    if first < 1 or any(t < 1 for t in fixed.values()):
        raise ValueError("table numbers start at 1")
    if len(order) != len(tables) or len(set(order)) != len(order) or min(order, default=1) < 1:
        raise ValueError("places must be distinct numbers from 1, one per table")
    seat: dict[int, int] = {}  # table index → its fixed table
    clashes: list[FixedClash] = []
    displaced: list[tuple[str, int]] = []
    for i in sorted(range(len(tables)), key=order.__getitem__) if move_fixed else []:
        wanted = _wanted(tables[i], fixed)
        usable = [(t, p) for t, p in wanted if t not in unavailable and t not in seat.values()]
        displaced += [(p, t) for t, p in wanted if t in unavailable]
        if usable:
            seat[i] = usable[0][0]
        if len(usable) > 1:
            players = tuple(p for _, p in usable)
            clashes.append(FixedClash(players, usable[0][0], tuple(t for t, _ in usable[1:])))
    skip = set(reserved) | set(fixed.values())
    free = _free(first, skip)
    numbers: dict[int, int] = dict(seat)
    place_used = 0  # the bracket places of the loose tables are kept, gaps included
    for i in sorted((i for i in range(len(tables)) if i not in seat), key=order.__getitem__):
        moved_before = sum(1 for j in seat if order[j] < order[i])
        slot = order[i] - moved_before
        while place_used < slot - 1:
            next(free)
            place_used += 1
        numbers[i] = next(free)
        place_used += 1
    return TableNumbers(
        numbers=tuple(numbers[i] for i in range(len(tables))),
        fixed=tuple(i in seat for i in range(len(tables))),
        not_top=tuple(i in seat and seat[i] < first + order[i] - 1 for i in range(len(tables))),
        clashes=tuple(clashes),
        displaced=tuple(displaced),
    )


def keep_fixed_in_place(
    tables: Sequence[tuple[int, Sequence[str]]],
    fixed: Mapping[str, int],
    *,
    reserved: Set[int] = frozenset(),
    highest: int = 0,
) -> TableNumbers:
    """Renumber the tables a minimal re-pair (P-SW-9) changed so that each fixed-seat
    player sits at their fixed table again: ``tables`` are ``(number, players)`` with
    the numbers the re-pair gave; a table with a fixed-seat player trades numbers with
    the table at that player's fixed table when it is one of these numbers (the lowest
    fixed table first when several meet). Otherwise the numbers are kept, except that
    a table left at a ``reserved`` number (another player's fixed seat; a re-pair numbers
    a new table after the round's ``highest``) takes the next number after ``highest``
    and these tables that is not reserved. ``not_top`` marks a fixed table numbered
    lower than the number the re-pair gave it. Raises ValueError for repeated numbers."""
    numbers = [n for n, _ in tables]
    if len(set(numbers)) != len(numbers):
        raise ValueError("table numbers must be distinct")
    given = list(numbers)
    at = {n: i for i, n in enumerate(numbers)}
    placed: set[int] = set()
    clashes: list[FixedClash] = []
    for i in sorted(range(len(tables)), key=given.__getitem__):
        wanted = _wanted(tables[i][1], fixed)
        usable = [(t, p) for t, p in wanted if t in at and at[t] not in placed]
        if not usable:
            continue
        target = usable[0][0]
        j = at[target]
        numbers[i], numbers[j] = numbers[j], numbers[i]
        at[numbers[i]], at[numbers[j]] = i, j
        placed.add(i)
        if len(usable) > 1:
            players = tuple(p for _, p in usable)
            clashes.append(FixedClash(players, target, tuple(t for t, _ in usable[1:])))
    skip = set(reserved) | set(fixed.values())
    free = _free(max([highest, *numbers]) + 1, skip)
    for i in range(len(tables)):
        if i not in placed and numbers[i] in skip:
            numbers[i] = next(free)
    return TableNumbers(
        numbers=tuple(numbers),
        fixed=tuple(i in placed for i in range(len(tables))),
        not_top=tuple(i in placed and numbers[i] < given[i] for i in range(len(tables))),
        clashes=tuple(clashes),
    )
