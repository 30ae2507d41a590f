"""Standings of a flighted division: the flights merged into one list (P-FL-5).

Each flight is its own Swiss pairing group (its ``flight`` set, its parent the
division's group). The division's list starts
with the top cut taken equally from every flight and merged by Swiss standing and
tiebreakers (``standings.engine.flights.merged_cut``, its seed the last round's); the other
players follow by match points, tardiness, OWP, OOWP, then their place in their own
flight. Places are per division as always (R-5).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from tournaments.groups import swiss_group
from tournaments.models import Division, Event

from .day2_standings import _Row
from .engine.flights import FlightsRefused, merged_cut
from .swiss_standings import GroupStandings, dropped_below


def _rows(ps: GroupStandings) -> list[_Row]:
    regs = ps.registrations
    return [
        _Row(
            line.player,
            line.match_points,
            regs[line.player].dropped or regs[line.player].disqualified,
            regs[line.player].late,
            Fraction(line.tiebreakers.get("owp", 0)),
            Fraction(line.tiebreakers.get("oowp", 0)),
        )
        for line in ps.rows
    ]


def merged_standings(
    event: Event, division: Division, flights: Sequence[GroupStandings]
) -> GroupStandings:
    """One GroupStandings for the flighted ``division``'s group (P-FL-5, see the module
    notes) from ``flights``: each flight's own standings, flight 1 first."""
    group = swiss_group(division)
    rows = [_rows(ps) for ps in flights]
    cut: tuple[str, ...] = ()
    if division.cut and all(ps.rounds >= division.rounds for ps in flights):
        # the flights play the same round numbers: flight 1's last round, so the draw is
        # the same on every read (and after an event file's copy)
        seed = (
            event.rounds.filter(group__parent=group, group__flight__isnull=False)
            .order_by("-number", "group__flight")
            .first()
        )
        try:
            cut = merged_cut(rows, division.cut, rng=random.Random(seed.seed if seed else 0))
        except FlightsRefused:
            cut = ()
    rest = sorted(
        (
            (-r.match_points, r.late, -r.owp, -r.oowp, place, number, r.player)
            for number, flight in enumerate(rows)
            for place, r in enumerate(flight)
            if r.player not in cut
        )
    )
    lines = {line.player: line for ps in flights for line in ps.rows}
    order = [*cut, *(key[-1] for key in rest)]
    regs = {k: v for ps in flights for k, v in ps.registrations.items()}
    rounds = min(ps.rounds for ps in flights)
    ordered = dropped_below(event, [lines[p] for p in order], regs, rounds)
    sources = {k: v for ps in flights for k, v in ps.sources.items()}
    return GroupStandings(group, rounds, ordered, regs, sources)
