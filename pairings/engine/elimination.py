"""Single-elimination brackets: standalone (P-SE) and the top cut after Swiss (P-TC).

Seeds are 1-based positions in the list the caller passes (seed 1 first): the Swiss rank
for a top cut (P-TC-1), a random order for standalone single elimination (P-SE-1, see
:func:`random_seeding`). A round is a tuple of ``Pairing`` in *bracket-slot order*: slot
``i`` of the next round is fed by slots ``2i`` and ``2i + 1`` of this one. Matches get
tables 1, 2, … in that order; a first-round bye is a one-player ``Pairing`` with
``table=None`` that keeps its slot.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from standings.engine.placement import THIRD_PLACE_WHY

from .errors import PairingImpossible
from .types import Pairing


def bracket_order(size: int) -> tuple[int, ...]:
    """Seed numbers in bracket-slot order for a power-of-two bracket (P-SE-1).

    Seed 1 meets the lowest seed and the top seeds meet as late as possible:
    ``bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)``, so 1–8 and 4–5 feed one semi-final,
    2–7 and 3–6 the other. Built by doubling: each seed ``s`` of the bracket of half size
    is followed by its first-round opponent ``size + 1 - s``.

    Raises ValueError unless ``size`` is a power of two, at least 1.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, got {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return tuple(order)


def random_seeding(player_ids: Sequence[str], *, rng: random.Random) -> tuple[str, ...]:
    """Standalone single elimination assigns seeds at random (P-SE-1, I-1): the ids in a
    seeded random order, seed 1 first. The input order does not matter."""
    seeds = sorted(player_ids)
    rng.shuffle(seeds)
    return tuple(seeds)


def top_cut_pairings(seeds: Sequence[str]) -> tuple[Pairing, ...]:
    """First round of a top cut (P-TC-1): ids in Swiss rank order, a power of two ≥ 2.

    Returns one ``Pairing`` per match in bracket order, tables 1.., the higher seed first
    (P-TC-5), ``why`` like ``"top cut: seed 1 vs seed 8"``. No byes: raises
    PairingImpossible if the number of players is not a power of two, below 2, or an id
    repeats.
    """
    _check_players(seeds)
    if len(seeds) & (len(seeds) - 1):
        raise PairingImpossible(
            f"A top cut needs a power of two players (2, 4, 8, …), got {len(seeds)}."
        )
    return single_elimination_first_round(seeds, top_cut=True)


def single_elimination_first_round(
    seeds: Sequence[str], *, top_cut: bool = False
) -> tuple[Pairing, ...]:
    """First round of single elimination for any N ≥ 2 ids in seed order (P-SE-1, P-SE-2).

    With 2^k the smallest power of two ≥ N, the top 2^k − N seeds get a bye (53 players:
    11 byes) and every later round is complete. Returns 2^(k−1) slots in bracket order:
    a match ``Pairing`` (higher seed first, tables 1..) or a bye (one player,
    ``table=None``, ``why="bye: seed 1"``). ``top_cut`` prefixes ``why`` with
    ``"top cut: "``.

    Raises PairingImpossible for fewer than two players or a repeated id.
    """
    _check_players(seeds)
    size = 1 << (len(seeds) - 1).bit_length()
    order = bracket_order(size)
    prefix = "top cut: " if top_cut else ""
    slots: list[Pairing] = []
    table = 0
    for high, low in zip(order[::2], order[1::2], strict=True):
        if low > len(seeds):
            slots.append(Pairing(table=None, players=(seeds[high - 1],), why=f"bye: seed {high}"))
            continue
        table += 1
        why = f"{prefix}seed {high} vs seed {low}"
        slots.append(Pairing(table=table, players=(seeds[high - 1], seeds[low - 1]), why=why))
    return tuple(slots)


def slot_winners(previous: Sequence[Pairing], winners: Mapping[int, str]) -> tuple[str, ...]:
    """Who advances from each slot of a round: the winner reported for the slot's table
    (``winners`` maps table number to id), or the player of a bye.

    Raises PairingImpossible when a match has no winner or the winner did not play it.
    """
    advancing: list[str] = []
    for slot in previous:
        if slot.is_bye:
            advancing.append(slot.players[0])
            continue
        winner = winners.get(slot.table) if slot.table is not None else None
        if winner is None:
            raise PairingImpossible(f"Table {slot.table} has no winner yet.")
        if winner not in slot.players:
            raise PairingImpossible(f"{winner} did not play at table {slot.table}.")
        advancing.append(winner)
    return tuple(advancing)


def next_elimination_round(
    advancing: Sequence[str], seed_of: Mapping[str, int], *, top_cut: bool = False
) -> tuple[Pairing, ...]:
    """Pair the next round: the winners of slots 1 and 2 meet, then 3 and 4, …

    Input: the ids advancing, in the slot order of the previous round (see
    :func:`slot_winners`), and every player's seed (1 = best). Output: one ``Pairing``
    per match, tables 1.., the better seed first (P-TC-5), ``why`` like ``"seed 1 vs
    seed 4"`` (prefixed ``"top cut: "`` when ``top_cut``). No byes after round 1 (P-SE-2).

    Raises PairingImpossible for fewer than two players, an odd number of them (the
    previous round was not complete), a repeated id or a player without a seed.
    """
    _check_players(advancing)
    if len(advancing) % 2:
        raise PairingImpossible(f"{len(advancing)} players advance: the bracket is broken.")
    prefix = "top cut: " if top_cut else ""
    rounds: list[Pairing] = []
    for table, (a, b) in enumerate(zip(advancing[::2], advancing[1::2], strict=True), 1):
        (sa, a), (sb, b) = sorted(((_seed(seed_of, a), a), (_seed(seed_of, b), b)))
        rounds.append(Pairing(table=table, players=(a, b), why=f"{prefix}seed {sa} vs seed {sb}"))
    return tuple(rounds)


def third_place_playoff(
    semi_finals: Sequence[Pairing], winners: Mapping[int, str], seed_of: Mapping[str, int]
) -> Pairing:
    """The optional 3rd/4th place match between the two semi-final losers (P-SE-6,
    P-TC-4), better seed first. Table 2: the final, paired from the same semi-finals by
    :func:`next_elimination_round`, is table 1.

    Raises PairingImpossible unless there are exactly two semi-finals with winners.
    """
    matches = [p for p in semi_finals if not p.is_bye]
    if len(matches) != 2:
        raise PairingImpossible(f"A 3rd/4th playoff needs two semi-finals, got {len(matches)}.")
    advancing = slot_winners(matches, winners)
    losers = [next(x for x in m.players if x != w) for m, w in zip(matches, advancing, strict=True)]
    a, b = sorted(losers, key=lambda x: _seed(seed_of, x))
    why = f"{THIRD_PLACE_WHY}: seed {seed_of[a]} vs seed {seed_of[b]}"
    return Pairing(table=2, players=(a, b), why=why)


def _seed(seed_of: Mapping[str, int], player: str) -> int:
    try:
        return seed_of[player]
    except KeyError:
        raise PairingImpossible(f"{player} has no seed.") from None


def _check_players(ids: Sequence[str]) -> None:
    if len(ids) < 2:
        raise PairingImpossible(f"Single elimination needs at least two players, got {len(ids)}.")
    if len(set(ids)) != len(ids):
        repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
        raise PairingImpossible(f"Player listed twice: {', '.join(repeated)}.")


def draft_playoff_pairings(seats: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Quarter-finals of a draft playoff (M-SE-1): seats 1 v 5, 3 v 7, 2 v 6, 4 v 8.

    seats: the 8 players in draft-seat order (seat 1 first, seats assigned at random).
    Returns the four matches in bracket-slot order: the winners of slots 1 and 2 (1/5 and
    3/7) meet in a semi-final, as do those of slots 3 and 4. Raises ValueError unless
    there are exactly 8 distinct players. (The standard top 8 is P-SE-1 order, see
    :func:`top_cut_pairings`.)
    """
    if len(seats) != 8 or len(set(seats)) != 8:
        raise ValueError(f"a draft playoff needs 8 distinct players, got {len(seats)}")
    return tuple((seats[a - 1], seats[a + 3]) for a in (1, 3, 2, 4))
