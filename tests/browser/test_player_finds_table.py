"""A player on a phone finds their table on the public pairings page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tournaments import services
from tournaments.models import Phase

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.django_db(transaction=True)
def test_player_on_a_phone_finds_their_table_by_name(live_server, phone):
    organiser = factories.user("org")
    event = factories.event_with_players(12, by=organiser, swiss_rounds=4)
    regs = list(event.registrations.order_by("pk"))
    rnd = services.round_create(
        event=event,
        group=factories.group_row(event, "open"),
        number=1,
        phase=Phase.SWISS,
        by=organiser,
        tables=[(t + 1, regs[2 * t : 2 * t + 2], "random") for t in range(6)],
    )
    services.round_publish(round=rnd, by=organiser)

    phone.goto(f"{live_server.url}/e/{event.slug}/pairings/")
    expect(phone.get_by_role("heading", name="Pairings")).to_be_visible()
    no_sideways_scroll = "document.documentElement.scrollWidth <= window.innerWidth"
    assert phone.evaluate(no_sideways_scroll)

    phone.get_by_label("Find my table").fill("player 009")  # HTMX filters as they type
    results = phone.locator("#search-results")
    expect(results).to_contain_text("Player 009")
    expect(results).to_contain_text("Table 5")
    expect(results).to_contain_text("vs Player 010")
    assert "q=player%20009" in phone.url  # the filtered view is a real, shareable address

    phone.get_by_role("link", name="By name").tap()
    expect(phone.locator("ol.names li").first).to_contain_text("Player 001")
    assert phone.evaluate(no_sideways_scroll)
