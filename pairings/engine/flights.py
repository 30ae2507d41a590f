"""Flights: one large age division split into random groups for the Swiss (P-FL-1 … P-FL-5).

Players of a flight only meet players of the same flight in the Swiss rounds (each flight
is paired as its own pod with :func:`~pairings.engine.swiss.pair_swiss`); the top cut takes
the same number from every flight and seeds them by Swiss standing (P-FL-5).

Decisions where the rules are silent:

* P-FL-3 "as equal as possible, only one flight odd when the total is odd": sizes are as
  equal as possible *among even sizes*, then the odd player (if any) joins a smallest
  flight. 143 in 4 → 36, 36, 36, 35 (the seed's example); 142 in 4 → 36, 36, 36, 34 (no
  flight odd, so no flight needs a bye). Larger flights come first.
* P-FL-4: "the flight that started smaller" is read on the starting sizes plus the late
  players already added, never minus drops (flights are not rebalanced); ties at random.

The top cut taken from the flights and merged (P-FL-5) is a standings order:
``standings.engine.flights`` (``per_flight_cut``, ``merged_cut``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from standings.engine.flights import MIN_FROM_EACH, FlightsRefused

FLIGHT_COUNTS = (2, 4, 8, 16)
MIN_DIVISION = 64
MIN_FLIGHT = 32


@dataclass(frozen=True, slots=True)
class FlightPlan:
    """One way to flight a division: sizes at the start, Swiss rounds per flight, and how
    many players of each flight make the top cut."""

    flights: int
    sizes: tuple[int, ...]
    rounds: int
    per_flight_cut: int


def flight_refusals(
    players: int, flights: int, *, swiss_plus_top_cut: bool = True, age_separated: bool = True
) -> tuple[str, ...]:
    """Every reason flights are not allowed (P-FL-1); empty when they are.

    players: in the age division; flights: how many. Refused unless the event is Swiss
    plus single elimination, age-separated (P-AGE-2), the division has ≥ 64 players,
    every flight ≥ 32, and there are 2, 4, 8 or 16 flights.
    """
    reasons = []
    if not swiss_plus_top_cut:
        reasons.append("Flights are only for Swiss plus single elimination events.")
    if not age_separated:
        reasons.append("Flights need an age-separated event (6+ players in every division).")
    if players < MIN_DIVISION:
        reasons.append(
            f"Flights need at least {MIN_DIVISION} players in the division, got {players}."
        )
    if flights not in FLIGHT_COUNTS:
        reasons.append(f"The number of flights must be 2, 4, 8 or 16, got {flights}.")
    else:
        smallest = min(flight_sizes(players, flights)) if players >= flights else 0
        if smallest < MIN_FLIGHT:
            reasons.append(
                f"{flights} flights of {players} players leave a flight of {smallest}: "
                f"each flight needs at least {MIN_FLIGHT}."
            )
    return tuple(reasons)


def check_flights(
    players: int, flights: int, *, swiss_plus_top_cut: bool = True, age_separated: bool = True
) -> None:
    """Raise :class:`FlightsRefused` with every reason when flights are not allowed (P-FL-1)."""
    reasons = flight_refusals(
        players, flights, swiss_plus_top_cut=swiss_plus_top_cut, age_separated=age_separated
    )
    if reasons:
        raise FlightsRefused(reasons)


def flight_sizes(players: int, flights: int) -> tuple[int, ...]:
    """Starting flight sizes, largest first, at most one odd (P-FL-3; see the module notes).

    Raises ValueError for fewer than one flight or more flights than players.
    """
    if flights < 1 or players < flights:
        raise ValueError(f"Cannot split {players} players into {flights} flights.")
    pairs, odd = divmod(players, 2)
    base, extra = divmod(pairs, flights)
    sizes = [2 * (base + (k < extra)) for k in range(flights)]
    if odd:
        sizes[sizes.index(min(sizes))] += 1
    return tuple(sorted(sizes, reverse=True))


def flight_rounds(base_rounds: int, flights: int) -> int:
    """Swiss rounds per flight: one fewer per doubling of flights (P-FL-2).

    base_rounds: the division's rounds without flights (from the round-count table; 512
    players → 9 in the seed's example). 8 flights → 6, 16 flights → 5. Raises ValueError
    for a flight count other than 1, 2, 4, 8, 16, or fewer than one round left.
    """
    if flights not in (1, *FLIGHT_COUNTS):
        raise ValueError(f"The number of flights must be 2, 4, 8 or 16, got {flights}.")
    rounds = base_rounds - (flights.bit_length() - 1)
    if rounds < 1:
        raise ValueError(f"{flights} flights leave no Swiss round of {base_rounds}.")
    return rounds


def flight_options(players: int, cut: int, *, base_rounds: int) -> tuple[FlightPlan, ...]:
    """Every allowed way to flight an age-separated Swiss plus SE division (P-FL-1 …
    P-FL-5): 143 Masters, top 8, 8 rounds unflighted → 2 flights of 72/71 with 7 rounds
    and top 4 each, or 4 flights of 36/36/36/35 with 6 rounds and top 2 each."""
    plans = []
    for flights in FLIGHT_COUNTS:
        if flight_refusals(players, flights) or cut % flights or cut // flights < MIN_FROM_EACH:
            continue
        rounds = base_rounds - (flights.bit_length() - 1)
        if rounds >= 1:
            plans.append(
                FlightPlan(flights, flight_sizes(players, flights), rounds, cut // flights)
            )
    return tuple(plans)


def assign_flights(
    player_ids: Sequence[str], flights: int, *, rng: random.Random
) -> tuple[tuple[str, ...], ...]:
    """Random flights of :func:`flight_sizes` (P-FL-3, I-1): the ids shuffled from a seeded
    generator (input order does not matter), flight 1 first. Raises ValueError for a
    repeated id or an impossible split; call :func:`check_flights` for the rules."""
    ids = sorted(player_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("A player is listed twice.")
    rng.shuffle(ids)
    groups, start = [], 0
    for size in flight_sizes(len(ids), flights):
        groups.append(tuple(ids[start : start + size]))
        start += size
    return tuple(groups)


def late_flight(sizes: Sequence[int], *, rng: random.Random) -> int:
    """Index (0 = flight 1) of the flight a late player joins (P-FL-4, P-LATE-2): the one
    that started smaller; a random one among the smallest.

    sizes: each flight's starting size plus the late players already added (never minus
    drops). Raises ValueError for no flights.
    """
    if not sizes:
        raise ValueError("There are no flights to join.")
    smallest = min(sizes)
    return rng.choice([k for k, size in enumerate(sizes) if size == smallest])
