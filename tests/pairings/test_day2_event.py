"""A two-day event through the services: the Day 2 cut, Day 2 pairing and standings
(P-D2-1, P-D2-2, R-3)."""

from __future__ import annotations

import pytest

from pairings.procedures import next_step
from pairings.services import round_pair
from standings.services import standings_data
from tests import factories
from tournaments import services
from tournaments.models import Outcome, Phase
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def play(rnd, by, pick=0):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
        seats = list(m.seats.order_by("seat"))
        services.slip_enter(match=m, result=Result.win(seats[pick].registration), by=by)


def test_P_D2_1_top_32_play_day_2_when_fewer_have_19_points(organiser):
    ev = factories.event_with_players(40, by=organiser, swiss_rounds=1, day2_rounds=1)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    play(r1, organiser)
    assert "Day 2 cut" in next_step(ev, "open").message
    (d2,) = round_pair(event=ev, group="open", by=organiser, seed=2)
    assert (d2.phase, d2.number) == (Phase.SWISS_DAY2, 2)
    assert d2.matches.count() == 16  # the top 32 of 40, no bye


def test_R_3_day_1_opponents_may_meet_again_on_day_2(organiser):
    ev = factories.event_with_players(2, by=organiser, swiss_rounds=1, day2_rounds=1)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    play(r1, organiser)
    (d2,) = round_pair(event=ev, group="open", by=organiser, seed=2)
    match = d2.matches.get()
    assert match.seats.count() == 2 and not match.rematch


def test_P_D2_2_day_2_tiebreakers_count_day_2_rounds_only(organiser):
    ev = factories.event_with_players(4, by=organiser, swiss_rounds=1, day2_rounds=1)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    play(r1, organiser)
    (d2,) = round_pair(event=ev, group="open", by=organiser, seed=2)
    top = d2.matches.order_by("table").first()
    loser = top.seats.order_by("seat").last().registration
    play(d2, organiser)
    rows = {r["player"]: r for r in standings_data(ev)["divisions"]["open"]}
    # The top-table loser (3 points) met only the 2-0 winner on Day 2: OWP 100 %; over
    # both days it would be the average with their 0-2 Day 1 opponent (62.5 %).
    assert rows[loser.external_id]["tiebreakers"]["owp"] == 1.0
    assert rows[loser.external_id]["record"] == "1-1-0"
    assert standings_data(ev)["final"]
