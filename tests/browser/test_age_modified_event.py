"""An organiser runs an age-modified event in a real browser: 3 Juniors, 7 Seniors and 12
Masters, two rounds, and the public standings name the three division winners
(P-AGE-1, P-AGE-3, R-5)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

BORN = (("Junior", 3, 2016), ("Senior", 7, 2012), ("Masters", 12, 1990))
PLAYERS = "\n".join(
    f"{label} {n:02d},,{year}" for label, count, year in BORN for n in range(1, count + 1)
)


def play_round(page, group: str) -> None:
    page.get_by_role("link", name="Dashboard").first.click()
    page.locator(f'[id="group-{group}"]').get_by_role("button", name="Pair next round").click()
    page.get_by_role("button", name="Publish pairings").click()
    page.get_by_role("button", name="Start round").click()
    rows = page.locator("li.match")
    for i in range(rows.count()):
        button = rows.nth(i).locator('button[value="p1"]')
        if button.count():
            button.click()
            expect(rows.nth(i).locator(".result")).to_contain_text("wins")
    expect(page.locator("#round-progress")).to_contain_text("round complete")


@pytest.mark.django_db(transaction=True)
def test_P_AGE_3_age_modified_event_shows_three_division_winners(live_server, page):
    factories.user("olivia")
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("olivia")
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()

    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name").fill("Age Cup")
    page.get_by_label("Structure").select_option("swiss")
    page.get_by_label("Age divisions").select_option("age")
    page.get_by_label("Season (the year it ends in)").fill("2026")
    page.get_by_role("button", name="Create event").click()

    expect(page.locator("#cutoffs")).to_contain_text("Junior born 2014 or later")
    page.get_by_label("Paste players").fill(PLAYERS)
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Add these 22 players").click()
    expect(page.get_by_text("Added 22 players.")).to_be_visible()

    page.get_by_role("link", name="Dashboard").first.click()
    expect(page.locator("#age-mode")).to_contain_text("Junior has only 1-5 players")
    page.get_by_label("Swiss rounds").fill("2")
    page.get_by_label("Top cut of the largest division").select_option("0")
    page.get_by_role("button", name="Close check-in").click()
    expect(page.locator("#age-mode")).to_contain_text("age-modified")

    for _ in range(2):
        for group in ("junior+senior", "masters"):
            play_round(page, group)

    page.goto(f"{live_server.url}/e/age-cup/standings/")
    winners = page.locator(".winner")
    expect(winners).to_have_count(3)
    for label in ("Junior winner", "Senior winner", "Masters winner"):
        expect(page.get_by_text(label)).to_be_visible()
