"""Round turnaround does a fixed number of queries whatever the number of players
: pairing writes matches and seats in bulk, standings read every match of the
pod at once and write one snapshot."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from pairings.services import round_pair
from standings.services import standings_compute
from tests import factories
from tournaments import services
from tournaments.services import Result

ROUNDS_PLAYED = 2


def _event_after_rounds(players: int, organiser):
    """An event of ``players`` with ``ROUNDS_PLAYED`` Swiss rounds complete (seat 1 wins
    every match, a draw at every tenth table)."""
    event = factories.event(by=organiser, name=f"Cup {players}", swiss_rounds=5)
    text = "\n".join(f"Player {i:04d},{5000 + i}" for i in range(players))
    services.registrations_add_csv(event=event, text=text, by=organiser)
    for _ in range(ROUNDS_PLAYED):
        (rnd,) = round_pair(event=event, group="open", by=organiser, seed=7)
        services.round_publish(round=rnd, by=organiser)
        services.round_start(round=rnd, by=organiser)
        for m in rnd.matches.prefetch_related("seats__registration").order_by("table"):
            seats = [s.registration for s in m.seats.order_by("seat")]
            if m.table is not None and m.table % 10 == 0:
                services.slip_enter(match=m, result=Result.draw(), by=organiser)
            else:
                services.slip_enter(match=m, result=Result.win(seats[0]), by=organiser)
    return event


def _queries(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


@pytest.mark.django_db
def test_pairing_a_round_costs_the_same_queries_for_50_and_200_players():
    organiser = factories.user("turnaround-organiser")
    counts = {}
    for players in (50, 200):
        event = _event_after_rounds(players, organiser)
        counts[players] = _queries(
            lambda ev=event: round_pair(event=ev, group="open", by=organiser)
        )
        assert event.rounds.get(number=ROUNDS_PLAYED + 1).matches.count() == players // 2
    assert counts[50] == counts[200], counts
    # +1, the tables other groups use; +1, fixed seats
    assert counts[200] <= 18, counts


@pytest.mark.django_db
def test_standings_compute_costs_the_same_queries_for_50_and_200_players():
    organiser = factories.user("turnaround-organiser")
    counts = {}
    for players in (50, 200):
        event = _event_after_rounds(players, organiser)
        counts[players] = _queries(lambda ev=event: standings_compute(event=ev))
        assert event.standings.latest("id").rounds_complete == ROUNDS_PLAYED
    assert counts[50] == counts[200], counts
    assert counts[200] <= 12, counts
