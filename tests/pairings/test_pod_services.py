"""Pod pairing through the services (MP-POD-1, MP-POD-2, MP-PAIR-1, MP-SEAT-1, MP-SE-1,
MP-SE-2, I-3): rounds stored as Match rows with 3–5 seats in seat order."""

from __future__ import annotations

import pytest

from pairings.procedures import next_step
from pairings.procedures.base import StepKind
from pairings.procedures.pods import pod_players
from pairings.services import group_states, round_pair
from standings.services import division_swiss_order
from tests.pod_factories import play, pod_event, seats
from tournaments.errors import InvalidInput, PairingRefused, ResultsMissing
from tournaments.models import Outcome, Phase
from tournaments.services import Result, slip_enter
from tournaments.services.pod_events import pod_cut_set

pytestmark = pytest.mark.django_db


def sizes(rnd):
    return [m.seats.count() for m in rnd.matches.order_by("table")]


def test_MP_POD_1_22_players_make_four_pods_of_4_and_two_of_3_and_no_bye(organiser):
    event = pod_event(22, by=organiser)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    assert sizes(rnd) == [4, 4, 4, 4, 3, 3]
    assert not rnd.matches.filter(outcome=Outcome.BYE).exists()
    assert [m.table for m in rnd.matches.order_by("table")] == [1, 2, 3, 4, 5, 6]
    assert all(m.why for m in rnd.matches.all())
    seat_numbers = [[s.seat for s in m.seats.order_by("seat")] for m in rnd.matches.all()]
    assert all(ns == list(range(1, len(ns) + 1)) for ns in seat_numbers)


def test_MP_POD_1_pod_size_3_option_fills_pods_of_three(organiser):
    event = pod_event(8, by=organiser, pod_size=3)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=3)
    assert sizes(rnd) == [3, 3, 2]


def test_MP_POD_2_nobody_sits_in_a_smaller_pod_twice(organiser):
    event = pod_event(22, by=organiser, rounds=2)
    (r1,) = round_pair(event=event, group="open", by=organiser, seed=5)
    small1 = {
        s.registration_id for m in r1.matches.all() if m.seats.count() == 3 for s in m.seats.all()
    }
    play(r1, organiser)
    (r2,) = round_pair(event=event, group="open", by=organiser, seed=6)
    small2 = {
        s.registration_id for m in r2.matches.all() if m.seats.count() == 3 for s in m.seats.all()
    }
    assert len(small1) == len(small2) == 6 and not small1 & small2


def test_MP_PAIR_1_second_round_is_top_to_bottom_without_previous_opponents(organiser):
    event = pod_event(16, by=organiser, rounds=2)
    (r1,) = round_pair(event=event, group="open", by=organiser, seed=7)
    play(r1, organiser)
    order = [str(r.pk) for r in division_swiss_order(event, event.divisions.get())]
    players = {p.id: p for p in pod_players(event, event.groups.get(key="open"))}
    assert [players[i].rank for i in order] == list(range(1, 17))  # standings order
    assert players[order[0]].match_points == 7
    (r2,) = round_pair(event=event, group="open", by=organiser, seed=8)
    for m in r2.matches.all():
        ids = {str(s.registration_id) for s in m.seats.all()}
        for pid in ids:
            assert not (players[pid].opponents & (ids - {pid})), "previous opponents avoided"
    table1 = {str(r.pk) for r in seats(r2.matches.get(table=1))}
    assert table1 == set(order[:4])  # the four winners fill table 1


def test_MP_PAIR_1_swapped_players_are_marked_paired_up_or_down(organiser):
    """Round 2 of 8 players: the four winners cannot all meet without repeats... they
    can (they never met); but the two round-1 pods must split: swaps are explained."""
    event = pod_event(8, by=organiser, rounds=2)
    (r1,) = round_pair(event=event, group="open", by=organiser, seed=9)
    play(r1, organiser)
    (r2,) = round_pair(event=event, group="open", by=organiser, seed=10)
    marked = [m for m in r2.matches.all() if m.pair_down]
    assert marked and all("paired" in m.why for m in marked)


def test_MP_SEAT_1_swiss_seats_are_random_and_replayable_from_the_stored_seed(organiser):
    from tournaments import services

    event = pod_event(12, by=organiser)
    (ra,) = round_pair(event=event, group="open", by=organiser, seed=11)
    first = [[s.player.name for s in seats(m)] for m in ra.matches.order_by("table")]
    services.round_discard(round=ra, by=organiser)  # an appeal replays the stored seed (I-1)
    (rb,) = round_pair(event=event, group="open", by=organiser, seed=ra.seed)
    again = [[s.player.name for s in seats(m)] for m in rb.matches.order_by("table")]
    assert ra.seed == 11 and first == again
    assert first != [sorted(t) for t in first]  # not registration order: shuffled


def test_results_missing_refuses_the_next_pod_round(organiser):
    event = pod_event(8, by=organiser)
    (r1,) = round_pair(event=event, group="open", by=organiser, seed=1)
    from tournaments import services

    services.round_publish(round=r1, by=organiser)
    services.round_start(round=r1, by=organiser)
    with pytest.raises(ResultsMissing):
        round_pair(event=event, group="open", by=organiser)


