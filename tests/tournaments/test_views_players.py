"""Staff players page: add one, paste many (all or nothing), drop."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournaments import services
from tournaments.models import AuditEvent, Outcome, Registration


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client


def test_players_page_lists_registrations_alphabetically(staff_client, event8):
    response = staff_client.get(reverse("staff:players", args=[event8.slug]))
    body = response.content.decode()
    assert response.status_code == 200
    assert body.index("Player 001") < body.index("Player 008")
    assert f'action="{reverse("staff:players_import", args=[event8.slug])}"' in body


def test_adding_one_player(staff_client, event):
    response = staff_client.post(
        reverse("staff:player_add", args=[event.slug]),
        {"name": "Misty Waters", "player_id": "555", "birth_year": "2001"},
        follow=True,
    )
    reg = Registration.objects.get(event=event)
    assert (reg.player.name, reg.player.player_id, reg.player.birth_year) == (
        "Misty Waters",
        "555",
        2001,
    )
    assert "Added Misty Waters." in response.content.decode()


def test_adding_a_player_into_a_chosen_division(staff_client, organiser):
    event = factories.event(
        by=organiser,
        divisions={"junior": "junior+senior", "senior": "junior+senior", "masters": "masters"},
    )
    senior = event.divisions.get(code="senior")
    staff_client.post(
        reverse("staff:player_add", args=[event.slug]), {"name": "Brock", "division": senior.pk}
    )
    assert Registration.objects.get(event=event).division == senior


def test_a_duplicate_player_id_is_refused_with_the_services_message(staff_client, event8):
    response = staff_client.post(
        reverse("staff:player_add", args=[event8.slug]), {"name": "Copycat", "player_id": "1001"}
    )
    assert response.status_code == 200
    assert "Player id 1001 is already registered" in response.content.decode()
    assert event8.registrations.count() == 8


def test_pasted_csv_lines_are_previewed_then_all_added(staff_client, event):
    text = "Ash Ketchum,100,1999\nMisty,101,2000\nBrock,,\n"
    url = reverse("staff:players_import", args=[event.slug])
    preview = staff_client.post(url, {"lines": text}).content.decode()
    assert not event.registrations.exists()  # a preview saves nothing
    assert 'id="sheet-preview"' in preview and "Add these 3 players" in preview
    response = staff_client.post(url, {"lines": text, "confirm": "on"}, follow=True)
    assert "Added 3 players." in response.content.decode()
    names = sorted(event.registrations.values_list("player__name", flat=True))
    assert names == ["Ash Ketchum", "Brock", "Misty"]


def test_a_bad_csv_line_is_marked_and_nothing_is_added(staff_client, event):
    text = "Ash Ketchum,100,1999\nMisty,101,20x0\nBrock,102,2001\n"
    url = reverse("staff:players_import", args=[event.slug])
    response = staff_client.post(url, {"lines": text})
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="sheet-line-2" class="has-problem"' in body
    assert "Birth year “20x0” is not a year." in body
    assert 'id="confirm-players"' not in body  # no way to save while a line is wrong
    # Posting the confirmation anyway is refused, nothing saved.
    refused = staff_client.post(url, {"lines": text, "confirm": "on"}).content.decode()
    assert "Nothing was added. Line 2: Birth year “20x0” is not a year." in refused
    assert not event.registrations.exists()
    # The pasted text stays in the form so it can be fixed.
    assert "Brock,102,2001" in body


def test_dropping_a_player(staff_client, event8):
    reg = event8.registrations.order_by("pk").first()
    response = staff_client.post(
        reverse("staff:player_drop", args=[event8.slug, reg.pk]),
        {"reason": "went home", "confirm": "on"},
        follow=True,
    )
    reg.refresh_from_db()
    assert reg.dropped_after_round == 0
    assert f"{reg.player.name} dropped after round 0." in response.content.decode()


def test_the_drop_button_asks_first_and_without_the_tick_nothing_changes(staff_client, event8):
    reg = event8.registrations.order_by("pk").first()
    url = reverse("staff:player_drop", args=[event8.slug, reg.pk])
    players = staff_client.get(reverse("staff:players", args=[event8.slug])).content.decode()
    assert f'<form method="get" action="{url}">' in players
    assert "data-confirm" not in players  # the question needs no JavaScript
    asked = staff_client.get(url)
    page = asked.content.decode()
    assert asked.status_code == 200
    assert f"<h1>Drop {reg.player.name}?</h1>" in page
    assert '<input type="checkbox" name="confirm" required id="id_confirm">' in page
    refused = staff_client.post(url, {"reason": "went home"})
    page = refused.content.decode()
    assert refused.status_code == 200
    assert f"{reg.player.name} was not dropped: tick “Yes, drop this player” to confirm." in page
    assert 'value="went home"' in page  # the reason typed is kept
    reg.refresh_from_db()
    assert reg.dropped_after_round is None
    assert not AuditEvent.objects.filter(action="registration.drop").exists()


def test_the_players_own_page_drops_only_with_the_tick(staff_client, event8):
    reg = event8.registrations.order_by("pk").first()
    page = staff_client.get(reverse("staff:player", args=[event8.slug, reg.pk])).content.decode()
    assert 'name="confirm" required id="drop_confirm"' in page
    assert "Yes, drop this player" in page


def test_dropping_twice_shows_the_services_refusal(staff_client, event8, organiser):
    reg = event8.registrations.order_by("pk").first()
    services.registration_drop(registration=reg, by=organiser)
    response = staff_client.post(
        reverse("staff:player_drop", args=[event8.slug, reg.pk]), {"confirm": "on"}, follow=True
    )
    assert "already dropped" in response.content.decode()


def test_P_LATE_1_a_late_player_is_told_the_losses_they_receive(staff_client, event8, organiser):
    factories.round_in_order(event8, by=organiser)
    response = staff_client.post(
        reverse("staff:player_add", args=[event8.slug]), {"name": "Late Larry"}, follow=True
    )
    assert "Late entry: a loss for the 1 round already started." in response.content.decode()
    late = event8.registrations.get(player__name="Late Larry")
    assert late.late and late.seats.get().match.outcome == Outcome.LOSS
