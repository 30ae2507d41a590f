"""Multiplayer pod events (docs/rules.md section 9): which events use pods and their standard
pod size (the points of a win are the ruleset's, ``event.rules.points_per_win``; the
P-RT-6 recommendation is the registry's).

Kept apart from the head-to-head code so pages and services ask ``uses_pods(event)``
instead of testing the ruleset id themselves. The round clock of every ruleset, pods'
MP-TIME-1 included, is in ``tournaments.clock``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulesets import get_ruleset
from rulesets.mtg_multiplayer import POD_CUT_SIZES, POD_SIZES, standard_size

__all__ = ["POD_CUT_SIZES", "POD_SIZES", "allowed_cuts", "pod_size", "uses_pods"]


def uses_pods(event: Any) -> bool:
    """True for events played in multiplayer pods (``MatchFormat.POD`` rulesets)."""
    return get_ruleset(event.ruleset).uses_pods


def allowed_cuts(ruleset: str) -> tuple[int, ...]:
    """Top-cut sizes an event of ``ruleset`` may announce (0 = none), from the registry:
    the pod cuts 4, 7, 10, 13, 16, 40, 64 (MP-SE-1, P-RT-6), else powers of two (P-TC-1)."""
    return get_ruleset(ruleset).allowed_cuts()


def pod_size(event: Any) -> int:
    """The event's standard pod size ``n`` (option ``pod_size``, 4 or 3, default 4): the
    size tables are filled to (MP-POD-1) and the ``2n − 1`` points of a win (MP-PTS-1)."""
    return standard_size(event.options)


def match_points_rule(event: Any) -> Callable[[int, int], int]:
    """``(wins, draws) → match points`` for the event's pages, from the ruleset's points
    and the event's options (MP-PTS-1 for pods: 2n − 1 per win, 1 per shared draw)."""
    ruleset, options = get_ruleset(event.ruleset), dict(event.options or {})
    return lambda wins, draws: ruleset.match_points(wins, draws, options)
