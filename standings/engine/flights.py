"""The top cut of a flighted division (P-FL-5): how many each flight sends, and their
merged seeding.

Decision where the rules are silent: the merge orders by match points, then on-time
before late (P-TB-1), OWP, OOWP; players of the same flight keep their flight order; a
tie across flights after all that goes to the better place in its own flight, then at
random (I-6). Dropped players are passed over. Splitting a division into flights is
``pairings.engine.flights``'s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol

MIN_FROM_EACH = 2


class FlightsRefused(Exception):
    """Flights, or their top cut, are not allowed here (P-FL-1, P-FL-5); ``reasons`` holds
    one sentence per broken rule: an organiser can act on it."""

    def __init__(self, reasons: Sequence[str]) -> None:
        self.reasons = tuple(reasons)
        super().__init__(" ".join(self.reasons))


class FlightStanding(Protocol):
    """What the merge reads from a standings row (``StandingRow`` fits)."""

    @property
    def player(self) -> str: ...
    @property
    def match_points(self) -> int: ...
    @property
    def late(self) -> bool: ...
    @property
    def dropped(self) -> bool: ...
    @property
    def owp(self) -> Fraction: ...
    @property
    def oowp(self) -> Fraction: ...


def per_flight_cut(cut: int, flights: int) -> int:
    """Players each flight sends to the top cut: the same from every flight, at least 2
    (P-FL-5: top 8 from 2 flights → 4 each, from 4 flights → 2 each). Raises
    FlightsRefused when the cut does not split that way."""
    each, rest = divmod(cut, flights)
    if rest or each < MIN_FROM_EACH:
        raise FlightsRefused(
            (
                f"A top {cut} cannot take the same number, at least {MIN_FROM_EACH}, from "
                f"each of {flights} flights.",
            )
        )
    return each


def merged_cut(
    flight_standings: Sequence[Sequence[FlightStanding]], cut: int, *, rng: random.Random
) -> tuple[str, ...]:
    """Top cut seeds from flights (P-FL-5): the best ``cut / flights`` players still in of
    each flight, merged by Swiss standing and tiebreakers (module notes), seed 1 first.

    flight_standings: each flight's final Swiss standings, best first. Raises
    FlightsRefused when ``cut`` does not split equally (at least 2 per flight) or a
    flight has too few players still in.
    """
    each = per_flight_cut(cut, len(flight_standings))
    entries: list[tuple[tuple[int, bool, Fraction, Fraction, int, float], str]] = []
    for number, rows in enumerate(flight_standings, start=1):
        active = [r for r in rows if not r.dropped][:each]
        if len(active) < each:
            raise FlightsRefused((f"Flight {number} has only {len(active)} players still in.",))
        for place, r in enumerate(active):
            key = (-r.match_points, r.late, -r.owp, -r.oowp, place, rng.random())
            entries.append((key, r.player))
    return tuple(player for _, player in sorted(entries))