def _swiss(event, organiser, rounds):
    for n in range(1, rounds + 1):
        (rnd,) = round_pair(event=event, group="open", by=organiser, seed=n)
        play(rnd, organiser)
    return [str(r.pk) for r in division_swiss_order(event, event.divisions.get())]


def test_MP_SE_1_top_10_gives_byes_to_seeds_1_2_and_snakes_8_players_into_2_pods(organiser):
    event = pod_event(22, by=organiser, rounds=2, cut=10)
    order = _swiss(event, organiser, 2)
    (semis,) = round_pair(event=event, group="open", by=organiser)
    assert (semis.phase, semis.group.key) == (Phase.TOP_CUT, "open-top-cut")
    byes = [str(seats(m)[0].pk) for m in semis.matches.filter(outcome=Outcome.BYE)]
    assert sorted(byes, key=order.index) == order[:2]
    tables = [
        [str(r.pk) for r in seats(m)] for m in semis.matches.exclude(table=None).order_by("table")
    ]
    seed = {pid: k for k, pid in enumerate(order, start=1)}
    assert [[seed[p] for p in t] for t in tables] == [[3, 6, 7, 10], [4, 5, 8, 9]]  # I-3, MP-SEAT-1
    step = next_step(event, "open-top-cut")
    assert step.kind == StepKind.WAIT
    play(semis, organiser, pick=3)  # the lowest seed wins each pod
    (final,) = round_pair(event=event, group="open-top-cut", by=organiser)
    final_seeds = [seed[str(r.pk)] for r in seats(final.matches.get())]
    assert final_seeds == [1, 2, 9, 10]  # seated by Swiss seed
    play(final, organiser, pick=2)
    with pytest.raises(PairingRefused, match="finished"):
        round_pair(event=event, group="open-top-cut", by=organiser)


def test_MP_SE_2_a_drawn_cut_pod_is_won_by_the_best_seed_who_did_not_concede(organiser):
    event = pod_event(7, by=organiser, rounds=2, cut=7)
    order = _swiss(event, organiser, 2)
    (first,) = round_pair(event=event, group="open", by=organiser)
    pod = first.matches.exclude(table=None).get()
    assert [str(r.pk) for r in seats(pod)] == order[3:7]
    from tournaments import services

    services.round_publish(round=first, by=organiser)
    services.round_start(round=first, by=organiser)
    seed4 = seats(pod)[0]
    slip_enter(
        match=pod, result=Result.draw([seed4.pk]), by=organiser
    )  # seed 4 conceded: seed 5 goes on
    (final,) = round_pair(event=event, group="open-top-cut", by=organiser)
    assert [str(r.pk) for r in seats(final.matches.get())] == order[:3] + [order[4]]


def test_MP_SE_1_cut_sizes_are_the_pod_sizes_only(organiser):
    event = pod_event(8, by=organiser)
    with pytest.raises(InvalidInput):
        pod_cut_set(event=event, cut=8, by=organiser)
    pod_cut_set(event=event, cut=4, by=organiser)
    assert event.divisions.get().cut == 4


def test_group_states_offer_the_pod_cut_after_swiss(organiser):
    event = pod_event(8, by=organiser, rounds=1, cut=4)
    _swiss(event, organiser, 1)
    (state,) = group_states(event)
    assert state.can_pair and "top 4" in state.next_action


def test_MP_SEAT_1_top_cut_seats_follow_the_swiss_seed(organiser):
    event = pod_event(9, by=organiser, rounds=1, cut=4)
    order = _swiss(event, organiser, 1)
    (final,) = round_pair(event=event, group="open", by=organiser)
    assert [str(r.pk) for r in seats(final.matches.get())] == order[:4]  # seat 1 = seed 1


def test_MP_SE_1_the_announced_cut_sizes_are_the_engines():
    from pairings.engine.pod_elimination import POD_CUTS
    from tournaments.multiplayer import POD_CUT_SIZES

    assert POD_CUT_SIZES == POD_CUTS


@pytest.mark.parametrize(("cut", "byes", "pods_played"), [(13, 1, 3), (16, 0, 4)])
def test_MP_SE_1_top_13_and_16_first_rounds(organiser, cut, byes, pods_played):
    event = pod_event(cut, by=organiser, rounds=1, cut=cut)
    order = _swiss(event, organiser, 1)
    (first,) = round_pair(event=event, group="open", by=organiser)
    bye_ids = {str(seats(m)[0].pk) for m in first.matches.filter(outcome=Outcome.BYE)}
    assert bye_ids == set(order[:byes])
    assert first.matches.exclude(table=None).count() == pods_played
    play(first, organiser)
    (final,) = round_pair(event=event, group="open-top-cut", by=organiser)
    assert final.matches.get().seats.count() == 4


def test_MP_PAIR_1_round_1_tables_are_drawn_from_the_round_seed(organiser):
    event = pod_event(12, by=organiser)
    tables = []
    for seed in (21, 22):
        (rnd,) = round_pair(event=event, group="open", by=organiser, seed=seed)
        tables.append(
            {frozenset(s.registration_id for s in m.seats.all()) for m in rnd.matches.all()}
        )
        from tournaments import services

        services.round_discard(round=rnd, by=organiser)
    assert tables[0] != tables[1]
