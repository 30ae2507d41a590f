"""Creating an event from the staff pages, and the P-RT-1 recommendation it shows."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets import RULESETS, get_ruleset
from tournaments.groups import division_keys
from tournaments.models import Division, EventStaff, StaffRole

HX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (2, (3, 0)),
        (7, (3, 0)),  # below the table: our decision, 3 rounds and no cut
        (8, (3, 0)),
        (9, (4, 4)),
        (12, (4, 4)),
        (13, (5, 4)),
        (20, (5, 4)),
        (21, (5, 8)),
        (32, (5, 8)),
        (33, (6, 8)),
        (64, (6, 8)),
        (65, (7, 8)),
        (128, (7, 8)),
        (129, (8, 8)),
        (226, (8, 8)),
        (227, (9, 8)),
        (409, (9, 8)),
        (410, (10, 8)),
        (2000, (10, 8)),
    ],
)
def test_P_RT_1_recommended_rounds_and_cut_at_every_boundary(players, expected):
    rec = get_ruleset("pokemon").recommend(players)
    assert (rec.rounds, rec.cut) == expected


def test_P_RT_1_new_event_page_recommends_for_the_expected_player_count(client, organiser):
    client.force_login(organiser)
    response = client.get(reverse("staff:event_create"), {"players": 24})
    assert response.status_code == 200
    body = response.content.decode()
    assert "5 Swiss rounds" in body and "top 8" in body
    # Without JavaScript the form is pre-filled with the recommendation.
    assert response.context["form"].initial == {
        "ruleset": "pokemon",
        "structure": "swiss-top-cut",
        "swiss_rounds": 5,
        "top_cut_size": 8,
    }


def test_recommendation_fragment_for_htmx_is_only_the_partial(client, organiser):
    client.force_login(organiser)
    response = client.get(reverse("staff:event_create"), {"players": 10}, headers=HX)
    body = response.content.decode()
    assert body.strip().startswith('<div id="recommendation"')
    assert "4 Swiss rounds" in body and "top 4" in body
    assert "<html" not in body


def test_ruleset_choices_are_only_the_implemented_rulesets(client, organiser):
    client.force_login(organiser)
    response = client.get(reverse("staff:event_create"))
    choices = [value for value, _ in response.context["form"].fields["ruleset"].choices]
    # made the best-of-3 rulesets and pokemon-2009 pickable; others may follow.
    assert {"pokemon", "pokemon-2009", "mtg", "bo3-wins-against"} <= set(choices)
    assert all(RULESETS[c].implemented for c in choices)


def test_creating_an_event_makes_the_creator_organiser_and_opens_players(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("staff:event_create"),
        {
            "name": "Spring Cup",
            "ruleset": "pokemon",
            "structure": "swiss-top-cut",
            "divisions": "age-modified",
            "swiss_rounds": 5,
            "top_cut_size": 8,
            "third_place_playoff": "on",
            "prizes": "Top 8 get packs",
            "date": "2026-03-14",
            "location": "Town hall",
        },
    )
    staff = EventStaff.objects.get(user=organiser)
    event = staff.event
    assert staff.role == StaffRole.ORGANISER
    assert response.status_code == 302
    assert response.url == reverse("staff:players", args=[event.slug])
    assert (event.swiss_rounds, event.top_cut_size, event.third_place_playoff) == (5, 8, True)
    assert event.prizes == "Top 8 get packs" and str(event.date) == "2026-03-14"
    groups = division_keys(Division.objects.filter(event=event).prefetch_related("groups"))
    assert groups == {"junior": "junior+senior", "senior": "junior+senior", "masters": "masters"}


def test_an_invalid_event_is_refused_with_the_form_errors_and_nothing_created(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("staff:event_create"),
        {
            "name": "",
            "ruleset": "chess",
            "structure": "swiss",
            "divisions": "open",
            "swiss_rounds": 3,
            "top_cut_size": 3,
        },
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert set(errors) == {"name", "ruleset", "top_cut_size"}
    assert not EventStaff.objects.exists()


def test_anonymous_visitors_are_sent_to_login_to_create_an_event(client, db):
    response = client.get(reverse("staff:event_create"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
