"""A standalone single-elimination event through the services (P-SE-1 … P-SE-6, I-2)."""

from __future__ import annotations

import random

import pytest

from pairings.engine.elimination import random_seeding
from pairings.services import round_pair
from standings.services import standings_data
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.groups import group_seeds
from tournaments.models import AuditEvent, Outcome, Round
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def se_event(by, n=5, **kwargs):
    return factories.event_with_players(
        n, by=by, structure="single-elimination", swiss_rounds=0, **kwargs
    )


def play(rnd, by, pick=0):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
        seats = list(m.seats.order_by("seat"))
        services.slip_enter(match=m, result=Result.win(seats[pick].registration), by=by)


def test_P_SE_1_P_SE_2_random_seeds_are_stored_and_top_seeds_get_the_byes(organiser):
    ev = se_event(organiser)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=11)
    seeds = group_seeds(ev.groups.get(key="open"))
    ids = [str(r.pk) for r in ev.registrations.all()]
    expected = random_seeding(ids, rng=random.Random(r1.seed))
    assert [str(k) for k, _ in sorted(seeds.items(), key=lambda kv: kv[1])] == list(expected)
    byes = sorted(seeds[m.seats.get().registration_id] for m in r1.matches.filter(outcome="bye"))
    assert byes == [1, 2, 3]  # 8 - 5 = 3 byes to the top seeds
    assert [m.why for m in r1.matches.filter(table__isnull=False)] == ["seed 4 vs seed 5"]


def test_P_SE_5_P_SE_6_placement_with_third_place_playoff(organiser):
    ev = se_event(organiser, third_place_playoff=True)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=3)
    play(r1, organiser, pick=1)  # seed 5 beats seed 4
    (semis,) = round_pair(event=ev, group="open", by=organiser)
    assert sorted(m.why for m in semis.matches.all()) == ["seed 1 vs seed 5", "seed 2 vs seed 3"]
    play(semis, organiser, pick=0)  # seeds 1 and 2 win
    (final,) = round_pair(event=ev, group="open", by=organiser)
    assert sorted(m.why for m in final.matches.all()) == [
        "3rd/4th place playoff: seed 3 vs seed 5",
        "seed 1 vs seed 2",
    ]
    play(final, organiser, pick=1)  # seed 2 wins the final, seed 5 takes 3rd
    seed_of = {
        r.external_id: group_seeds(ev.groups.get(key="open"))[r.pk] for r in ev.registrations.all()
    }
    data = standings_data(ev)
    assert data["final"]
    order = [seed_of[row["player"]] for row in data["divisions"]["open"]]
    assert order == [2, 1, 5, 3, 4]


def test_P_SE_3_a_player_who_drops_loses_the_current_match(organiser):
    ev = se_event(organiser, n=4)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=5)
    services.round_publish(round=r1, by=organiser)
    services.round_start(round=r1, by=organiser)
    match = r1.matches.order_by("table").first()
    leaver, stayer = (s.registration for s in match.seats.order_by("seat"))
    services.registration_drop(registration=leaver, by=organiser)
    match.refresh_from_db()
    assert (match.outcome, match.winner) == (Outcome.WIN, stayer)
    assert AuditEvent.objects.filter(action="match.forfeit").count() == 1


def test_P_SE_4_late_player_breaks_round_1_until_it_starts(organiser):
    ev = se_event(organiser, n=4)
    round_pair(event=ev, group="open", by=organiser, seed=5)
    services.registration_add(event=ev, name="Late", by=organiser)
    assert not Round.objects.filter(event=ev).exists()  # round 1 is paired again
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=6)
    assert len(group_seeds(ev.groups.get(key="open"))) == 5
    services.round_publish(round=r1, by=organiser)
    services.round_start(round=r1, by=organiser)
    with pytest.raises(InvalidInput, match="cannot join once round 1 has started"):
        services.registration_add(event=ev, name="Too late", by=organiser)


def test_P_SE_3_a_disqualified_player_loses_the_current_match(organiser):
    ev = se_event(organiser, n=2)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=5)
    services.round_publish(round=r1, by=organiser)
    services.round_start(round=r1, by=organiser)
    match = r1.matches.get()
    cheat, other = (s.registration for s in match.seats.order_by("seat"))
    services.registration_disqualify(registration=cheat, by=organiser, reason="marked cards")
    match.refresh_from_db()
    r1.refresh_from_db()
    assert (match.outcome, match.winner, r1.status) == (Outcome.WIN, other, "complete")
    rows = standings_data(ev)["divisions"]["open"]
    assert [r["place"] for r in rows] == [1, None]


def test_P_SE_5_standings_snapshot_of_a_bracket(organiser):
    from standings.services import standings_compute

    ev = se_event(organiser, n=3)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=8)
    play(r1, organiser)
    snapshot = standings_compute(event=ev)
    assert len(snapshot.data["divisions"]["open"]) == 3
