"""Pairing the Day 2 Swiss rounds of a two-day event (P-D2-1, R-3).

Who makes Day 2 and the order after it are the standings' (``standings.engine.day2``).
Rematch avoidance applies within a phase, so Day 1 opponents may meet again on Day 2
(R-3): pass only Day 2 opponents to the pairing (:func:`day2_players`). Byes stay limited
to one per event (P-SW-5), so a Day 1 bye counts.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from .types import SwissPlayer


def day2_players(
    advancing: Sequence[str],
    match_points: Mapping[str, int],
    day2_opponents: Mapping[str, Collection[str]],
    had_bye: Collection[str],
    division: Mapping[str, str] | None = None,
) -> tuple[SwissPlayer, ...]:
    """The Day 2 Swiss input (R-3): the players still in, with their total match points
    (Day 1 + Day 2 so far), only their *Day 2* opponents (Day 1 rematches are allowed),
    and whether they had a bye on either day (P-SW-5). Raises KeyError for a player
    without match points."""
    return tuple(
        SwissPlayer(
            id=pid,
            match_points=match_points[pid],
            opponents=frozenset(day2_opponents.get(pid, ())),
            had_bye=pid in had_bye,
            division=(division or {}).get(pid, "open"),
        )
        for pid in advancing
    )
