""", done when: an organiser creates an 8-player Magic event from "New event" on a
390 × 844 phone and runs it to final standings showing OMW %, GW %, OGW % on every row,
with the round clock running; the same for a best-of-3 wins-against event with its
columns (wins against, game wins, win %)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from rulesets import get_ruleset
from tests import factories
from tournaments.models import Event, RoundStatus

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _log_in(page, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()


def _create_event(page, url: str, ruleset: str, name: str, expected: str) -> str:
    """Home → New event, the ruleset's recommendation for 8 players, "Use these",
    create, add 8 players, publish; returns the slug."""
    page.goto(f"{url}/")
    page.get_by_role("link", name="New event").first.click()
    page.locator("#id_ruleset").select_option(ruleset)
    page.locator("#id_players").fill("8")
    recommendation = page.locator("#recommendation")
    expect(recommendation).to_contain_text(expected)
    recommendation.get_by_role("button", name="Use these").click()
    page.locator("#id_name").fill(name)
    page.get_by_role("button", name="Create event").click()
    expect(page).to_have_url(re.compile(r"/e/[^/]+/staff/players/$"))
    found = re.search(r"/e/([^/]+)/staff/", page.url)
    assert found is not None
    slug = found.group(1)
    lines = "\n".join(f"Player {n:02d},{9000 + n}" for n in range(1, 9))
    page.locator("#import-players textarea[name=lines]").fill(lines)
    page.locator("#import-players").get_by_role("button", name="Preview").click()
    page.locator("#confirm-players").get_by_role("button", name="Add these 8 players").click()
    expect(page.get_by_text("Player 08").first).to_be_visible()
    # a new event is a draft; published, its projector and phone pages open.
    page.goto(f"{url}/e/{slug}/staff/team/")
    page.locator("#listing").get_by_role("button", name="Publish").click()
    expect(page.get_by_text("is published: on the home page for everyone")).to_be_visible()
    return slug


def _clock_runs(browser, url: str, slug: str) -> None:
    """The projector page of the running round counts down on the server's clock."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    timer = context.new_page()
    timer.goto(f"{url}/e/{slug}/timer/")
    value = timer.locator(".round-clock .clock-value").first
    expect(value).to_have_text(re.compile(r"^\d+:\d\d$"))
    first = value.inner_text()
    expect(value).not_to_have_text(first, timeout=5_000)  # it ticks
    minutes = int(value.inner_text().split(":")[0])
    assert 45 <= minutes <= 50  # a 50-minute head-to-head round, counting down
    context.close()


def _run_to_the_end(page, browser, url: str, slug: str) -> int:
    """Pair, publish, start and enter every result from the quick buttons (the winner's
    name on them) until the dashboard has nothing left to pair. Returns rounds played."""
    played = 0
    page.goto(f"{url}/e/{slug}/staff/")
    if page.get_by_role("button", name="Close check-in").count():  # round 1 waits
        page.get_by_role("button", name="Close check-in").click()
        expect(page.get_by_text("Check-in closed.")).to_be_visible()
    for _ in range(12):
        page.goto(f"{url}/e/{slug}/staff/")
        pair = page.locator("article.group").get_by_role("button", name="Pair next round")
        go = page.locator("article.group a.button.primary")
        if pair.count():
            pair.first.click()
            expect(page).to_have_url(re.compile(r"/staff/rounds/\d+/$"))
        elif go.count():
            go.first.click()
        else:
            break
        if page.get_by_role("button", name="Publish pairings").count():
            page.get_by_role("button", name="Publish pairings").click()
        if page.get_by_role("button", name="Start round").count():
            page.get_by_role("button", name="Start round").click()
            expect(page.locator("#round-clock")).to_be_visible()
            if played == 0:
                _clock_runs(browser, url, slug)
        ids = page.locator("li.match:has(.quick)").evaluate_all("els => els.map(e => e.id)")
        for row_id in ids:
            row = page.locator(f"#{row_id}")
            winner = row.locator(".quick button").first
            label = winner.inner_text()
            assert re.match(r"^Player \d\d 2-[01]$", label), label  # names the winner
            winner.click()
            expect(row.locator(".result")).to_contain_text("wins")
        expect(page.locator("#results-missing")).to_have_text("0")
        played += 1
    return played


def _standings_show_every_column(page, url: str, slug: str, ruleset: str) -> None:
    columns = get_ruleset(ruleset).columns
    for path in (f"/e/{slug}/standings/", f"/e/{slug}/staff/standings/"):
        page.goto(url + path)
        expect(page.get_by_text("Final standings", exact=True).first).to_be_visible()
        table = page.locator("table.standings").first
        headings = table.locator("thead th").all_inner_texts()
        assert headings[4:] == [c.heading for c in columns]
        rows = table.locator("tbody tr")
        expect(rows).to_have_count(8)
        for i in range(8):
            cells = rows.nth(i).locator("td").all_inner_texts()
            assert all(v.strip() for v in cells[4:]), cells
            assert len(cells) == 4 + len(columns)
        fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert fits, f"{path} must fit a 390 px wide phone"
        # Every column is on screen: the table does not scroll sideways in its box.
        box = page.locator(".scroll").first
        widths = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert widths[0] <= widths[1] + 1, f"{path}: the standings scroll sideways {widths}"


@pytest.mark.django_db(transaction=True)
def test_P_RT_5_eight_player_magic_event_from_new_event_to_final_standings_on_a_phone(
    live_server, phone, browser
):
    factories.user("olga")
    _log_in(phone, live_server.url, "olga")
    slug = _create_event(
        phone, live_server.url, "mtg", "Friday Magic", "Single elimination: 3 rounds"
    )
    event = Event.objects.get(slug=slug)
    assert (event.structure, event.swiss_rounds, event.top_cut_size) == (
        "single-elimination",
        0,
        0,
    )
    assert _run_to_the_end(phone, browser, live_server.url, slug) == 3
    assert not event.rounds.exclude(status=RoundStatus.COMPLETE).exists()
    _standings_show_every_column(phone, live_server.url, slug, "mtg")
    phone.goto(f"{live_server.url}/e/{slug}/standings/")
    headings = phone.locator("table.standings thead th").all_inner_texts()
    assert {"OMW %", "GW %", "OGW %"} <= set(headings)
    assert "OWP" not in headings


@pytest.mark.django_db(transaction=True)
def test_P_RT_7_eight_player_best_of_3_wins_against_event_to_final_standings_on_a_phone(
    live_server, phone, browser
):
    factories.user("walt")
    _log_in(phone, live_server.url, "walt")
    slug = _create_event(
        phone, live_server.url, "bo3-wins-against", "Saturday Duel", "3 Swiss rounds"
    )
    event = Event.objects.get(slug=slug)
    assert (event.structure, event.swiss_rounds, event.top_cut_size) == ("swiss", 3, 0)
    assert _run_to_the_end(phone, browser, live_server.url, slug) == 3
    _standings_show_every_column(phone, live_server.url, slug, "bo3-wins-against")
