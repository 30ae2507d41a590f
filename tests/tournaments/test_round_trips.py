"""Round trips at every round boundary, for every procedure: an event played
through the services is exported (``export_event``) before its first round and after
every round, imported again (``import_event``), and the copy must show the same
standings, the same next step on the dashboard and the same input to the next pairing;
it imports running while something is left to play, finished after the last round.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairings.procedures.flights import flights_assign
from tests import factories
from tests.pod_factories import pod_event
from tests.tournaments.roundtrip import play_through, reimport, running, tdf_reimport, view
from tournaments import services
from tournaments.models import Event, EventStatus

pytestmark = pytest.mark.django_db


def round_trips(
    event: Event, by, seed: int = 7, tdf: bool = False, exact_ties: bool = True
) -> list[int]:
    """Play ``event`` through, checking the JSON round trip (and with ``tdf`` the TOM
    file's) at every boundary; returns the number of rounds at each checkpoint.
    ``exact_ties``: compare players tied on every tiebreaker in order (``view``)."""
    seen: list[int] = []

    def checkpoint(ev: Event) -> None:
        copy = reimport(ev)
        assert view(copy, exact_ties=exact_ties) == view(ev, exact_ties=exact_ties)
        if tdf and ev.rounds.exists():  # a TOM file holds no event before round 1
            assert view(tdf_reimport(ev), exact_ties=False) == view(ev, exact_ties=False)
        assert (copy.ruleset, copy.structure, copy.day2_rounds) == (
            ev.ruleset,
            ev.structure,
            ev.day2_rounds,
        )
        if ev.rounds.exists():
            expected = EventStatus.FINISHED if not running(ev) else ev.status
            assert copy.status == expected
        seen.append(ev.rounds.count())

    play_through(event, by, random.Random(seed), checkpoint)
    return seen


def test_age_modified_divisions_with_cuts_and_a_drop(organiser):
    """Through event JSON and through TOM files (P-AGE-3, R-5)."""
    ev = factories.event(
        by=organiser,
        divisions={"junior": "junior+senior", "senior": "junior+senior", "masters": "masters"},
        swiss_rounds=3,
        top_cut_size=4,
        season_year=2026,
        date=dt.date(2026, 3, 1),
    )
    born = {"junior": 2016, "senior": 2012, "masters": 1990}
    for code, n in {"junior": 4, "senior": 5, "masters": 9}.items():
        for i in range(n):
            services.registration_add(
                event=ev,
                name=f"{code} {i:02d}",
                birth_year=born[code],
                division=ev.divisions.get(code=code),
                by=organiser,
            )
    services.registration_drop(registration=ev.registrations.order_by("pk").last(), by=organiser)
    seen = round_trips(ev, organiser, tdf=True)
    # 3 Swiss rounds in each of two pairing groups, then a top 4 in each of three divisions
    assert seen[0] == 0 and ev.rounds.filter(phase="swiss").count() == 6
    cut_groups = set(ev.rounds.filter(phase="top-cut").values_list("group__key", flat=True))
    assert cut_groups == {"junior-top-cut", "masters-top-cut", "senior-top-cut"}


def test_flights_then_a_merged_top_cut(organiser):
    """Through event JSON and through TOM files (subgroups, P-FL)."""
    ev = factories.event(
        by=organiser,
        divisions={"masters": "masters"},
        structure="swiss-top-cut",
        swiss_rounds=2,
        top_cut_size=4,
    )
    for i in range(64):
        services.registration_add(
            event=ev, name=f"Player {i:03d}", division=ev.divisions.get(), by=organiser
        )
    flights_assign(division=ev.divisions.get(), flights=2, by=organiser, seed=2)
    # Exact ties in order too: the merged cut's draw reads flight 1's last round (the
    # flights' rounds share their numbers; it once took either, and a copy could differ).
    round_trips(ev, organiser, tdf=True)
    assert set(ev.rounds.values_list("group__key", flat=True)) == {
        "masters#flight-1",
        "masters#flight-2",
        "masters-top-cut",
    }


def test_two_days_with_top_cut_and_third_place(organiser):
    ev = factories.event_with_players(
        12, by=organiser, swiss_rounds=2, day2_rounds=1, top_cut_size=4, third_place_playoff=True
    )
    round_trips(ev, organiser)
    phases = list(ev.rounds.order_by("number", "pk").values_list("phase", "number"))
    assert phases == [
        ("swiss", 1),
        ("swiss", 2),
        ("swiss-day2", 3),
        ("top-cut", 4),
        ("top-cut", 5),
    ]
    final = ev.rounds.get(number=5)
    assert final.matches.count() == 2  # the final and the 3rd/4th place playoff


def test_standalone_single_elimination_with_byes_and_third_place(organiser):
    ev = factories.event_with_players(
        11,
        by=organiser,
        structure="single-elimination",
        swiss_rounds=0,
        top_cut_size=0,
        third_place_playoff=True,
    )
    round_trips(ev, organiser)
    assert ev.rounds.count() == 4  # 16-slot bracket: 5 byes in round 1


def test_mtg_with_playoffs_in_tiebreakers(organiser):
    ev = factories.event_with_players(
        10,
        by=organiser,
        ruleset="mtg",
        swiss_rounds=3,
        top_cut_size=4,
        options={"playoffs_in_tiebreakers": True},
    )
    round_trips(ev, organiser)
    assert ev.rounds.filter(phase="top-cut").count() == 2


def test_best_of_3_wins_against(organiser):
    ev = factories.event_with_players(
        9,
        by=organiser,
        ruleset="bo3-wins-against",
        swiss_rounds=3,
        top_cut_size=0,
        structure="swiss",
    )
    seen = round_trips(ev, organiser)
    assert seen == [0, 1, 2, 3]


def test_multiplayer_pods_with_a_pod_cut(organiser):
    ev = pod_event(14, by=organiser, rounds=2, cut=4)
    round_trips(ev, organiser)
    assert ev.rounds.filter(phase="top-cut").count() == 1


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=3, max_value=13),
    rounds=st.integers(min_value=1, max_value=3),
    cut=st.sampled_from([0, 2, 4]),
    ruleset=st.sampled_from(["pokemon", "mtg", "bo3-wins-against"]),
    seed=st.integers(min_value=0, max_value=2**20),
)
def test_property_any_generated_event_survives_a_round_trip_after_every_round(
    organiser, players, rounds, cut, ruleset, seed
):
    cut = cut if cut <= players else 0
    ev = factories.event_with_players(
        players,
        by=organiser,
        name=f"Generated {seed}",
        ruleset=ruleset,
        swiss_rounds=rounds,
        top_cut_size=cut,
        structure="swiss-top-cut" if cut else "swiss",
    )
    seen = round_trips(ev, organiser, seed=seed)
    assert seen[-1] == ev.rounds.count()
