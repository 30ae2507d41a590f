"""Single-elimination top cut in multiplayer pods (MP-SE-1, MP-SE-2, MP-SEAT-1, I-3) and
the recommended event structure (P-RT-6).

Seeds are 1-based positions in the list the caller passes (seed 1 first): the final
Swiss standings. Every cut ends in one final pod of 4. An uneven cut gives byes to the
top seeds so that the next round has a multiple of 4 players (MP-SE-1):

=====  =========================================  ============================
cut    first round                                then
=====  =========================================  ============================
4      the final: seeds 1–4                       —
7      seeds 1–3 bye, seeds 4–7 one pod           final
10     seeds 1–2 bye, seeds 3–10 two pods         final
13     seed 1 bye, seeds 2–13 three pods          final
16     four pods                                  final
40     seeds 1–8 bye, seeds 9–40 eight pods       four pods, final
64     sixteen pods                               four pods, final
=====  =========================================  ============================

Players are spread over the pods of a round by the snake of I-3 (top 16 → {1, 8, 9, 16},
{2, 7, 10, 15}, {3, 6, 11, 14}, {4, 5, 12, 13}); later rounds snake the players still in,
ordered by their Swiss seed. Seats (and turn order) follow the Swiss seed, best first
(MP-SEAT-1). Table 1 holds the best seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ._pods_types import Pod
from .errors import PairingImpossible
from .pods import pod_sizes

POD_CUTS = (4, 7, 10, 13, 16, 40, 64)
FINAL_SIZE = 4

# P-RT-6: (most players, Swiss rounds, cut); 0 Swiss rounds = one single-elimination pod.
STRUCTURE_ROWS = (
    (5, 0, 0),
    (16, 2, 4),
    (24, 3, 7),
    (32, 4, 10),
    (40, 5, 13),
    (64, 5, 16),
    (128, 6, 16),
    (256, 7, 40),
    (512, 8, 40),
)
LARGEST_STRUCTURE = (9, 64)


@dataclass(frozen=True, slots=True)
class PodCutRound:
    """One round of a pod top cut.

    pods: the pods played, table 1 first, seats in Swiss-seed order (MP-SEAT-1).
    byes: ids of the top seeds who skip this round, best seed first (MP-SE-1).
    """

    pods: tuple[Pod, ...]
    byes: tuple[str, ...] = ()

    @property
    def is_final(self) -> bool:
        return len(self.pods) == 1 and not self.byes


class MultiplayerStructure(NamedTuple):
    """Recommended structure (P-RT-6): Swiss rounds and top cut size; ``cut == 0`` with
    ``swiss_rounds == 0`` means no Swiss and no cut: everyone plays one pod."""

    swiss_rounds: int
    cut: int


def cut_rounds(cut: int) -> tuple[tuple[int, int], ...]:
    """``(byes, pods)`` for every round of a top cut of ``cut`` players (MP-SE-1).

    ``cut_rounds(40) == ((8, 8), (0, 4), (0, 1))``; ``cut_rounds(7) == ((3, 1), (0, 1))``.
    Each round's pods have 4 players; its byes plus pod winners make the next round.

    Raises PairingImpossible unless ``cut`` is one of :data:`POD_CUTS`.
    """
    if cut not in POD_CUTS:
        sizes = ", ".join(map(str, POD_CUTS))
        raise PairingImpossible(f"A multiplayer top cut has {sizes} players, not {cut}.")
    rounds: list[tuple[int, int]] = []
    players = cut
    while players > FINAL_SIZE:
        target = FINAL_SIZE  # the next round: the power of 4 just below ``players``
        while target * FINAL_SIZE < players:
            target *= FINAL_SIZE
        pods = (players - target) // (FINAL_SIZE - 1)
        rounds.append((target - pods, pods))
        players = target
    return (*rounds, (0, 1))


def snake_pods(seeds: Sequence[str], pods: int) -> tuple[tuple[str, ...], ...]:
    """Spread ``seeds`` (best first) over ``pods`` pods in snake order (I-3).

    Seeds 1..p go to pods 1..p, seeds p+1..2p back from pod p to pod 1, and so on:
    16 seeds in 4 pods → (1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13).
    Each pod lists its players best seed first. Raises ValueError unless ``pods`` ≥ 1
    divides the number of seeds.
    """
    if pods < 1 or len(seeds) % pods:
        raise ValueError(f"{len(seeds)} seeds cannot be split into {pods} equal pods")
    groups: list[list[str]] = [[] for _ in range(pods)]
    for k, player in enumerate(seeds):
        row, col = divmod(k, pods)
        groups[col if row % 2 == 0 else pods - 1 - col].append(player)
    return tuple(tuple(group) for group in groups)


def pod_cut_first_round(seeds: Sequence[str]) -> PodCutRound:
    """First round of a pod top cut (MP-SE-1, I-3, MP-SEAT-1).

    Input: the ids of the cut in final Swiss order (seed 1 first); their number is a cut
    size of :data:`POD_CUTS`. Output: the byes (top seeds) and the pods of 4 built by the
    snake from the other seeds; for a top 4, the final pod itself.

    Raises PairingImpossible for another number of players or an id listed twice.
    """
    _check_unique(seeds)
    byes, _ = cut_rounds(len(seeds))[0]
    seed_of = {pid: k for k, pid in enumerate(seeds, start=1)}
    pods = _pods(seeds[byes:], seed_of, final=byes == 0 and len(seeds) == FINAL_SIZE)
    return PodCutRound(pods=pods, byes=tuple(seeds[:byes]))


def pod_cut_next_round(advancing: Sequence[str], seed_of: Mapping[str, int]) -> PodCutRound:
    """A later round: the players still in (byes and pod winners, any order) ordered by
    their Swiss seed and snaked into pods of 4 (I-3); 4 players make the final.

    ``seed_of`` maps every id to its Swiss seed (1 = best). Raises PairingImpossible
    unless 4, 16, 64, … distinct seeded players advance.
    """
    _check_unique(advancing)
    if len(advancing) < FINAL_SIZE or not _is_power_of_four(len(advancing)):
        raise PairingImpossible(f"{len(advancing)} players advance: the top cut is broken.")
    ordered = sorted(advancing, key=lambda pid: _seed(seed_of, pid))
    return PodCutRound(pods=_pods(ordered, seed_of, final=len(ordered) == FINAL_SIZE))


def pod_winner(
    pod: Pod,
    winner: str | None,
    seed_of: Mapping[str, int],
    *,
    excluded: frozenset[str] = frozenset(),
) -> str:
    """Who advances from a top-cut pod: the reported ``winner``, or for a draw (``None``)
    the player with the best Swiss seed (MP-SE-2) among those not ``excluded`` (players
    who conceded or received a match loss cannot win the draw, MP-PTS-1).

    Raises PairingImpossible when the winner did not play in the pod or everyone is
    excluded.
    """
    if winner is not None:
        if winner not in pod.players:
            raise PairingImpossible(f"{winner} did not play at table {pod.table}.")
        return winner
    eligible = [pid for pid in pod.players if pid not in excluded]
    if not eligible:
        raise PairingImpossible(f"Table {pod.table}: nobody is left to win the drawn pod.")
    return min(eligible, key=lambda pid: _seed(seed_of, pid))


def advancing_players(
    played: PodCutRound, winners: Mapping[int, str | None], seed_of: Mapping[str, int]
) -> tuple[str, ...]:
    """Byes and pod winners of a round, best seed first; ``winners`` maps every table to
    its winner or ``None`` for a draw (MP-SE-2 decides). Raises PairingImpossible when a
    table has no result."""
    chosen: list[str] = list(played.byes)
    for pod in played.pods:
        if pod.table not in winners:
            raise PairingImpossible(f"Table {pod.table} has no result yet.")
        chosen.append(pod_winner(pod, winners[pod.table], seed_of))
    return tuple(sorted(chosen, key=lambda pid: _seed(seed_of, pid)))


def multiplayer_structure(players: int, *, small_pods: int | None = None) -> MultiplayerStructure:
    """Recommended Swiss rounds and top cut for 4-player pods (P-RT-6).

    Each smaller pod counts as one more invisible player: 30 players in two 3-pods use
    the row for 32 → 4 rounds, top 10. ``small_pods`` defaults to the smaller pods of a
    round of ``players`` (:func:`~pairings.engine.pods.pod_sizes`). 4–5 players →
    ``(0, 0)``: no Swiss, one single-elimination pod. The overlapping rows "257–512" and
    "512+" are read as 512 → 8 rounds, 513+ → 9 rounds, top 64.

    Raises PairingImpossible for fewer than 4 players, ValueError for negative
    ``small_pods``.
    """
    if players < FINAL_SIZE:
        raise PairingImpossible(f"A multiplayer event needs at least 4 players, got {players}.")
    if small_pods is None:
        small_pods = sum(1 for size in pod_sizes(players) if size < FINAL_SIZE)
    if small_pods < 0:
        raise ValueError(f"small_pods must be ≥ 0, got {small_pods}")
    effective = players + small_pods
    for most, rounds, cut in STRUCTURE_ROWS:
        if effective <= most:
            return MultiplayerStructure(rounds, cut)
    return MultiplayerStructure(*LARGEST_STRUCTURE)


def _pods(ordered: Sequence[str], seed_of: Mapping[str, int], *, final: bool) -> tuple[Pod, ...]:
    """Snake ``ordered`` into pods of 4 with tables, seats and explanations; ``final``:
    the round is the cut's final (one pod and no bye: a first round of one pod beside
    byes is not)."""
    built: list[Pod] = []
    for table, group in enumerate(snake_pods(ordered, len(ordered) // FINAL_SIZE), start=1):
        seats = tuple(sorted(group, key=lambda pid: _seed(seed_of, pid)))  # MP-SEAT-1
        label = "top cut final" if final else "top cut"
        why = f"{label}: seeds {', '.join(str(seed_of[pid]) for pid in seats)}"
        built.append(Pod(table=table, players=seats, why=why))
    return tuple(built)


def _is_power_of_four(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0 and (n.bit_length() - 1) % 2 == 0


def _seed(seed_of: Mapping[str, int], player: str) -> int:
    try:
        return seed_of[player]
    except KeyError:
        raise PairingImpossible(f"{player} has no seed.") from None


def _check_unique(ids: Sequence[str]) -> None:
    repeated = sorted(pid for pid, k in Counter(ids).items() if k > 1)
    if repeated:
        raise PairingImpossible(f"Player listed twice: {', '.join(repeated)}.")
