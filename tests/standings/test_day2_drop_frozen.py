"""A player who drops during Day 2 keeps the Day 2 OWP and OOWP of the round they dropped
(R-2 with R-3), through the services and the Standings JSON."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pairings.services import round_pair
from standings import adapters
from standings.engine.day2 import day2_matches
from standings.engine.ranking import pokemon_standings
from standings.services import standings_data
from tests import factories
from tournaments import services
from tournaments.models import Outcome, Phase
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def play(rnd, by):
    """Publish, start and finish ``rnd``: the first seat wins every table."""
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
        first = m.seats.order_by("seat").first().registration
        services.slip_enter(match=m, result=Result.win(first), by=by)


def exact(ev, player_id: str) -> tuple[Fraction, Fraction]:
    row = next(r for r in standings_data(ev)["divisions"]["open"] if r["player"] == player_id)
    return Fraction(row["exact"]["owp"]), Fraction(row["exact"]["oowp"])


def test_R_2_R_3_a_player_dropping_after_day_2_round_2_keeps_that_rounds_owp_and_oowp(
    organiser,
):
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=1, day2_rounds=3)
    for seed in (1, 2, 3):  # round 1 (Day 1), then Day 2 rounds 1 and 2
        (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=seed)
        play(rnd, organiser)
    assert rnd.phase == Phase.SWISS_DAY2 and rnd.number == 3
    # The loser of Day 2 round 2's top table drops after it (event round 3).
    top = rnd.matches.order_by("table").first()
    leaver = top.seats.order_by("seat").last().registration
    services.registration_drop(registration=leaver, by=organiser)
    at_drop = exact(ev, leaver.external_id)
    (last,) = round_pair(event=ev, group="open", by=organiser, seed=4)
    play(last, organiser)
    assert standings_data(ev)["final"]

    # Frozen: the values of the standings after Day 2 round 2, over Day 2 rounds 1-2.
    assert exact(ev, leaver.external_id) == at_drop
    # Their Day 2 opponents played on; with their final records the values would differ.
    group = ev.groups.get(key="open")
    entrants = adapters.entrants(list(ev.registrations.order_by("pk")))  # all 8 play Day 2
    matches = day2_matches(adapters.match_records(group, phases=(Phase.SWISS_DAY2,)), 1)
    stale = {r.player: r for r in pokemon_standings(entrants, matches, rounds=3)}
    unfrozen = stale[str(leaver.pk)]
    assert (unfrozen.owp, unfrozen.oowp) != at_drop
