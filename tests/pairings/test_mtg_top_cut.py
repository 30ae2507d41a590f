"""M-SE-1: an MTG top 8 is paired by final Swiss standings in the standard bracket
(1–8, 4–5, 2–7, 3–6), through the same service as the staff page."""

from __future__ import annotations

import random

import pytest

from pairings.services import round_pair
from standings.services import division_swiss_order
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import Phase, RoundStatus
from tournaments.services import Result

SCORES = [(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (2, 0, 0), (2, 1, 0), (1, 0, 2), (0, 2, 0)]


def top_8_after_one_swiss_round(**options):
    """A 16-player mtg event with a top 8, its one Swiss round played; returns the
    event, its organiser and the paired top cut."""
    org = factories.user("org")
    ev = factories.event_with_players(
        16,
        by=org,
        ruleset="mtg",
        swiss_rounds=1,
        top_cut_size=8,
        structure="swiss-top-cut",
        options=options,
    )
    (swiss,) = round_pair(event=ev, group="open", by=org, seed=7)
    services.round_publish(round=swiss, by=org)
    services.round_start(round=swiss, by=org)
    for m, games in zip(swiss.matches.order_by("table"), SCORES, strict=True):
        services.slip_enter(match=m, result=Result.of(games=games), by=org)
    swiss.refresh_from_db()
    assert swiss.status == RoundStatus.COMPLETE
    (cut,) = round_pair(event=ev, group="open", by=org)
    return ev, org, cut


@pytest.mark.django_db
def test_M_SE_1_mtg_top_8_is_paired_1_8_4_5_2_7_3_6_by_final_standings():
    ev, org, cut = top_8_after_one_swiss_round()
    order = division_swiss_order(ev, ev.divisions.get())[:8]
    seed = {reg.pk: n for n, reg in enumerate(order, start=1)}
    tables = [
        tuple(seed[s.registration_id] for s in m.seats.order_by("seat"))
        for m in cut.matches.order_by("table")
    ]
    assert cut.phase == Phase.TOP_CUT
    assert tables == [(1, 8), (4, 5), (2, 7), (3, 6)]

    services.round_publish(round=cut, by=org)
    services.round_start(round=cut, by=org)
    with pytest.raises(InvalidInput, match="cannot end in a draw"):  # M-SE-2
        services.slip_enter(
            match=cut.matches.get(table=1), result=Result.of(games=(0, 0, 3)), by=org
        )


@pytest.mark.django_db
def test_M_SE_1_draft_playoff_pairs_seat_1_v_5_3_v_7_2_v_6_4_v_8_from_the_stored_seed():
    ev, org, cut = top_8_after_one_swiss_round(playoff_seating="draft")
    top8 = {r.pk for r in division_swiss_order(ev, ev.divisions.get())[:8]}
    seats = [str(r.pk) for r in division_swiss_order(ev, ev.divisions.get())[:8]]
    random.Random(cut.seed).shuffle(seats)  # the draft seats, reproduced from the seed
    tables = [
        tuple(str(s.registration_id) for s in m.seats.order_by("seat"))
        for m in cut.matches.order_by("table")
    ]
    assert tables == [(seats[0], seats[4]), (seats[2], seats[6]), (seats[1], seats[5]),
                      (seats[3], seats[7])]  # fmt: skip
    assert {int(p) for t in tables for p in t} == top8
    assert cut.matches.get(table=1).why == "draft playoff: seat 1 vs seat 5"
