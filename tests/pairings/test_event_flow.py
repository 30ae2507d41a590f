"""A whole Swiss + top cut event through the services (P-SW, P-TC, P-POST, R-4)."""

from __future__ import annotations

import pytest

from pairings.services import group_states, pairing_request, round_pair
from standings.models import StandingsSnapshot
from standings.services import standings_latest
from tests import factories
from tournaments import services
from tournaments.errors import PairingRefused, RoundStateError
from tournaments.groups import cut_group, group_label, set_swiss_groups
from tournaments.models import BackgroundRun, EventStatus, Outcome, Phase
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def play(rnd, by, pick=0):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in (
        rnd.matches.filter(outcome=Outcome.PENDING).order_by("table").prefetch_related("seats")
    ):
        seats = list(m.seats.all())
        services.slip_enter(match=m, result=Result.win(seats[pick].registration), by=by)


@pytest.mark.django_db(transaction=True)  # real commits: the standings task runs on commit
def test_P_TC_1_to_3_swiss_then_top_4_then_final_standings(organiser):
    event = factories.event_with_players(10, by=organiser, swiss_rounds=3, top_cut_size=4)
    for n in range(1, 4):
        (rnd,) = round_pair(event=event, group="open", by=organiser, seed=n)
        assert rnd.phase == Phase.SWISS and rnd.number == n
        play(rnd, organiser)
    swiss = standings_latest(event).data["divisions"]["open"]
    swiss_ids = [row["player"] for row in swiss]
    (semis,) = round_pair(event=event, group="open", by=organiser)
    assert (semis.phase, semis.group.key, semis.number) == (Phase.TOP_CUT, "open-top-cut", 4)
    tables = [
        [s.registration.external_id for s in m.seats.order_by("seat")]
        for m in semis.matches.order_by("table")
    ]
    assert tables == [[swiss_ids[0], swiss_ids[3]], [swiss_ids[1], swiss_ids[2]]]  # P-SE-1, P-TC-5
    play(semis, organiser, pick=1)  # the lower seeds win both semi-finals
    (final,) = round_pair(event=event, group="open-top-cut", by=organiser)
    assert final.number == 5 and final.matches.count() == 1
    play(final, organiser, pick=0)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    assert snapshot.final and snapshot.label == "Final standings"
    final_ids = [row["player"] for row in snapshot.data["divisions"]["open"]]
    winner = final.matches.get().winner.external_id
    assert final_ids[0] == winner
    # P-TC-3: semi-final losers take 3rd-4th in Swiss order; P-TC-2: 5th+ keep Swiss places.
    assert final_ids[2:4] == [swiss_ids[0], swiss_ids[1]]
    assert final_ids[4:] == swiss_ids[4:]
    with pytest.raises(PairingRefused, match="finished"):
        round_pair(event=event, group="open-top-cut", by=organiser)


@pytest.mark.django_db(transaction=True)  # the pairing task runs on commit
def test_pairing_request_records_progress_in_a_background_run(event8, organiser):
    run, created = pairing_request(event=event8, group="open", by=organiser)
    assert created and run.status == "done" and run.seed is not None
    assert event8.rounds.get(number=1).seed == run.seed
    with pytest.raises(RoundStateError, match="Round 1 is paired"):  # refused, no failed run
        pairing_request(event=event8, group="open", by=organiser)
    assert BackgroundRun.objects.filter(event=event8).count() == 1


def test_group_states_tell_staff_what_comes_next(event8, organiser):
    (state,) = group_states(event8)
    assert state.can_pair and state.next_action == "Pair Swiss round 1 of 3."
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    (state,) = group_states(event8)
    assert not state.can_pair and state.results_missing == 4


def test_group_labels_come_from_the_groups_divisions_not_their_keys(organiser):
    ev = factories.event(
        by=organiser, divisions={"junior": "juniors-and-seniors", "senior": "juniors-and-seniors"}
    )
    (group,) = ev.groups.all()
    assert group_label(group) == "Junior + Senior"
    set_swiss_groups(ev, {"junior": "junior", "senior": "senior"})
    junior = ev.divisions.get(code="junior")
    assert group_label(cut_group(junior)) == "Junior top cut"
    assert sorted(g.key for g in ev.groups.all()) == ["junior", "junior-top-cut", "senior"]


def top_4_with_playoff(organiser):
    """Eight players, three Swiss rounds, the top 4 played (seeds 1 and 2 win) and the
    final with the 3rd/4th playoff paired: ``(event, Swiss order, semi-finals, last)``."""
    event = factories.event_with_players(
        8, by=organiser, swiss_rounds=3, top_cut_size=4, third_place_playoff=True
    )
    for n in range(1, 4):
        (rnd,) = round_pair(event=event, group="open", by=organiser, seed=n)
        play(rnd, organiser)
    swiss_ids = [r["player"] for r in standings_latest(event).data["divisions"]["open"]]
    (semis,) = round_pair(event=event, group="open", by=organiser)
    play(semis, organiser, pick=0)  # seeds 1 and 2 reach the final
    (last,) = round_pair(event=event, group="open-top-cut", by=organiser)
    return event, swiss_ids, semis, last


@pytest.mark.django_db(transaction=True)
def test_P_TC_4_third_place_playoff_decides_3rd_and_4th(organiser):
    event, swiss_ids, _, last = top_4_with_playoff(organiser)
    final, playoff = last.matches.order_by("table")
    assert playoff.table == 2 and playoff.why.startswith("3rd/4th place playoff")
    seeds_in_playoff = [s.registration.external_id for s in playoff.seats.order_by("seat")]
    assert seeds_in_playoff == [swiss_ids[2], swiss_ids[3]]
    play(last, organiser, pick=1)  # seed 2 wins the final, seed 4 wins the playoff
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    order = [r["player"] for r in standings_latest(event).data["divisions"]["open"]]
    assert order[:4] == [swiss_ids[1], swiss_ids[0], swiss_ids[3], swiss_ids[2]]


@pytest.mark.django_db(transaction=True)
def test_P_POST_3_every_standings_version_and_slip_is_kept(organiser):
    event = factories.event_with_players(6, by=organiser, swiss_rounds=2)
    for n in (1, 2):
        (rnd,) = round_pair(event=event, group="open", by=organiser, seed=n)
        play(rnd, organiser)
    labels = list(
        StandingsSnapshot.objects.filter(event=event).order_by("id").values_list("label", flat=True)
    )
    assert labels == ["After round 1", "Final standings"]
    assert event.audit.filter(action="result.enter").count() == 6
