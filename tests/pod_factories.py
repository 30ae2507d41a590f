"""Builders for multiplayer pod events (docs/rules.md section 9), through the services."""

from __future__ import annotations

from tests import factories
from tournaments import services
from tournaments.models import Outcome
from tournaments.services import Result
from tournaments.services.pod_events import pod_cut_set


def pod_event(n: int, *, by, rounds: int = 2, cut: int = 0, pod_size: int = 4, name="Pod Cup"):
    """A ``mtg-multiplayer`` event of ``n`` players (``Player 001`` …), ``rounds`` Swiss
    rounds and a pod top cut of ``cut``."""
    ev = factories.event_with_players(
        n,
        by=by,
        name=name,
        ruleset="mtg-multiplayer",
        swiss_rounds=rounds,
        options={"pod_size": pod_size},
    )
    if cut:
        pod_cut_set(event=ev, cut=cut, by=by)
    return ev


def seats(match):
    return [s.registration for s in match.seats.select_related("registration").order_by("seat")]


def play(rnd, by, pick=0):
    """Publish and start ``rnd``, then report every pod as won by its seat ``pick``."""
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
        services.slip_enter(
            match=m, result=Result.of(winner=seats(m)[min(pick, m.seats.count() - 1)]), by=by
        )
