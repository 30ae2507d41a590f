"""The round clock of every ruleset: how long a round has run and how long it has left,
by the server's clock, with pauses, time added to the round and a table's extension.

Pure functions (no Django): they take the round's times and the server's ``now`` and
return seconds, so every phone and projector shows the same time whatever its own clock
says. The time a round is allowed comes from the ruleset's declarations
(``Ruleset.round_seconds`` for Swiss rounds, ``elimination_seconds`` for top-cut and
single-elimination rounds, None = untimed). docs/rules.md gives no round time for head-to-head
rounds: each ruleset module declares its own (Pokémon 50 minutes, top cut 75; Pokémon
2009 30; Magic and best-of-3 50). Multiplayer pods (``Ruleset.uses_pods``) follow
MP-TIME-1: the last turn after time, the untimed top cut and the 150-minute limit after
an intentional draw.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from rulesets import Ruleset
from rulesets.i18n import gettext_noop  # labels translated where shown (|translated)

LAST_TURN_SECONDS = 30 * 60  # MP-TIME-1: the hard last-turn limit after time is called
INTENTIONAL_DRAW_SECONDS = 150 * 60  # MP-TIME-1: top cut after an intentional draw
MAX_ADDED_MINUTES = 60  # one press of "add time" or "extend" gives 1 to 60 minutes


@dataclass(frozen=True)
class RoundTimes:
    """A started round's clock as stored on the round (seconds, server times).

    started_at: when the round was started. paused_at: when the clock was paused, None
    while running. paused_seconds: the pauses that have ended, in total.
    added_seconds: time the staff added to the whole round.
    """

    started_at: dt.datetime
    paused_at: dt.datetime | None = None
    paused_seconds: int = 0
    added_seconds: int = 0

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


@dataclass(frozen=True)
class Clock:
    """What the round clock shows, all times in seconds.

    elapsed: playing time since the round started (pauses left out). limit: the time
    allowed (the ruleset's, plus added time and a table's extension), or None when the
    round is untimed. remaining: until ``limit`` (negative once past it). phase:
    ``untimed``, ``playing``, ``last-turn`` (pods, MP-TIME-1: time was called, the
    active player finishes the turn within the 30-minute limit) or ``over``. paused:
    the clock is stopped (``elapsed`` stays at the pause moment).
    """

    elapsed: int
    limit: int | None
    remaining: int | None
    phase: str
    label: str
    paused: bool = False


def elapsed_seconds(times: RoundTimes, now: dt.datetime) -> int:
    """Whole seconds of play at ``now``: ``now − started_at − paused_seconds``; while
    paused, frozen at ``paused_at``. Never negative (a ``now`` before the start is 0)."""
    until = times.paused_at if times.paused_at is not None else now
    seconds = (until - times.started_at).total_seconds() - times.paused_seconds
    return max(0, int(seconds))


def round_clock(
    *,
    rules: Ruleset,
    times: RoundTimes,
    now: dt.datetime,
    elimination: bool,
    final: bool = False,
    intentional_draw: bool = False,
    extra_seconds: int = 0,
) -> Clock:
    """The clock of a round (or of one table: ``extra_seconds``, its extension) at the
    server's ``now``.

    rules: the event's ruleset; pods (``rules.uses_pods``) follow MP-TIME-1 (see
    :func:`pod_clock`), head-to-head rounds count down from ``rules.round_seconds`` or,
    in an elimination round, ``rules.elimination_seconds`` (None: untimed). The round's
    added time and the table's ``extra_seconds`` lengthen the limit. Raises nothing.
    """
    elapsed = elapsed_seconds(times, now)
    extra = times.added_seconds + extra_seconds
    if rules.uses_pods:
        clock = pod_clock(
            elapsed,
            swiss_seconds=rules.round_seconds,
            extra_seconds=extra,
            elimination=elimination,
            final=final,
            intentional_draw=intentional_draw,
        )
    else:
        base = rules.elimination_seconds if elimination else rules.round_seconds
        clock = timed_clock(elapsed, base=base, extra_seconds=extra)
    return replace(clock, paused=True, label=gettext_noop("Paused")) if times.paused else clock


def timed_clock(elapsed: int, *, base: int | None, extra_seconds: int = 0) -> Clock:
    """A head-to-head round: ``base`` seconds (None: untimed) plus ``extra_seconds``,
    then time is over. docs/rules.md is silent on head-to-head round times; the ruleset
    modules declare them."""
    if base is None:
        return Clock(elapsed, None, None, "untimed", gettext_noop("Untimed"))
    limit = base + extra_seconds
    if elapsed < limit:
        return Clock(elapsed, limit, limit - elapsed, "playing", gettext_noop("Round time"))
    return Clock(elapsed, limit, limit - elapsed, "over", gettext_noop("Time"))


def pod_clock(
    elapsed: int,
    *,
    swiss_seconds: int | None,
    extra_seconds: int = 0,
    elimination: bool,
    final: bool = False,
    intentional_draw: bool = False,
) -> Clock:
    """A multiplayer pod round (MP-TIME-1) at ``elapsed`` seconds of play.

    Swiss: ``swiss_seconds`` (80 minutes) plus ``extra_seconds``, then the last turn
    with a hard 30-minute limit (the match is a draw when it runs out). Top cut:
    untimed, except that after the first intentional draw in a pod a 150-minute limit
    from the round start applies (plus ``extra_seconds``); the final is never timed.
    """
    if elimination:
        if final or not intentional_draw:
            return Clock(elapsed, None, None, "untimed", "Untimed (top cut)")
        limit = INTENTIONAL_DRAW_SECONDS + extra_seconds
        phase = "playing" if elapsed < limit else "over"
        return Clock(elapsed, limit, limit - elapsed, phase, "150-minute limit (intentional draw)")
    if swiss_seconds is None:
        return Clock(elapsed, None, None, "untimed", gettext_noop("Untimed"))
    swiss = swiss_seconds + extra_seconds
    if elapsed < swiss:
        return Clock(elapsed, swiss, swiss - elapsed, "playing", gettext_noop("Round time"))
    limit = swiss + LAST_TURN_SECONDS
    if elapsed < limit:
        return Clock(elapsed, limit, limit - elapsed, "last-turn", gettext_noop("Time: last turn"))
    return Clock(
        elapsed, limit, limit - elapsed, "over", gettext_noop("Last-turn limit reached: draw")
    )


def clock_text(seconds: int | None) -> str:
    """``4830`` → ``"80:30"``; negative → ``"-0:05"``; None → ``"–"``."""
    if seconds is None:
        return "–"
    sign = "-" if seconds < 0 else ""
    minutes, secs = divmod(abs(seconds), 60)
    return f"{sign}{minutes}:{secs:02d}"


def minutes_text(seconds: int) -> str:
    """A table's extension or the round's added time as staff say it: 180 → ``"+3 min"``."""
    return f"+{seconds // 60} min"
