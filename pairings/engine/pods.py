"""Swiss pairing of multiplayer pods (MP-POD-1, MP-POD-2, MP-PAIR-1, MP-SEAT-1, I-1).

The engine is pure: frozen dataclasses in and out (:class:`PodPlayer`, :class:`Pod`,
:class:`PodRound`), randomness only from the ``random.Random`` passed in, whose seed is
stored with the round so an appeal can replay it (I-1).

How a round is paired (the Multiplayer Addendum's "modified Swiss", MTR 10.4A):

1. :func:`pod_sizes` gives the tables: pods of the standard size, the fewest smaller
   pods (one seat fewer) at the bottom, no byes (MP-POD-1).
2. Players are sorted by performance — match points, then the standings rank the caller
   passes in (MP-TB order), then at random — and tables are filled from table 1 down,
   skipping anyone who already shared a pod with a player seated there and, in a smaller
   pod, anyone who already sat in one (``_pods_fill``).
3. Players left over are swapped with players of other pods who fit the open seats
   (MP-PAIR-1); a player who would sit in a smaller pod again moves into a pod higher in
   the standings (MP-POD-2). Swapped players are marked paired up / paired down.
4. If a cost remains, an exact search re-partitions the bottom tables, widening the
   window up to the whole event (``_pods_search``): no repeat while an arrangement
   without one exists, then no second smaller pod while one can be avoided.
5. Seat order in every pod is random (MP-SEAT-1).

Decisions where the rules are silent:

* Repeat avoidance (MP-PAIR-1, "never") outranks the smaller-pod rule (MP-POD-2,
  "should"); repeats are counted as pairs of previous opponents in one pod.
* Tiny events: standard 4 → 3 players make one pod of 3, 4 one pod of 4, 5 one pod of 5
  (no split into 4 and 3 exists; P-RT-6 plays 4–5 players as one pod); fewer than 3 is
  :class:`~pairings.engine.errors.PairingImpossible`. Standard 3 → pods of 3 and 2,
  at least 2 players.
* Tables: pods of the standard size first, then the smaller pods, each group in order
  of its best-placed player; "paired up/down" compares a player's table with the table
  the plain fill of the standings would give them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from ._pods_fill import fill_top_to_bottom, seat_cheapest, swap_improve, swap_repair
from ._pods_model import Problem, natural_tables
from ._pods_search import improve
from ._pods_types import Pod, PodPlayer, PodRound
from .errors import PairingImpossible

__all__ = ["Pod", "PodPlayer", "PodRound", "pair_pods", "pod_sizes", "STANDARD_SIZES"]

STANDARD_SIZES = (3, 4)
ORDER_WHY = "standings order"
SMALL_WHY = "smaller pod"
SWAP_WHY = "players moved: avoids previous opponents or a second smaller pod"
REPEAT_WHY = "repeat opponents: no alternative"
SMALL_AGAIN_WHY = "smaller pod again: no alternative"


def pod_sizes(n: int, *, standard: int = 4) -> tuple[int, ...]:
    """Seats per table for ``n`` players (MP-POD-1), table 1 first.

    Pods of ``standard`` players and the fewest smaller pods of ``standard - 1``, no
    byes; the smaller pods come last: 23 → (4, 4, 4, 4, 4, 3); 22 → four 4s, two 3s;
    21 → three 4s, three 3s. With ``standard=4``, 3 players → (3,), 5 players → (5,)
    (no split into 4s and 3s exists). ``standard`` is 4 or 3 (the organiser's choice).

    Raises ValueError for another ``standard``, PairingImpossible for fewer than
    ``standard - 1`` players (or fewer than 2).
    """
    if standard not in STANDARD_SIZES:
        raise ValueError(f"standard pod size must be 3 or 4, got {standard}")
    small = standard - 1
    if n < max(small, 2):
        raise PairingImpossible(f"Pods of {standard} need at least {small} players, got {n}.")
    smaller = -n % standard  # each smaller pod frees one seat
    if smaller * small > n:  # only n == 5 with standard 4
        return (n,)
    full = (n - smaller * small) // standard
    return (standard,) * full + (small,) * smaller


def pair_pods(players: Sequence[PodPlayer], *, rng: random.Random, standard: int = 4) -> PodRound:
    """Pair one Swiss round of pods.

    Input: the active players of the round (dropped players left out by the caller),
    each with match points, standings rank, the ids they already shared a pod with, and
    how many smaller pods they sat in; ``rng`` seeded from the round's stored seed (I-1);
    ``standard`` the pod size of the event (4 or 3). The result depends only on the
    players and the seed, not on their order in ``players``.

    Output: a :class:`PodRound` with one :class:`Pod` per table (sizes from
    :func:`pod_sizes`), every player seated exactly once, seats in random order
    (MP-SEAT-1); ``paired_up`` / ``paired_down`` name players moved by swaps; ``repeats``
    and ``small_pod_repeats`` count what could not be avoided (zero whenever an
    arrangement avoiding them exists, MP-PAIR-1, MP-POD-2; guaranteed by a complete
    search for small events, and ``proven_optimal`` False if a large event's search had
    to stop early). ``notes`` explain anything unusual to the organiser.

    Raises PairingImpossible for too few players or an id listed twice; ValueError for a
    ``standard`` other than 3 or 4.
    """
    problem = _problem(players, rng, standard)
    pods, left = fill_top_to_bottom(problem)
    left = swap_repair(problem, pods, left)
    proven = True
    if left:  # the fill and the swaps seat players only where they cost nothing
        seat_cheapest(problem, pods, left)
        swap_improve(problem, pods)
        proven = improve(problem, pods)
    pods.sort(key=lambda pod: (len(pod) < standard, min(pod)))
    costs = [problem.pod_cost(pod, len(pod)) if left else 0 for pod in pods]
    return _round(problem, pods, costs, rng, proven)


def _problem(players: Sequence[PodPlayer], rng: random.Random, standard: int) -> Problem:
    """Standings order: match points, then rank, then random among equals (MP-PAIR-1)."""
    repeated = sorted(pid for pid, k in Counter(p.id for p in players).items() if k > 1)
    if repeated:
        raise PairingImpossible(f"Player listed twice: {', '.join(repeated)}.")
    sizes = pod_sizes(len(players), standard=standard)
    ordered = sorted(players, key=lambda p: p.id)
    rng.shuffle(ordered)  # random among equals; stable sort keeps it
    ordered.sort(key=lambda p: (-p.match_points, p.rank))
    return Problem(
        ids=tuple(p.id for p in ordered),
        opponents=tuple(p.opponents for p in ordered),
        fresh=tuple(p.small_pods == 0 for p in ordered),
        sizes=sizes,
        standard=standard,
    )


def _round(
    problem: Problem, pods: list[list[int]], costs: list[int], rng: random.Random, proven: bool
) -> PodRound:
    natural = natural_tables(problem.sizes)
    built: list[Pod] = []
    for table, (members, cost) in enumerate(zip(pods, costs, strict=True)):
        seats = [problem.ids[i] for i in members]
        rng.shuffle(seats)  # MP-SEAT-1: random seats and turn order in Swiss
        built.append(
            Pod(
                table=table + 1,
                players=tuple(seats),
                why=_why(problem, members, natural, table, cost),
                paired_up=frozenset(problem.ids[i] for i in members if natural[i] > table),
                paired_down=frozenset(problem.ids[i] for i in members if natural[i] < table),
                repeats=problem.split(cost)[0],
            )
        )
    total = sum(costs)
    repeats, small_again = problem.split(total)
    notes = _notes(repeats, small_again, proven)
    return PodRound(tuple(built), repeats, small_again, notes, proven)


def _why(problem: Problem, members: list[int], natural: list[int], table: int, cost: int) -> str:
    repeats, small_again = problem.split(cost)
    if repeats:
        return REPEAT_WHY
    if small_again:
        return SMALL_AGAIN_WHY
    if any(natural[i] != table for i in members):
        return SWAP_WHY
    return SMALL_WHY if len(members) < problem.standard else ORDER_WHY


def _notes(repeats: int, small_again: int, proven: bool) -> tuple[str, ...]:
    notes: list[str] = []
    if repeats:
        notes.append(
            f"No arrangement without previous opponents was found: {repeats} repeat pair(s), flagged."
        )
    if small_again:
        notes.append(
            f"{small_again} player(s) sit in a smaller pod again: no arrangement avoiding it was found."
        )
    if not proven:
        notes.append("The repair search stopped early: a better arrangement may exist.")
    return tuple(notes)
