"""Each ruleset's round table on the staff pages (P-RT-1, P-RT-4, P-RT-5, P-RT-7): the
dashboard's per-division recommendation and the settings page read the event's own
table, ``pokemon-2009`` by its announced structure (the 2009 tables)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairings.checkin_services import checkin_close
from rulesets import get_ruleset
from tests import factories
from tournaments.selectors import divisions_for_event

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("ruleset", "structure", "players", "expected"),
    [
        ("pokemon", "swiss-top-cut", 16, ((5, 4), "P-RT-1")),
        ("pokemon-2009", "swiss", 16, ((4, 0), "P-RT-4")),  # Swiss 9-16 → 4
        ("pokemon-2009", "swiss-top-cut", 16, ((4, 4), "P-RT-4")),  # 16 → 3 or 4, top 4
        ("pokemon-2009", "swiss-top-cut", 40, ((6, 8), "P-RT-4")),  # 33-63 → 5 or 6, top 8
        ("mtg", "swiss-top-cut", 20, ((5, 8), "P-RT-5")),  # 17-32 → 5, top 8
        ("mtg", "swiss-top-cut", 6, ((0, 0), "P-RT-5")),  # 5-8 → single elimination only
        ("bo3-wins-against", "swiss-top-cut", 20, ((5, 4), "P-RT-7")),  # 17-32 → 5, top 4
        ("bo3-wins-against", "swiss", 3, ((3, 0), "P-RT-7")),  # below 5: read the first row
    ],
)
def test_P_RT_4_P_RT_5_P_RT_7_divisions_are_recommended_from_the_events_table(
    organiser, ruleset, structure, players, expected
):
    ev = factories.event_with_players(players, by=organiser, ruleset=ruleset, structure=structure)
    (division,) = divisions_for_event(ev)
    assert (division.recommended, division.rule) == expected


def test_P_RT_4_the_dashboard_of_a_pokemon_2009_event_shows_the_2009_table(client, organiser):
    ev = factories.event_with_players(16, by=organiser, ruleset="pokemon-2009")
    client.force_login(organiser)
    page = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert '<th title="P-RT-4">Recommended</th>' in page and "4 Swiss rounds, top 4" in page


def test_P_RT_5_the_dashboard_says_single_elimination_for_5_to_8_mtg_players(client, organiser):
    ev = factories.event_with_players(6, by=organiser, ruleset="mtg")
    client.force_login(organiser)
    page = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert '<th title="P-RT-5">Recommended</th>' in page
    assert "Single elimination: 3 rounds, no Swiss" in page


@pytest.mark.parametrize(
    ("structure", "label"),
    [
        ("swiss", "Pokémon 2009, Swiss"),
        ("swiss-top-cut", "Pokémon 2009, Swiss plus single elimination"),
        ("single-elimination", "Pokémon 2009, single elimination"),
    ],
)
def test_P_RT_4_the_settings_page_reads_the_2009_table_of_the_structure(
    client, organiser, structure, label
):
    ev = factories.event_with_players(12, by=organiser, ruleset="pokemon-2009", structure=structure)
    assert get_ruleset(ev.ruleset).table(ev.structure).label == label
    client.force_login(organiser)
    page = client.get(reverse("staff:team", args=[ev.slug])).content.decode()
    assert 'title="P-RT-4"' in page and label in page


@pytest.mark.parametrize(
    ("options", "expected"),
    [({}, (5, 4)), ({"playoff_seating": "draft"}, (4, 8))],
    ids=["standings", "draft"],
)
def test_P_RT_5_check_in_reads_the_mtg_table_of_the_playoff_seating(organiser, options, expected):
    ev = factories.event_with_players(12, by=organiser, ruleset="mtg", options=options)
    (plan,) = checkin_close(event=ev, by=organiser).groups
    assert (plan.rounds, plan.cuts["open"]) == expected
    ev.refresh_from_db()
    assert (ev.swiss_rounds, ev.top_cut_size) == expected
