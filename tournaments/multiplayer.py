"""Multiplayer pod events (RULES.md section 9): which events use pods, their standard pod
size, the P-RT-6 recommendation and the round clock (MP-TIME-1).

Kept apart from the head-to-head code so pages and services ask ``uses_pods(event)``
instead of testing the ruleset id themselves. The clock functions are pure: they take
the round's start and the server's "now" and return seconds, so every phone and
projector shows the same time whatever its own clock says.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .round_tables import recommend
from .rulesets import get_ruleset

POD_RULESET = "mtg-multiplayer"
POD_SIZES = (4, 3)
POD_CUT_SIZES = (4, 7, 10, 13, 16, 40, 64)  # MP-SE-1 (pairings.engine.pod_elimination)
BRACKET_CUTS = (2, 4, 8, 16, 32, 64)  # head-to-head brackets: powers of two (P-TC-1)
SWISS_SECONDS = 80 * 60  # MP-TIME-1: Swiss rounds are 80 minutes
LAST_TURN_SECONDS = 30 * 60  # MP-TIME-1: the hard last-turn limit after time is called
INTENTIONAL_DRAW_SECONDS = 150 * 60  # MP-TIME-1: top cut after an intentional draw


def uses_pods(event: Any) -> bool:
    """True for events played in multiplayer pods (the ``mtg-multiplayer`` ruleset)."""
    return bool(event.ruleset == POD_RULESET)


def allowed_cuts(ruleset: str) -> tuple[int, ...]:
    """Top-cut sizes an event of ``ruleset`` may announce (0 = none): the pod cuts 4, 7,
    10, 13, 16, 40, 64 for multiplayer pods (MP-SE-1, P-RT-6), else powers of two (P-TC-1)."""
    return (0, *(POD_CUT_SIZES if ruleset == POD_RULESET else BRACKET_CUTS))


def pod_size(event: Any) -> int:
    """The event's standard pod size ``n`` (option ``pod_size``, 4 or 3, default 4): the
    size tables are filled to (MP-POD-1) and the ``2n − 1`` points of a win (MP-PTS-1)."""
    size = int((event.options or {}).get("pod_size", 4))
    return size if size in POD_SIZES else 4


def points_per_win(event: Any) -> int:
    """MP-PTS-1: ``2n − 1`` match points per win (7 with pods of 4, also in a pod of 3)."""
    return 2 * pod_size(event) - 1


def match_points_rule(event: Any) -> Callable[[int, int], int]:
    """``(wins, shared draws) → match points`` for the event's pages: ``2n − 1`` per win
    and 1 per draw the player shared (MP-PTS-1, the standings strategy's own
    ``points_per_win``) for pod events, the ruleset's table otherwise."""
    if not uses_pods(event):
        return get_ruleset(event.ruleset).match_points
    per_win = points_per_win(event)
    return lambda wins, draws: wins * per_win + draws


def pod_recommendation(players: int) -> tuple[int, int]:
    """``(Swiss rounds, top cut)`` recommended for ``players`` in pods of 4 (P-RT-6),
    each smaller pod counting as one more player; ``(0, 0)`` below 4 players."""
    if players < 4:
        return 0, 0
    found = recommend(POD_RULESET, players)
    return found.rounds, found.cut


@dataclass(frozen=True)
class Clock:
    """What the round clock shows (MP-TIME-1), all times in seconds.

    elapsed: since the round started (server time). limit: the time allowed, or None
    when the round is untimed. remaining: until ``limit`` (negative once past it).
    phase: ``untimed``, ``playing``, ``last-turn`` (time called: the active player
    finishes the turn within the 30-minute limit) or ``over``.
    """

    elapsed: int
    limit: int | None
    remaining: int | None
    phase: str
    label: str


def round_clock(
    *,
    started_at: dt.datetime,
    now: dt.datetime,
    elimination: bool,
    final: bool = False,
    intentional_draw: bool = False,
) -> Clock:
    """The clock of a round at the server's ``now`` (MP-TIME-1).

    Swiss: 80 minutes, then the last turn with a hard 30-minute limit (the match is a
    draw when it runs out). Top cut: untimed, except that after the first intentional
    draw in a pod a 150-minute limit from the round start applies; the final is never
    timed.
    """
    elapsed = max(0, int((now - started_at).total_seconds()))
    if elimination:
        if final or not intentional_draw:
            return Clock(elapsed, None, None, "untimed", "Untimed (top cut)")
        limit = INTENTIONAL_DRAW_SECONDS
        phase = "playing" if elapsed < limit else "over"
        return Clock(elapsed, limit, limit - elapsed, phase, "150-minute limit (intentional draw)")
    if elapsed < SWISS_SECONDS:
        return Clock(elapsed, SWISS_SECONDS, SWISS_SECONDS - elapsed, "playing", "Round time")
    limit = SWISS_SECONDS + LAST_TURN_SECONDS
    if elapsed < limit:
        return Clock(elapsed, limit, limit - elapsed, "last-turn", "Time: last turn")
    return Clock(elapsed, limit, limit - elapsed, "over", "Last-turn limit reached: draw")


def clock_text(seconds: int | None) -> str:
    """``4830`` → ``"80:30"``; negative → ``"-0:05"``; None → ``"–"``."""
    if seconds is None:
        return "–"
    sign = "-" if seconds < 0 else ""
    minutes, secs = divmod(abs(seconds), 60)
    return f"{sign}{minutes}:{secs:02d}"
