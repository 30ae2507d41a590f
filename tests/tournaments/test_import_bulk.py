"""``event_import`` writes in bulk: the same queries for 20 players as for 60 (.8)."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from interchange.formats.eventdata import DivisionData, EventData, MatchData, PlayerData, RoundData
from interchange.services.imports import event_import
from tournaments.models import MatchSeat, Outcome

ROUNDS = 3


def swiss_event(players: int, seed: int = 14) -> EventData:
    """``players`` (odd: one bye a round) in one division, ``ROUNDS`` finished rounds."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    rounds = []
    for number in range(1, ROUNDS + 1):
        order = rng.sample(ids, len(ids))
        matches = [MatchData(None, (order.pop(),), Outcome.BYE, winner=None)]
        for table, i in enumerate(range(0, len(order), 2), start=1):
            a, b = order[i], order[i + 1]
            matches.append(MatchData(table, (a, b), Outcome.WIN, winner=a))
        rounds.append(RoundData(number, "swiss", tuple(matches)))
    return EventData(
        name=f"Bulk {players}",
        ruleset="pokemon",
        players=[PlayerData(pid, f"Player {pid}", "open") for pid in ids],
        divisions=[DivisionData("open", "open", ROUNDS)],
        rounds=rounds,
    )


def imported(players: int, organiser) -> tuple[object, int]:
    with CaptureQueriesContext(connection) as queries:
        event = event_import(data=swiss_event(players), by=organiser)
    return event, len(queries.captured_queries)


@pytest.mark.django_db
def test_import_queries_do_not_grow_with_players_or_matches(organiser):
    _, small = imported(21, organiser)
    _, large = imported(61, organiser)
    assert small == large


@pytest.mark.django_db
def test_bulk_import_keeps_every_match_seat_and_bye_in_file_order(organiser):
    data = swiss_event(21)
    event = event_import(data=data, by=organiser)
    assert event.registrations.count() == 21
    rounds = list(event.rounds.order_by("id"))
    assert [r.number for r in rounds] == [1, 2, 3]
    assert all(r.status == "complete" for r in rounds)
    for rnd, rd in zip(rounds, data.rounds, strict=True):
        matches = list(rnd.matches.order_by("id").prefetch_related("seats__registration"))
        assert [m.table for m in matches] == [m.table for m in rd.matches]
        seats = [
            tuple(s.registration.external_id for s in sorted(m.seats.all(), key=lambda s: s.seat))
            for m in matches
        ]
        assert seats == [m.players for m in rd.matches]
        winners = [m.winner.external_id if m.winner else None for m in matches]
        assert winners == [m.winner for m in rd.matches]
    assert MatchSeat.objects.filter(round__event=event).count() == 3 * 21
    audit = event.audit.get(action="event.import")
    assert audit.new == {
        "players": 21,
        "rounds": 3,
        "matches": 3 * 11,
        "status": "finished",  # every planned round played
        "notes": 0,
    }
