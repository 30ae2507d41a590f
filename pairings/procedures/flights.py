"""Flights: splitting a large division into random groups for the Swiss (P-FL-1 … P-FL-5).

The organiser flights a division before round 1 (dashboard → Flights). Each flight is
then its own pairing group (``tournaments.groups.flight_group``: its ``flight`` set, its
parent the division's group);
the division plays one Swiss round fewer per doubling of flights (P-FL-2). A flight that
has played its Swiss waits for the others (:func:`next_step`); the top cut then takes the
same number from every flight and merges them (P-FL-5, the order is ``standings.
flight_standings``), and a late player joins the flight that started smaller (P-FL-4,
``pairings.engine.flights.late_flight``, drawn by ``tournaments.services.registration_batch``).
"""

from __future__ import annotations

import random
import secrets

from django.db import transaction
from django.db.models import Count, Q

from standings.engine.flights import FlightsRefused, per_flight_cut
from tournaments.actors import Actor
from tournaments.errors import InvalidInput
from tournaments.groups import flight_group, swiss_group
from tournaments.models import Division, Registration, RoundStatus, Structure
from tournaments.procedures import flights_possible
from tournaments.services import audit_log
from tournaments.stored_text import gettext_storable

from ..engine.flights import (
    FlightPlan,
    assign_flights,
    check_flights,
    flight_options,
    flight_rounds,
)
from .base import Group, Procedure, Step, StepKind


def next_step(group: Group) -> Step | None:
    """A flight that has played its Swiss waits while another flight of its division
    still plays (P-FL-5: the merged cut needs every flight's standings)."""
    siblings = group.event.groups.filter(parent=group.row.parent_id, flight__isnull=False)
    done = Count("rounds", filter=Q(rounds__status=RoundStatus.COMPLETE))
    busy = [
        str(flight)
        for flight, complete in siblings.annotate(n=done)
        .order_by("flight")
        .values_list("flight", "n")
        if complete < group.swiss_total
    ]
    if not busy:
        return None
    message = gettext_storable("Waiting for flight %(flights)s to finish the Swiss.") % {
        "flights": ", ".join(busy)
    }
    return Step(StepKind.WAIT, group.number, message, group.last)


PROCEDURE = Procedure(next_step, None)


def _shares_group(division: Division) -> bool:
    """The division is paired with others (age-modified, P-AGE-3): no flights (P-FL-1)."""
    return len(swiss_group(division).divisions.all()) > 1


def _active(division: Division) -> list[Registration]:
    return list(division.registrations.filter(disqualified=False, dropped_after_round__isnull=True))


def _refusals(division: Division, flights: int) -> None:
    """Raise InvalidInput with every reason flights are refused here (P-FL-1); a ruleset
    without flights (``Features.flights``) refuses them outright."""
    event = division.event
    if not event.rules.features.flights:
        raise InvalidInput(
            gettext_storable("The %(label)s rules do not play in flights.")
            % {"label": event.rules.label}
        )
    separated = not _shares_group(division) and event.age_style != "age-modified"
    try:
        check_flights(
            len(_active(division)),
            flights,
            swiss_plus_top_cut=event.structure == Structure.SWISS_TOP_CUT,
            age_separated=separated,
        )
        per_flight_cut(division.cut, flights)
    except FlightsRefused as e:
        raise InvalidInput(" ".join(e.reasons)) from None


def division_flight_options(division: Division) -> tuple[FlightPlan, ...]:
    """The allowed ways to flight ``division`` now (P-FL-1, P-FL-2, P-FL-5); none for a
    ruleset without flights."""
    if not flights_possible(division.event) or _shares_group(division):
        return ()
    return flight_options(len(_active(division)), division.cut, base_rounds=division.rounds)


@transaction.atomic
def flights_assign(
    *, division: Division, flights: int, by: Actor, seed: int | None = None
) -> Division:
    """Split ``division`` into ``flights`` random flights (P-FL-1 … P-FL-3, I-1) before
    round 1, and set its Swiss rounds to one fewer per doubling (P-FL-2). The seed is in
    the audit trail. Raises InvalidInput naming every broken rule, or once a round of
    the event exists."""
    division = Division.objects.select_for_update().select_related("event").get(pk=division.pk)
    if division.event.rounds.exists():
        raise InvalidInput(gettext_storable("Flights are set before round 1 is paired."))
    if division.flights:
        raise InvalidInput(
            gettext_storable("%(code)s is already in flights.")
            % {"code": division.get_code_display()}
        )
    _refusals(division, flights)
    seed = secrets.randbits(48) if seed is None else seed
    regs = {str(r.pk): r for r in _active(division)}
    groups = assign_flights(list(regs), flights, rng=random.Random(seed))
    for number, group in enumerate(groups, start=1):
        Registration.objects.filter(pk__in=[int(i) for i in group]).update(flight=number)
        flight_group(division, number)  # each flight its own pairing group (P-FL-1)
    old_rounds = division.rounds
    division.flights = flights
    division.swiss_rounds = flight_rounds(old_rounds, flights)
    division.save(update_fields=["flights", "swiss_rounds"])
    audit_log(
        event=division.event,
        by=by,
        action="division.flights",
        obj=division,
        old={"flights": 0, "swiss_rounds": old_rounds},
        new={"flights": flights, "swiss_rounds": division.swiss_rounds, "seed": seed,
             "sizes": [len(g) for g in groups]},
    )  # fmt: skip
    return division
