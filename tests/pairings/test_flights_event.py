"""Flights in the app: refusals, random flights, fewer rounds, late players and the
merged top cut (P-FL-1 … P-FL-5, P-LATE-2)."""

from __future__ import annotations

import pytest

from pairings.procedures import event_group_keys, next_step
from pairings.procedures.base import StepKind
from pairings.procedures.flights import flights_assign
from pairings.services import round_pair
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import Outcome, Phase
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def flighted(by, n, **kwargs):
    kwargs.setdefault("structure", "swiss-top-cut")
    return factories.event_with_players(n, by=by, **kwargs)


def play(rnd, by):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        winner = m.seats.order_by("seat").first().registration
        services.slip_enter(match=m, result=Result.win(winner), by=by)


def test_P_FL_1_flights_are_refused_with_every_reason(organiser):
    ev = flighted(organiser, 63, structure="swiss", swiss_rounds=6, top_cut_size=0)
    with pytest.raises(InvalidInput) as refused:
        flights_assign(division=ev.divisions.get(), flights=3, by=organiser)
    text = str(refused.value)
    assert "only for Swiss plus single elimination" in text
    assert "at least 64 players" in text and "2, 4, 8 or 16" in text


def test_P_FL_2_P_FL_3_P_FL_4_143_masters_in_4_flights_then_a_late_player(organiser):
    ev = flighted(organiser, 143, swiss_rounds=8, top_cut_size=8)
    division = flights_assign(division=ev.divisions.get(), flights=4, by=organiser, seed=1)
    assert (division.flights, division.swiss_rounds) == (4, 6)  # one fewer per doubling
    sizes = [ev.registrations.filter(flight=n).count() for n in (1, 2, 3, 4)]
    assert sizes == [36, 36, 36, 35]
    late = services.registration_add(event=ev, name="Late", by=organiser)
    assert late.flight == 4  # the flight that started smaller (P-FL-4, P-LATE-2)
    assert event_group_keys(ev)[:4] == [f"open#flight-{n}" for n in (1, 2, 3, 4)]


def test_P_FL_5_each_flight_pairs_alone_and_the_cut_takes_two_of_each(organiser):
    ev = flighted(organiser, 64, swiss_rounds=2, top_cut_size=4)
    flights_assign(division=ev.divisions.get(), flights=2, by=organiser, seed=2)
    (r1,) = round_pair(event=ev, group="open#flight-1", by=organiser, seed=1)
    assert {s.registration.flight for m in r1.matches.all() for s in m.seats.all()} == {1}
    play(r1, organiser)
    assert next_step(ev, "open#flight-1").kind == StepKind.WAIT  # flight 2 plays
    (r2,) = round_pair(event=ev, group="open#flight-2", by=organiser, seed=2)
    play(r2, organiser)
    (cut,) = round_pair(event=ev, group="open#flight-1", by=organiser)
    assert (cut.phase, cut.group.key) == (Phase.TOP_CUT, "open-top-cut")
    flights = [s.registration.flight for m in cut.matches.all() for s in m.seats.all()]
    assert sorted(flights) == [1, 1, 2, 2]


def test_P_FL_1_dashboard_offers_the_allowed_flights_and_applies_one(client, organiser):
    from django.urls import reverse

    ev = flighted(organiser, 143, swiss_rounds=8, top_cut_size=8)
    client.force_login(organiser)
    page = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert "2 flights of 72/71, 7 rounds, top 4 of each" in page
    assert "4 flights of 36/36/36/35, 6 rounds, top 2 of each" in page
    client.post(reverse("staff:flights", args=[ev.slug]), {"division": "open", "flights": "2"})
    page = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert "Open flight 1" in page and "Open flight 2" in page
