"""An organiser runs round 1 of an event in a real browser, from login to standings."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tournaments.models import Event, Outcome, RoundStatus

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PLAYERS = "\n".join(f"Trainer {n},{9000 + n},{1990 + n}" for n in range(1, 9))


@pytest.mark.django_db(transaction=True)
def test_organiser_creates_an_event_pairs_round_1_and_enters_every_result(live_server, page):
    factories.user("olivia")

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("olivia")
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()

    page.get_by_role("link", name="New event").click()
    page.get_by_label("Players expected in the largest division").fill("8")
    expect(page.locator("#recommendation")).to_contain_text("3 Swiss rounds")
    page.get_by_role("button", name="Use these").click()
    page.get_by_label("Name").fill("Browser Cup")
    page.get_by_label("Structure").select_option("swiss")
    page.get_by_role("button", name="Create event").click()

    expect(page.get_by_role("heading", name="Players", level=1)).to_be_visible()
    page.get_by_label("Paste players").fill(PLAYERS)
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Add these 8 players").click()
    expect(page.get_by_text("Added 8 players.")).to_be_visible()

    page.get_by_role("link", name="Dashboard").first.click()
    # round 1 waits for Close check-in (nobody ticked: everyone counts present)
    page.get_by_role("button", name="Close check-in").click()
    expect(page.get_by_text("Check-in closed.")).to_be_visible()
    page.get_by_role("button", name="Pair next round").click()
    expect(page.get_by_role("button", name="Publish pairings")).to_be_visible()
    expect(page.locator("li.match")).to_have_count(4)
    page.get_by_role("button", name="Publish pairings").click()
    page.get_by_role("button", name="Start round").click()

    rows = page.locator("li.match")
    for i in range(4):
        row = rows.nth(i)
        row.locator('button[value="p1"]').click()
        expect(row.locator(".result")).to_contain_text("wins")  # the row was swapped in place
        expect(page.locator("#results-missing")).to_have_text(str(3 - i))
    expect(page.locator("#round-progress")).to_contain_text("round complete")

    page.locator("#round-progress").get_by_role("link", name="Standings").click()
    expect(page.locator("p.meta")).to_contain_text("After round 1")
    expect(page.locator("table.standings tbody tr")).to_have_count(8)
    expect(page.locator("table.standings tbody tr").first).to_contain_text("1-0-0")

    event = Event.objects.get(name="Browser Cup")
    rnd = event.rounds.get()
    assert rnd.status == RoundStatus.COMPLETE
    assert not rnd.matches.filter(outcome=Outcome.PENDING).exists()
