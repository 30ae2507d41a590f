"""Minimal re-pair after a record correction, before the round starts (P-SW-9).

"The Organizer can fix the error before the round starts and re-pair the minimum number of
players to have a valid pairing." A pairing of the round is *valid* when it is as good as
a fresh pairing of the corrected players: no more rematches, bracket crossings and
pair-down distance than :func:`~pairings.engine.swiss.pair_swiss` needs (P-SW-3, P-SW-4,
P-SW-5 bye filter, P-SW-7). Among the valid pairings the repair keeps the most previous
pairings (a pairing involving a corrected player stays too when it is still valid), so it
changes the fewest tables; randomness decides only among those (I-1).

How: up to ``EXACT_LIMIT`` nodes the whole round is solved exactly with one more level,
"not a previous pairing", below every quality level. A larger round frees the pairings of
the corrected (and vanished or new) players and re-pairs them exactly together with a
window of nearby previous pairings, growing the window until the round is valid; when a
window of ``REPAIR_WINDOW_LIMIT`` nodes is not enough, the round is paired from scratch
and ``why`` says so.

Tables (decision, docs/rules.md is silent): a pairing that stays keeps its table, so nobody
moves who does not have to; new pairings take the freed table numbers in bracket order,
then numbers after the last table. A repair can therefore leave the table order of P-SW-8
out of bracket order. After "start round" pairings are frozen (P-POST-2): the caller must
not repair a started round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ._lexmatch import LevelFn, Levels, lexicographic_matching, total
from ._swiss_age import AgeLevels, solve_age
from ._swiss_model import Pair, Problem, build_problem
from ._swiss_solve import EXACT_LIMIT, solve, window
from .swiss import Explain, age_explainer, describe, explain_record
from .types import Pairing, SwissPlayer

REPAIR_WINDOW_LIMIT = 320
FROM_SCRATCH_WHY = "No valid pairing keeps the other tables: the whole round is paired again."


@dataclass(frozen=True, slots=True)
class TableChange:
    """One table whose players change: ``table`` (``None`` for the bye), the players
    before and after (``()`` when the table did not exist before or is gone now)."""

    table: int | None
    old: tuple[str, ...]
    new: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RepairResult:
    """The repaired round (a preview until the organiser confirms it).

    pairings: every table, ordered by table number, the bye last.
    changed_tables: only the tables whose players differ from ``previous``.
    why: sentences for the organiser (what changed and why).
    """

    pairings: tuple[Pairing, ...]
    changed_tables: tuple[TableChange, ...]
    why: tuple[str, ...]
    rematches: int = 0
    pair_downs: int = 0


@dataclass(frozen=True, slots=True)
class _Quality:
    levels: LevelFn
    maxima: tuple[int, ...]
    fresh: list[Pair]
    explain: Explain


def repair(
    previous: Sequence[Pairing],
    players: Sequence[SwissPlayer],
    changed: set[str],
    *,
    rng: random.Random,
    age_modified: bool = False,
    names: Mapping[str, str] | None = None,
) -> RepairResult:
    """Re-pair the fewest players after a record correction (P-SW-9).

    previous: the round's pairings as paired (tables and the bye), not yet started.
    players: the active players with the corrected records (match points, opponents,
        byes), exactly what :func:`~pairings.engine.swiss.pair_swiss` would receive; a
        player missing from ``previous`` is paired, one missing from ``players`` removed.
    changed: ids of the players whose record was corrected (used to explain, and as the
        starting point of the search in a large round).
    rng: seeded from a new stored seed (I-1). age_modified: as in ``pair_swiss``.
    names: the players' names by id, for the explanation (the ids themselves when absent:
        an organiser reads "Record corrected for Ana Ruiz", never a database id).

    Returns a :class:`RepairResult`: the new pairings, the tables that change
    (``TableChange(table, old, new)``) and the explanation. Raises PairingImpossible for
    fewer than two players or an id listed twice.
    """
    problem = build_problem(players, rng)
    quality = _quality(problem, players, rng, age_modified)
    kept = _previous_pairs(problem, previous)
    pairs = _minimal(problem, quality, kept, changed, rng)
    pairings = _number(describe(problem, pairs or quality.fresh, quality.explain), previous)
    changes = _changes(previous, pairings)
    why = (FROM_SCRATCH_WHY,) if pairs is None else _why(changed, changes, previous, names or {})
    return RepairResult(
        pairings=pairings,
        changed_tables=changes,
        why=why,
        rematches=sum(p.rematch for p in pairings),
        pair_downs=sum(p.pair_down for p in pairings),
    )


def _quality(
    problem: Problem, players: Sequence[SwissPlayer], rng: random.Random, age_modified: bool
) -> _Quality:
    """The quality order of the pairing group (ordinary or age-modified) and a fresh pairing."""
    if age_modified and len({p.division for p in players}) > 1:
        age = AgeLevels(problem)
        return _Quality(age, age.maxima, solve_age(problem, age, rng)[0], age_explainer(age))

    def levels(a: int, b: int) -> Levels | None:
        if problem.bye in (a, b) and not problem.compatible(a, b):
            return None
        return tuple(problem.pair_cost(a, b))

    span = problem.bracket_points[0] - problem.bracket_points[-1]
    maxima = (1, len(problem.bracket_points) - 1, span, span * span, 1)
    return _Quality(levels, maxima, solve(problem, rng)[0], explain_record)


def _previous_pairs(problem: Problem, previous: Sequence[Pairing]) -> set[frozenset[int]]:
    """Previous pairings as node pairs, for the players still present."""
    node = {pid: n for n, pid in enumerate(problem.ids) if n != problem.bye}
    kept: set[frozenset[int]] = set()
    for p in previous:
        nodes = [node[x] for x in p.players if x in node]
        if p.is_bye and nodes and problem.bye >= 0:
            kept.add(frozenset((nodes[0], problem.bye)))
        elif len(nodes) == 2:
            kept.add(frozenset(nodes))
    return kept


def _minimal(
    problem: Problem,
    quality: _Quality,
    kept: set[frozenset[int]],
    changed: set[str],
    rng: random.Random,
) -> list[Pair] | None:
    """A valid pairing keeping the most of ``kept``, or None when the windows fail. Among
    those, the tables of corrected players are the ones that change when there is a
    choice (one more level: a kept pairing of a corrected player counts 1)."""
    moved = {n for n, pid in enumerate(problem.ids) if pid in changed}

    def levels(a: int, b: int) -> Levels | None:
        found = quality.levels(a, b)
        if found is None:
            return None
        old = frozenset((a, b)) in kept
        return (*found, int(not old), int(old and (a in moved or b in moved)))

    maxima = (*quality.maxima, 1, 1)
    if problem.size <= EXACT_LIMIT:
        return lexicographic_matching(range(problem.size), levels, maxima, rng)
    width = len(quality.maxima)
    target = total(quality.fresh, quality.levels, width)
    intact = [(a, b) for a, b in map(sorted, kept) if not {a, b} & moved and _sound(quality, a, b)]
    covered = {x for pair in intact for x in pair}
    free = [n for n in range(problem.size) if n not in covered]
    radius, margin = 2, 1
    while free:
        chosen = set(window(problem, intact, [], free, radius, margin))
        nodes = free + [x for at in sorted(chosen) for x in intact[at]]
        try:
            fresh = lexicographic_matching(nodes, levels, maxima, rng)
        except ValueError:  # the bye token found no eligible player in the window
            fresh = None
        if fresh is not None:
            merged = [p for at, p in enumerate(intact) if at not in chosen] + fresh
            if total(merged, quality.levels, width) <= target:
                return merged
        if len(nodes) >= min(problem.size, REPAIR_WINDOW_LIMIT):
            return None
        radius, margin = radius * 2, margin + 1
    return intact if total(intact, quality.levels, width) <= target else None


def _sound(quality: _Quality, a: int, b: int) -> bool:
    """Not a forbidden bye and not a rematch: worth keeping outside the window."""
    found = quality.levels(a, b)
    return found is not None and found[0] == 0


def _number(pairings: tuple[Pairing, ...], previous: Sequence[Pairing]) -> tuple[Pairing, ...]:
    """Staying pairings keep their table (and their seat order, unless they became a
    pair-down: then the higher bracket goes first); new ones take freed numbers in bracket
    order, then numbers after the last table."""
    before = {frozenset(p.players): p for p in previous if not p.is_bye}
    matches = [p for p in pairings if not p.is_bye]
    stays = [before[frozenset(p.players)] for p in matches if frozenset(p.players) in before]
    last = max((p.table for p in previous if p.table is not None), default=0)
    reused = {p.table for p in stays}
    freed = sorted(p.table for p in before.values() if p.table and p.table not in reused)
    spare = iter([*freed, *range(last + 1, last + 1 + len(matches))])
    numbered = []
    for p in matches:
        old = before.get(frozenset(p.players))
        if old is None:
            numbered.append(replace(p, table=next(spare)))
        else:
            seats = p.players if p.pair_down else old.players
            numbered.append(replace(p, table=old.table, players=seats))
    numbered.sort(key=lambda p: p.table or 0)
    return (*numbered, *(p for p in pairings if p.is_bye))


def _changes(previous: Sequence[Pairing], pairings: Sequence[Pairing]) -> tuple[TableChange, ...]:
    before = {p.table: p.players for p in previous}
    after = {p.table: p.players for p in pairings}
    tables = sorted(before.keys() | after.keys(), key=lambda t: (t is None, t or 0))
    return tuple(
        TableChange(t, before.get(t, ()), after.get(t, ()))
        for t in tables
        if set(before.get(t, ())) != set(after.get(t, ()))
    )


def _why(
    changed: set[str],
    changes: tuple[TableChange, ...],
    previous: Sequence[Pairing],
    names: Mapping[str, str],
) -> tuple[str, ...]:
    who = ", ".join(sorted(names.get(p, p) for p in changed)) or "nobody"
    tables = [c for c in changes if c.table is not None]
    if not changes:
        return (f"Record corrected for {who}: every pairing is still valid, nothing changes.",)
    count = sum(p.table is not None for p in previous)
    listed = ", ".join(str(c.table) for c in tables)
    lines = [
        f"Record corrected for {who}: {len(tables)} of {count} tables re-paired"
        + (f" (tables {listed})" if tables else "")
        + "; every other pairing stands."
    ]
    lines += [
        f"The bye moves from {names.get(c.old[0], c.old[0]) if c.old else 'nobody'} to "
        f"{names.get(c.new[0], c.new[0]) if c.new else 'nobody'}."
        for c in changes
        if c.table is None
    ]
    return tuple(lines)
