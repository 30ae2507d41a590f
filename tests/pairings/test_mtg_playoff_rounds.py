"""M-SE-1 beyond the quarter-finals: in both MTG top 8 seatings the winners of the
first two tables meet (1–8 with 4–5; draft seats 1/5 with 3/7), and M-SE-2 holds in
every playoff round."""

from __future__ import annotations

import pytest

from pairings.services import round_pair
from tests.pairings.test_mtg_top_cut import top_8_after_one_swiss_round
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.services import Result


def play(rnd, org, games=(2, 0, 0)):
    """Publish and start ``rnd`` and enter ``games`` at every table; return the winners
    in table order."""
    services.round_publish(round=rnd, by=org)
    services.round_start(round=rnd, by=org)
    winners = []
    for m in rnd.matches.order_by("table"):
        winners.append(
            services.slip_enter(match=m, result=Result.of(games=games), by=org).winner_id
        )
    return winners


def seats(rnd):
    """The players of each table in table order (seat order follows the seeds)."""
    return [{s.registration_id for s in m.seats.all()} for m in rnd.matches.order_by("table")]


@pytest.mark.django_db
@pytest.mark.parametrize("seating", ["standings", "draft"])
def test_M_SE_1_winners_of_the_first_two_tables_meet_in_the_semi_finals(seating):
    ev, org, cut = top_8_after_one_swiss_round(playoff_seating=seating)
    w = play(cut, org, games=(1, 2, 0))  # seat 2 wins everywhere
    (semis,) = round_pair(event=ev, group=cut.group, by=org)
    assert seats(semis) == [{w[0], w[1]}, {w[2], w[3]}]
    services.round_publish(round=semis, by=org)
    services.round_start(round=semis, by=org)
    with pytest.raises(InvalidInput, match="cannot end in a draw"):  # M-SE-2
        services.slip_enter(
            match=semis.matches.get(table=1), result=Result.of(games=(1, 1, 1)), by=org
        )
    finalists = [
        services.slip_enter(match=m, result=Result.of(games=(2, 1, 0)), by=org).winner_id
        for m in semis.matches.order_by("table")
    ]
    (final,) = round_pair(event=ev, group=cut.group, by=org)
    assert seats(final) == [set(finalists)]
