"""The projector's round clock (MP-TIME-1): each live round of the event, how long it has
run by the server's clock, its time limit, and the pods still playing."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..models import Event, Match, Outcome, Round, RoundStatus
from ..multiplayer import Clock, clock_text, round_clock
from ..pods import pod_label
from .rounds import ELIMINATION_PHASES


@dataclass(frozen=True)
class RoundClock:
    """One started round on the projector: the clock, its text, and the tables still
    playing. ``started_ms`` and ``limit_s`` let the page's script count on in step with
    the server (it never trusts the device's own clock for the start)."""

    round: Round
    label: str
    clock: Clock
    text: str
    playing: tuple[int, ...]
    started_ms: int
    final: bool


def _round_clock(rnd: Round, now: dt.datetime) -> RoundClock:
    matches = list(
        Match.objects.filter(round=rnd).values_list("table", "outcome", "intentional_draw_at")
    )
    elimination = rnd.phase in ELIMINATION_PHASES
    final = elimination and len(matches) == 1  # one pod and no byes: the final
    started = rnd.started_at or now
    clock = round_clock(
        started_at=started,
        now=now,
        elimination=elimination,
        final=final,
        # MP-TIME-1: the first intentional draw noted in a pod (Match.intentional_draw_at)
        intentional_draw=elimination and any(at is not None for _, _, at in matches),
    )
    playing = tuple(sorted(t for t, o, _ in matches if o == Outcome.PENDING and t))
    shown = clock.remaining if clock.limit is not None else clock.elapsed
    return RoundClock(
        rnd,
        f"{pod_label(rnd.pod)} · Round {rnd.number}",
        clock,
        clock_text(shown),
        playing,
        int(started.timestamp() * 1000),
        final,
    )


def timer_for_public(event: Event, now: dt.datetime) -> list[RoundClock]:
    """Every started round of the event with its clock at the server's ``now``."""
    rounds = Round.objects.filter(event=event, status=RoundStatus.STARTED).order_by("pod")
    return [_round_clock(r, now) for r in rounds]
