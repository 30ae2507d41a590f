"""Swiss pairing for one round (P-SW-1 … P-SW-8, I-1; age-modified groups P-AGE-3, I-4).

The engine is pure: frozen dataclasses in and out, randomness only from the
``random.Random`` passed in (its seed is stored with the round so an appeal can replay
it, I-1). How pairings are compared and solved is described in ``_swiss_model`` (the
quality order and its lower bound) and ``_swiss_solve`` (greedy pass, exact repair);
age-modified groups use the order and solver of ``_swiss_age``. ``pairings.engine.repair``
re-pairs a round minimally after a record correction (P-SW-9).

Decisions documented here (docs/rules.md leaves them open):

* The bye (P-SW-5) is a hard filter, never a weight: it goes to a player of the lowest
  bracket who has not had a bye. If every player of the lowest bracket already had one,
  it moves up to the next bracket that has a player without a bye, so no player gets a
  second bye while a player without one exists. Only when every player already had a bye
  does someone of the lowest bracket get a second one; the round says so in ``notes``.
  Among the eligible players the choice minimises rematches and pair-downs first, then
  is random.
* "Rematch avoided" (the ``why`` suffix ``"; rematch avoided"``): a table is marked when
  one of its two players has a previous opponent (this phase) who is in this round with
  the same match points as that player, i.e. a same-bracket candidate the pairing had to
  skip because they already met. For a same-record table that means the players would
  have been free to meet that opponent instead; for a pair-down it means the paired-down
  player's own bracket held an opponent they could not meet. Round 1 never has one; a
  rematch table ("rematch: no alternative") is never marked.
* Quality order (P-SW-4 before P-SW-7): fewest rematches, then fewest bracket boundaries
  crossed by pair-downs (a pairing that skips a bracket counts as one pair-down per
  boundary: P-SW-3 pairs down into the *next lower* bracket only), then the smallest
  distance in match points; only then does randomness decide.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ._swiss_age import AgeLevels, solve_age
from ._swiss_model import Pair, Problem, build_problem
from ._swiss_solve import solve_flat
from .types import PAIRING_SLOTS, Pairing, SwissPlayer, SwissRound

BYE_WHY = "bye: lowest bracket, random"
BYE_MOVED_UP_WHY = "bye: lowest bracket without a bye, random"
REMATCH_WHY = "rematch: no alternative"
SAME_RECORD_WHY = "same record"
AVOIDED_WHY = "; rematch avoided"
SAME_RECORD_AVOIDED_WHY = SAME_RECORD_WHY + AVOIDED_WHY
DIVISION_WHY = "division over record"
OTHER_DIVISION_WHY = "other division"

#: Explains the pairing of node ``a`` (the higher bracket) with node ``b``.
Explain = Callable[[Problem, int, int], str]


def pair_swiss(
    players: Sequence[SwissPlayer], *, rng: random.Random, age_modified: bool = False
) -> SwissRound:
    """Pair one Swiss round.

    Input: the active players of the round (dropped players left out by the caller,
    P-SW-6), each with match points, the ids already met in this phase, and whether they
    had a bye; ``rng`` seeded from the round's stored seed (I-1). The result depends only
    on the players and the seed, not on their order in ``players``.

    Output: a :class:`SwissRound` whose ``pairings`` hold one ``Pairing`` per table, table
    1 in the highest bracket and numbered in bracket order (P-SW-8), the player of the
    higher bracket first, then the bye (``table=None``) last. ``pair_downs`` counts
    pairings between different match points, ``rematches`` the rematch pairings (flagged
    ``rematch=True``, only when no pairing without them exists), ``notes`` tells the
    organiser about an unavoidable rematch or an unusual bye, and ``proven_optimal`` is
    False only when a large event (more than 160 players) had to be repaired locally and
    the lower bound could not confirm the result.

    Rules: P-SW-1 (round 1 at random: one bracket), P-SW-2 (brackets by match points,
    random within), P-SW-3 (an odd bracket pairs one player down into the next bracket,
    never into a rematch, top to bottom), P-SW-4 (no rematch while avoidable, else the
    fewest, flagged), P-SW-5 (odd number of players: one bye, lowest bracket, never a
    second bye while avoidable), P-SW-7 (fewest pair-downs, then shortest, before
    randomness), P-SW-8 (table order), I-1 (seeded randomness).

    ``age_modified``: the pairing group is age-modified (P-AGE-3, I-4, R-5). When its players are of
    more than one ``SwissPlayer.division``, the division takes precedence over the record
    (see ``_swiss_age``): a Masters 2-3 meets a Masters 1-4 before a Senior 2-3. ``why``
    then reads ``"division over record: paired down from 6 points"`` when a record-only
    pairing would have found an opponent of another division with the same record, and
    ``"other division: same record"`` / ``"other division: paired down from 6 points"``
    across divisions; ``notes`` counts the pairings across divisions. Such a group is solved
    exactly up to 320 players; a larger one is paired division by division and reported
    with ``proven_optimal=False``. Without the flag, or with one division only, the
    division is ignored and the ordinary path runs unchanged.

    Raises PairingImpossible for fewer than two players or an id listed twice.
    """
    problem = build_problem(players, rng)
    if age_modified and len({p.division for p in players}) > 1:
        levels = AgeLevels(problem)
        pairs, proven = solve_age(problem, levels, rng)
        flat = [node for pair in pairs for node in pair]
        return _round(problem, flat, proven, age_explainer(levels))
    flat, proven = solve_flat(problem, rng)
    return _round(problem, flat, proven, explain_record)


def _round(problem: Problem, flat: list[int], proven: bool, explain: Explain) -> SwissRound:
    pairings, pair_downs, rematches = _tables(problem, flat, explain)
    crossing = 0
    if explain is not explain_record:  # only the age-modified explainer crosses divisions
        crossing = sum(p.why.startswith(OTHER_DIVISION_WHY) for p in pairings)
    return SwissRound(
        pairings=pairings,
        pair_downs=pair_downs,
        rematches=rematches,
        notes=_bye_notes(problem) + _rematch_notes(rematches) + _age_notes(crossing),
        proven_optimal=proven,
    )


def describe(problem: Problem, pairs: list[Pair], explain: Explain) -> tuple[Pairing, ...]:
    """Order the tables (P-SW-8) and explain every pairing: tables 1.. in bracket order,
    the higher bracket first in each, then the bye (``table=None``)."""
    return _tables(problem, [node for pair in pairs for node in pair], explain)[0]


def _tables(
    problem: Problem, flat: list[int], explain: Explain
) -> tuple[tuple[Pairing, ...], int, int]:
    """:func:`describe` of the pairs ``flat[0], flat[1]``, ``flat[2], flat[3]``…, plus the
    number of pair-downs and of rematches among the tables."""
    bye, ids, points, opponents = problem.bye, problem.ids, problem.points, problem.opponents
    bracket, width, size = problem.bracket, len(problem.bracket_points), problem.size
    # Table order (-high points, -low points, node a): brackets are numbered by descending
    # points, so one integer ``(bracket a, bracket b, a)`` orders the tables the same way
    # (ints sort fast and cost the garbage collector nothing); ``partner[a]`` is b.
    keys: list[int] = []
    partner = [0] * size
    byes: list[Pairing] = []
    for a, b in zip(flat[::2], flat[1::2], strict=True):
        if a == bye or b == bye:
            byes.append(_bye_pairing(problem, b if a == bye else a))
            continue
        high, low = points[a], points[b]
        # Higher bracket first; within a bracket the shuffled order decides (random).
        if low > high or (low == high and b < a):
            a, b = b, a
        keys.append((bracket[a] * width + bracket[b]) * size + a)
        partner[a] = b
    keys.sort()
    written_out = explain is explain_record  # inline below: this loop runs once per table
    bracket_ids = problem.bracket_ids
    tables: list[Pairing] = []
    pair_downs = rematches = 0
    new = object.__new__
    set_table, set_players, set_why, set_down, set_rematch = PAIRING_SLOTS
    for number, key in enumerate(keys, start=1):
        a = key % size
        b = partner[a]
        id_a = ids[a]
        id_b = ids[b]
        met_a = opponents[a]
        met_b = opponents[b]
        rematch = id_b in met_a or id_a in met_b
        down = points[a] != points[b]
        if not written_out:
            why = explain(problem, a, b)
        elif down or rematch:
            avoided = not (
                met_a.isdisjoint(bracket_ids[bracket[a]])
                and met_b.isdisjoint(bracket_ids[bracket[b]])
            )
            why = _record_why(points[a], down, rematch, avoided)
        else:  # same record, so one bracket
            same = bracket_ids[bracket[a]]
            avoided = not (met_a.isdisjoint(same) and met_b.isdisjoint(same))
            why = SAME_RECORD_AVOIDED_WHY if avoided else SAME_RECORD_WHY
        # Pairing(number, (id_a, id_b), why, down, rematch), see types.PAIRING_SLOTS
        table = new(Pairing)
        set_table(table, number)
        set_players(table, (id_a, id_b))
        set_why(table, why)
        set_down(table, down)
        set_rematch(table, rematch)
        tables.append(table)
        pair_downs += down
        rematches += rematch
    return (*tables, *byes), pair_downs, rematches


def explain_record(problem: Problem, a: int, b: int) -> str:
    """Ordinary Swiss: rematch, pair-down or same record (P-SW-3, P-SW-4), with
    ``"; rematch avoided"`` when :func:`rematch_avoided` holds."""
    high, low = problem.points[a], problem.points[b]
    return _record_why(high, high != low, problem.is_rematch(a, b), rematch_avoided(problem, a, b))


def _record_why(high: int, down: bool, rematch: bool, avoided: bool) -> str:
    """The ``why`` of :func:`explain_record`; ``high`` the points of the higher player."""
    if rematch:
        return REMATCH_WHY
    if not down:
        return SAME_RECORD_AVOIDED_WHY if avoided else SAME_RECORD_WHY
    record = paired_down_why(high)
    return record + AVOIDED_WHY if avoided else record


def _record(problem: Problem, a: int, b: int) -> str:
    if problem.is_rematch(a, b):
        return REMATCH_WHY
    high, low = problem.points[a], problem.points[b]
    if high != low:
        return paired_down_why(high)
    return SAME_RECORD_WHY


def paired_down_why(points: int) -> str:
    """``"paired down from 6 points"``; ``"paired down from 1 point"`` (a tie's point)."""
    return f"paired down from {points} point{'' if points == 1 else 's'}"


def rematch_avoided(problem: Problem, a: int, b: int) -> bool:
    """P-SW-4: True when player ``a`` or ``b`` has a previous opponent in this round with
    the same match points as that player (a same-bracket candidate skipped because they
    already met). See the module docstring for the exact definition."""
    opponents, bracket_ids, bracket = problem.opponents, problem.bracket_ids, problem.bracket
    return not (
        opponents[a].isdisjoint(bracket_ids[bracket[a]])
        and opponents[b].isdisjoint(bracket_ids[bracket[b]])
    )


def age_explainer(levels: AgeLevels) -> Explain:
    """Age-modified groups (P-AGE-3, I-4): say when the division beat the record."""
    division = levels.division
    seen: dict[int, set[str]] = {}
    for name, pts in zip(division, levels.problem.points, strict=True):
        if name:  # not the bye token
            seen.setdefault(pts, set()).add(name)
    # Brackets holding several divisions: there a record-only pairing could have crossed.
    mixed = {pts for pts, names in seen.items() if len(names) > 1}

    def explain(problem: Problem, a: int, b: int) -> str:
        record = _record(problem, a, b)
        if record == REMATCH_WHY:
            return record
        suffix = AVOIDED_WHY if rematch_avoided(problem, a, b) else ""
        if division[a] != division[b]:
            return f"{OTHER_DIVISION_WHY}: {record}{suffix}"
        if record != SAME_RECORD_WHY and mixed & {problem.points[a], problem.points[b]}:
            return f"{DIVISION_WHY}: {record}{suffix}"
        return record + suffix

    return explain


def _bye_pairing(problem: Problem, node: int) -> Pairing:
    moved_up = problem.points[node] != min(problem.points)
    return Pairing(
        table=None, players=(problem.ids[node],), why=BYE_MOVED_UP_WHY if moved_up else BYE_WHY
    )


def _bye_notes(problem: Problem) -> tuple[str, ...]:
    if problem.bye < 0:
        return ()
    if not problem.bye_fresh:
        return ("Every player already had a bye: one player gets a second bye.",)
    points, lowest = problem.points[problem.bye], problem.bracket_points[-1]
    if points != lowest:
        return (
            f"Every player with {lowest} point{'' if lowest == 1 else 's'} already had a "
            f"bye: the bye moves up to the {points}-point bracket.",
        )
    return ()


def _age_notes(crossing: int) -> tuple[str, ...]:
    if not crossing:
        return ()
    plural = "s" if crossing > 1 else ""
    return (
        f"Age-modified group: {crossing} pairing{plural} across divisions "
        "(no opponent of the same division was left).",
    )


def _rematch_notes(rematches: int) -> tuple[str, ...]:
    if not rematches:
        return ()
    plural = "es" if rematches > 1 else ""
    return (f"No pairing without a rematch exists: {rematches} rematch{plural}, flagged.",)
