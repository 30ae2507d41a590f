"""Input and output shapes of the multiplayer pod engines (MP-*), re-exported by
:mod:`pairings.engine.pods`.

Frozen dataclasses of plain values, like :mod:`pairings.engine.types` (which holds the
head-to-head shapes): the adapters build these from the database, the engines never see
a model.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class PodPlayer:
    """One player eligible to be seated in the next Swiss pod round.

    id: the registration id as a string.
    match_points: points so far in this phase (MP-PTS-1: 2n−1 per win, 1 per draw).
    rank: the player's place in the current standings, 1 = first (MP-TB order: match
        points, MWP, OAMP, OMWP, as computed by ``standings.engine.multiplayer``). Any
        integer works where lower means better among equal match points; players with
        equal ``(match_points, rank)`` are ordered at random (round 1: everyone, I-1).
    opponents: ids of everyone this player already shared a pod with in this phase
        (MP-PAIR-1). Ids of players who are not in the round are ignored.
    small_pods: how many smaller pods (fewer than the standard size) the player already
        sat in during this event (MP-POD-2).
    """

    id: str
    match_points: int = 0
    rank: int = 0
    opponents: frozenset[str] = field(default_factory=frozenset)
    small_pods: int = 0


@dataclass(frozen=True, slots=True)
class Pod:
    """One table of a pod round (Swiss or top cut).

    table: 1-based table number; table 1 holds the best players (standings order).
    players: ids in seat order; seat 1 takes the first turn (MP-SEAT-1: random in Swiss,
        by Swiss standing in the top cut).
    why: a short human explanation ("standings order", "smaller pod", "top cut: seeds 1,
        8, 9, 16", "repeat opponents: no alternative").
    paired_up / paired_down: ids of players seated in a pod above / below the one the
        plain top-to-bottom fill of the standings would give them (MP-PAIR-1 swaps).
    repeats: pairs of players in this pod who already shared a pod (only when no
        arrangement without them was found, MP-PAIR-1).
    """

    table: int
    players: tuple[str, ...]
    why: str = ""
    paired_up: frozenset[str] = frozenset()
    paired_down: frozenset[str] = frozenset()
    repeats: int = 0

    @property
    def size(self) -> int:
        return len(self.players)


@dataclass(frozen=True, slots=True)
class PodRound:
    """The engine's answer for one Swiss round of pods.

    pods: one :class:`Pod` per table, table 1 first.
    repeats: pairs of previous opponents seated together, over all pods (MP-PAIR-1).
    small_pod_repeats: players seated in a smaller pod for the second (or later) time
        (MP-POD-2).
    notes: sentences for the organiser about anything unusual (an unavoidable repeat,
        a player in a smaller pod again, a search that could not prove its result).
    proven_optimal: False only when the engine had to stop a repair search before it
        could prove that no better arrangement exists; the round is valid either way.
    """

    pods: tuple[Pod, ...]
    repeats: int = 0
    small_pod_repeats: int = 0
    notes: tuple[str, ...] = ()
    proven_optimal: bool = True
