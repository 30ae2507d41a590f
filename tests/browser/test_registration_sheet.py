"""An organiser registers players from a pasted spreadsheet in a real browser: a tab
line, a semicolon line, a quoted "Last, First" line and one duplicate name; the preview
marks the duplicate, the organiser confirms it, and the players are saved correctly.
Then the staff pages this work changed are photographed at 390 × 844 and 1366 × 900
(``tests/browser/screenshots/``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests import factories
from tournaments import services
from tournaments.models import Event
from tournaments.services import Result

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SCREENSHOTS = Path(__file__).parent / "screenshots"
SIZES = {"phone": (390, 844), "laptop": (1366, 900)}

SHEET = (
    "Alice Smith,1111,1990\n"
    "Carol White\t123\t1991\n"
    "Eve Black;789;1990\n"
    '"Garcia, Maria",456,1985\n'
    "Alice Smith,2222,1992\n"
    "Bob Stone,333,1989\n"
)


def _login(page, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()


def _shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_registration_from_a_pasted_spreadsheet_with_a_confirmed_duplicate(live_server, browser):
    olivia = factories.user("olivia")
    event = factories.event(by=olivia, name="Sheet Cup")
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    _login(page, live_server.url, "olivia")
    page.goto(f"{live_server.url}/e/{event.slug}/staff/players/")

    page.locator("#import-players textarea[name=lines]").fill(SHEET)
    page.locator("#import-players").get_by_role("button", name="Preview").click()

    preview = page.locator("#sheet-preview")
    expect(preview.locator("tbody tr")).to_have_count(6)
    expect(page.locator("#sheet-line-2 .name")).to_have_text("Carol White")
    expect(page.locator("#sheet-line-3 .name")).to_have_text("Eve Black")
    expect(page.locator("#sheet-line-4 .name")).to_have_text("Maria Garcia")
    expect(page.locator("#sheet-line-4")).to_contain_text("456")
    expect(page.locator("#sheet-line-1")).to_contain_text("Alice Smith is also on line 5.")
    expect(page.locator("#sheet-line-5")).to_have_class("has-duplicate")
    assert Event.objects.get(pk=event.pk).registrations.count() == 0  # nothing saved yet
    _shot(page, "registration_preview_1366")

    confirm = page.locator("#confirm-players")
    # The browser itself refuses the confirmation until the duplicate is confirmed.
    confirm.get_by_role("button", name="Add these 6 players").click()
    expect(page.locator("#sheet-preview")).to_be_visible()
    assert Event.objects.get(pk=event.pk).registrations.count() == 0
    confirm.get_by_label("These are different players with the same name").check()
    confirm.get_by_role("button", name="Add these 6 players").click()
    expect(page.get_by_text("Added 6 players.")).to_be_visible()

    rows = page.locator("table.players tbody tr")
    expect(rows).to_have_count(6)
    saved = sorted(
        Event.objects.get(pk=event.pk).registrations.values_list(
            "player__name", "player__player_id", "player__birth_year"
        )
    )
    assert saved == [
        ("Alice Smith", "1111", 1990),
        ("Alice Smith", "2222", 1992),
        ("Bob Stone", "333", 1989),
        ("Carol White", "123", 1991),
        ("Eve Black", "789", 1990),
        ("Maria Garcia", "456", 1985),
    ]
    _shot(page, "players_1366")
    context.close()

    # Players tell the two Alice Smiths apart on the public pairings.
    ev = Event.objects.get(pk=event.pk)
    regs = list(ev.registrations.order_by("player__name", "player__player_id"))
    factories.round_in_order(ev, by=olivia, regs=regs, status="published")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    p = phone.new_page()
    p.goto(f"{live_server.url}/e/{ev.slug}/pairings/?q=alice")
    expect(p.locator("#search-results .name")).to_have_text(
        ["Alice Smith #1111", "Alice Smith #2222"]
    )
    expect(p.locator("#search-results h2.round-heading")).to_have_text("Round 1")
    _shot(p, "find_my_table_duplicates_390")
    phone.close()


@pytest.mark.django_db(transaction=True)
def test_screenshots_of_the_changed_staff_pages(live_server, browser):
    """Every page this work changed, at both sizes: the Reason column of the audit is on
    screen at 1366 px, Corrections opens on the completed round with its search, the
    round page's next-round button, the player page, the event details, the home page."""
    olivia = factories.user("olivia")
    event = factories.event_with_players(8, by=olivia, name="Tidy Cup")
    services.event_update(event=event, by=olivia, location="Town hall")
    r1 = factories.round_in_order(event, by=olivia)
    for m in r1.matches.all():
        services.slip_enter(match=m, result=Result.draw(), by=olivia)
    m = r1.matches.order_by("table").first()
    m.refresh_from_db()
    services.result_correct(
        match=m,
        result=Result.win(m.seats.order_by("seat").first().registration),
        version=m.version,
        by=olivia,
        reason="The players signed the wrong box on the slip; both confirmed the winner",
    )
    reg = event.registrations.order_by("pk").first()
    base = f"{live_server.url}/e/{event.slug}/staff"
    pages = {
        "audit": f"{base}/audit/",
        "corrections": f"{base}/corrections/",
        "round": f"{base}/rounds/{r1.pk}/",
        "player": f"{base}/players/{reg.pk}/",
        "event_edit": f"{base}/event/",
        "players": f"{base}/players/",
        "home": f"{live_server.url}/",
    }
    for size, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        _login(page, live_server.url, "olivia")
        for name, url in pages.items():
            page.goto(url)
            _shot(page, f"{name}_{width}")
            if name == "audit" and size == "laptop":
                reason = page.locator("td.reason").first
                expect(reason).to_contain_text("signed the wrong box")
                box = reason.bounding_box()
                assert box is not None and box["x"] + box["width"] <= width
            if name == "corrections":
                expect(page.locator("#chosen-round")).to_contain_text("Round 1")
                expect(page.locator("#corrections-search")).to_be_visible()
            if name == "round":
                expect(page.locator("#pair-next").get_by_role("button")).to_have_text(
                    "Pair the next round"
                )
            if name == "player":
                expect(page.locator("#disqualify summary")).to_be_visible()
                expect(page.get_by_role("button", name="Disqualify")).to_be_hidden()
            if name == "home":
                line = page.locator(".event-list li", has_text="Tidy Cup").last
                expect(line.locator("small")).to_have_text(re.compile(r"^Town hall · "))
        page.goto(pages["players"])
        page.locator("#import-players textarea[name=lines]").fill(SHEET)
        page.locator("#import-players").get_by_role("button", name="Preview").click()
        expect(page.locator("#sheet-preview tbody tr")).to_have_count(6)
        page.locator("#sheet-preview").scroll_into_view_if_needed()
        _shot(page, f"registration_preview_{width}")
        page.goto(f"{pages['corrections']}?round={r1.pk}&q=Player+003")
        expect(page.locator("li.match")).to_have_count(1)
        _shot(page, f"corrections_search_{width}")
        page.goto(f"{live_server.url}/e/{event.slug}/pairings/?by=name")
        expect(page.locator("h2.round-heading")).to_have_text("Round 1")
        _shot(page, f"pairings_by_name_{width}")
        context.close()
