"""Swiss pairing for one round (P-SW-1 … P-SW-8, I-1).

The engine is pure: frozen dataclasses in and out, randomness only from the
``random.Random`` passed in (its seed is stored with the round so an appeal can replay
it, I-1). How pairings are compared and solved is described in ``_swiss_model`` (the
quality order and its lower bound) and ``_swiss_solve`` (greedy pass, exact repair).

Decisions documented here (RULES.md leaves them open):

* The bye (P-SW-5) is a hard filter, never a weight: it goes to a player of the lowest
  bracket who has not had a bye. If every player of the lowest bracket already had one,
  it moves up to the next bracket that has a player without a bye, so no player gets a
  second bye while a player without one exists. Only when every player already had a bye
  does someone of the lowest bracket get a second one; the round says so in ``notes``.
  Among the eligible players the choice minimises rematches and pair-downs first, then
  is random.
* Quality order (P-SW-4 before P-SW-7): fewest rematches, then fewest bracket boundaries
  crossed by pair-downs (a pairing that skips a bracket counts as one pair-down per
  boundary: P-SW-3 pairs down into the *next lower* bracket only), then the smallest
  distance in match points; only then does randomness decide.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ._swiss_model import Pair, Problem, build_problem, bye_bracket
from ._swiss_solve import solve
from .types import Pairing, SwissPlayer, SwissRound

BYE_WHY = "bye: lowest bracket, random"
BYE_MOVED_UP_WHY = "bye: lowest bracket without a bye, random"
REMATCH_WHY = "rematch: no alternative"
SAME_RECORD_WHY = "same record"


def pair_swiss(players: Sequence[SwissPlayer], *, rng: random.Random) -> SwissRound:
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

    ``SwissPlayer.division`` is not used: age-modified pairing (P-AGE-3, I-4) is not
    part of this function.

    Raises PairingImpossible for fewer than two players or an id listed twice.
    """
    problem = build_problem(players, rng)
    pairs, proven = solve(problem, rng)
    pairings = _pairings(problem, pairs)
    rematches = sum(p.rematch for p in pairings)
    return SwissRound(
        pairings=pairings,
        pair_downs=sum(p.pair_down for p in pairings),
        rematches=rematches,
        notes=_bye_notes(players, problem) + _rematch_notes(rematches),
        proven_optimal=proven,
    )


def _pairings(problem: Problem, pairs: list[Pair]) -> tuple[Pairing, ...]:
    """Order the tables (P-SW-8) and explain every pairing."""
    matches: list[tuple[tuple[int, int, int], tuple[str, str], str, bool]] = []
    byes: list[Pairing] = []
    for a, b in pairs:
        if problem.bye in (a, b):
            byes.append(_bye_pairing(problem, b if a == problem.bye else a))
            continue
        # Higher bracket first; within a bracket the shuffled order decides (random).
        if (problem.points[b], -b) > (problem.points[a], -a):
            a, b = b, a
        high, low = problem.points[a], problem.points[b]
        rematch = problem.is_rematch(a, b)
        why = _match_why(high, low, rematch)
        matches.append(((-high, -low, a), (problem.ids[a], problem.ids[b]), why, rematch))
    matches.sort(key=lambda m: m[0])
    tables = tuple(
        Pairing(
            table=number,
            players=ids,
            why=why,
            pair_down=key[0] != key[1],
            rematch=rematch,
        )
        for number, (key, ids, why, rematch) in enumerate(matches, start=1)
    )
    return tables + tuple(byes)


def _match_why(high: int, low: int, rematch: bool) -> str:
    if rematch:
        return REMATCH_WHY
    if high != low:
        return f"paired down from {high} points"
    return SAME_RECORD_WHY


def _bye_pairing(problem: Problem, node: int) -> Pairing:
    moved_up = problem.points[node] != min(problem.points)
    return Pairing(
        table=None, players=(problem.ids[node],), why=BYE_MOVED_UP_WHY if moved_up else BYE_WHY
    )


def _bye_notes(players: Sequence[SwissPlayer], problem: Problem) -> tuple[str, ...]:
    if problem.bye < 0:
        return ()
    points, moved_up = bye_bracket(players)
    if all(p.had_bye for p in players):
        return ("Every player already had a bye: one player gets a second bye.",)
    if moved_up:
        lowest = min(problem.points)
        return (
            f"Every player with {lowest} points already had a bye: the bye moves up to "
            f"the {points}-point bracket.",
        )
    return ()


def _rematch_notes(rematches: int) -> tuple[str, ...]:
    if not rematches:
        return ()
    plural = "es" if rematches > 1 else ""
    return (f"No pairing without a rematch exists: {rematches} rematch{plural}, flagged.",)
