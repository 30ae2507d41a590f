"""Age-modified Swiss: a pairing group of several age divisions (``junior+senior``) is
paired division over record (P-AGE-3, R-5). Which divisions are paired together is set
when check-in closes (``pairings.checkin_services``); this module says whether a group is
age-modified and pairs a Swiss round of it, for the Swiss and Day 2 stages alike and for
a re-pair (``pairings.repair_services``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.pods import CUT_SUFFIX

from ..engine import swiss
from ..engine.types import SwissPlayer, SwissRound


def is_age_modified(pod: str) -> bool:
    """A Swiss pod of several age divisions (``junior+senior``) is age-modified (P-AGE-3,
    R-5); a top-cut group never is."""
    return "+" in pod and not pod.endswith(CUT_SUFFIX)


def pair_swiss_round(players: Sequence[SwissPlayer], pod: str, seed: int) -> SwissRound:
    """One Swiss round of ``players`` of group ``pod`` from ``random.Random(seed)`` (I-1):
    age-modified when the group is (P-AGE-3), else plain Swiss (P-SW-1…8). Raises the
    engine's PairingImpossible."""
    return swiss.pair_swiss(players, rng=random.Random(seed), age_modified=is_age_modified(pod))
