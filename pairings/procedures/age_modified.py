"""Age-modified Swiss: a pairing group of several age divisions is
paired division over record (P-AGE-3, R-5). Which divisions are paired together is set
when check-in closes (``pairings.checkin_services``, the group's ``divisions``); this module says whether a group is
age-modified and pairs a Swiss round of it, for the Swiss and Day 2 stages alike and for
a re-pair (``pairings.repair_services``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.models import PairingGroup

from ..engine import swiss
from ..engine.types import SwissPlayer, SwissRound


def is_age_modified(group: PairingGroup) -> bool:
    """A Swiss group of several age divisions is age-modified (P-AGE-3, R-5); a top-cut
    group never is. One query unless the group's ``divisions`` are prefetched."""
    return not group.is_cut and len(group.divisions.all()) > 1


def pair_swiss_round(players: Sequence[SwissPlayer], group: PairingGroup, seed: int) -> SwissRound:
    """One Swiss round of ``players`` of ``group`` from ``random.Random(seed)`` (I-1):
    age-modified when the group is (P-AGE-3), else plain Swiss (P-SW-1…8). Raises the
    engine's PairingImpossible."""
    return swiss.pair_swiss(players, rng=random.Random(seed), age_modified=is_age_modified(group))
