"""in a real browser: a player on a 360-px phone reads their
place, opponents and table; the standings fit that phone; the planner shows a schedule
for 600 Masters whose finish moves when a round runs long; the help pages. Every page
this work changed is photographed at 390 × 844 and 1366 × 900
(``tests/browser/screenshots/``).

The player test checks elements and data attributes first and visible words second,
from :data:`WORDS` per language: another language runs by adding its words there.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from rulesets.base import as_integer
from standings.models import StandingsSnapshot
from standings.services import standings_compute
from tests import factories
from tournaments import services
from tournaments.models import Event, Match, Round, RoundStatus
from tournaments.services import Result

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SCREENSHOTS = Path(__file__).parent / "screenshots"
SIZES = {"390": (390, 844), "1366": (1366, 900)}
#: Visible words per language (the Accept-Language the phone sends).
WORDS = {
    "en": {
        "place": "Your place",
        "of": "of",
        "rounds": "Your earlier rounds",
        "against": "against",
        "table": "Table",
        "won": "Won",
        "lost": "Lost",
    },
    "es": {
        "place": "Tu puesto",
        "of": "de",
        "rounds": "Tus rondas anteriores",
        "against": "contra",
        "table": "Mesa",
        "won": "Ganada",
        "lost": "Perdida",
    },
}


def _shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def _context(browser, width: int, height: int, lang: str = "en"):
    return browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=width < 500,
        has_touch=width < 500,
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
    )


def _login(page, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(factories.PASSWORD)
    page.locator("form button[type=submit], form input[type=submit]").last.click()


def _play(rnd: Round, by) -> None:
    """Every table won by its first seat."""
    for m in Match.objects.filter(round=rnd).prefetch_related("seats__registration"):
        first = sorted(m.seats.all(), key=lambda s: s.seat)[0].registration
        services.slip_enter(match=m, result=Result.win(first), by=by)


def _event_after_two_rounds():
    """8 players, rounds 1 and 2 played (first seat wins), standings computed, round 3
    published. Player 003 beat Player 004, lost to Player 001, sits at table 1 now."""
    organiser = factories.user("ora")
    event = factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=0)
    regs = list(event.registrations.order_by("pk"))
    _play(factories.round_in_order(event, by=organiser), organiser)
    order = [regs[i] for i in (0, 2, 4, 6, 1, 3, 5, 7)]
    _play(factories.round_in_order(event, by=organiser, number=2, regs=order), organiser)
    snapshot = standings_compute(event=event)
    order3 = [regs[i] for i in (2, 5, 0, 4, 1, 6, 3, 7)]
    factories.round_in_order(
        event, by=organiser, status=RoundStatus.PUBLISHED, number=3, regs=order3
    )
    return event, regs, snapshot, organiser


@pytest.mark.parametrize("lang", list(WORDS))
@pytest.mark.django_db(transaction=True)
def test_a_player_on_a_360_px_phone_reads_place_opponents_and_table(live_server, browser, lang):
    event, regs, snapshot, _ = _event_after_two_rounds()
    player = regs[2]
    row = next(r for r in snapshot.data["divisions"]["open"] if r["player"] == player.external_id)
    words = WORDS[lang]
    context = _context(browser, 360, 780, lang)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/e/{event.slug}/p/{player.report_token}/")

    standing = phone.locator("#standing")
    expect(standing).to_have_attribute("data-place", str(row["place"]))
    expect(standing).to_have_attribute("data-record", row["record"])
    expect(standing).to_have_attribute("data-points", str(row["match_points"]))
    expect(standing.locator(".place")).to_contain_text(f"{row['place']} {words['of']} 8")
    expect(standing).to_contain_text(words["place"])
    expect(phone.locator(".table-big")).to_have_text("1")  # round 3, table 1
    expect(phone.locator("#report .seat")).to_contain_text("Player 006")
    history = phone.locator("#history li")
    expect(history).to_have_count(2)
    expect(history.nth(0)).to_have_attribute("data-result", "won")
    expect(history.nth(1)).to_have_attribute("data-result", "lost")
    expect(history.nth(0).locator(".history-opponent")).to_contain_text("Player 004")
    expect(history.nth(1).locator(".history-opponent")).to_contain_text("Player 001")
    expect(phone.locator("#history")).to_contain_text(words["rounds"])
    expect(history.nth(0).locator(".history-result")).to_have_text(words["won"])
    expect(history.nth(1).locator(".history-result")).to_have_text(words["lost"])
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _shot(phone, "player_page_360" if lang == "en" else f"player_page_360_{lang}")

    # The standings fit the same phone: every column on screen, nothing scrolls sideways.
    phone.goto(f"{live_server.url}/e/{event.slug}/standings/")
    table = phone.locator("table.standings").first
    expect(table.locator("tbody tr")).to_have_count(8)
    headings = table.locator("thead th")
    assert headings.count() == 4 + len(event.rules.columns)
    for i in range(headings.count()):
        box = headings.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 361, (i, box)
    widths = phone.locator(".scroll").first.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert widths[0] <= widths[1] + 1, widths
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _shot(phone, "standings_360" if lang == "en" else f"standings_360_{lang}")
    context.close()


LONG_NAMES = ("Maximiliano Fernández-Castellanos", "Anne-Sophie Vanderberghe", "Li Wei")


@pytest.mark.parametrize("ruleset", ["pokemon", "mtg", "bo3-wins-against"])
@pytest.mark.django_db(transaction=True)
def test_standings_with_long_names_and_full_percentages_fit_a_360_px_phone(
    live_server, browser, ruleset
):
    """The widest values a column can hold (100.00 %, two-digit counts) and long names:
    every column stays on a 360-px screen, names wrap inside their own column."""
    organiser = factories.user("sam")
    event = factories.event(by=organiser, ruleset=ruleset, structure="swiss")
    rules = event.rules
    rows = [
        {
            "place": i + 1,
            "player": f"p{i}",
            "name": LONG_NAMES[i % 3],
            "match_points": 21,
            "record": "10-10-10",
            "tiebreakers": {c.key: 1 if c.format is not as_integer else 99 for c in rules.columns},
        }
        for i in range(6)
    ]
    StandingsSnapshot.objects.create(
        event=event,
        label="After round 9",
        rounds_complete=9,
        data={"ruleset": ruleset, "divisions": {"open": rows}},
    )
    context = _context(browser, 360, 780)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/e/{event.slug}/standings/")
    table = phone.locator("table.standings").first
    expect(table.locator("tbody tr")).to_have_count(6)
    cells = table.locator("tbody tr").first.locator("td")
    assert cells.count() == 4 + len(rules.columns)
    for i in range(cells.count()):
        box = cells.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 361, (i, box)
        assert cells.nth(i).evaluate("e => e.scrollWidth <= e.clientWidth + 1"), i  # not cut
    # a stacked row: the whole name on the row's first line, the numbers on the second
    name, record = cells.nth(1).bounding_box(), cells.nth(2).bounding_box()
    assert name is not None and record is not None and record["y"] >= name["y"] + name["height"] - 1
    assert "100.00%" in table.inner_text() or not any(
        c.format is not as_integer for c in rules.columns
    )
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _shot(phone, f"standings_long_names_{ruleset}_360")
    context.close()


def _fill_plan(page) -> None:
    page.locator("#id_players").fill("600")
    page.locator("#id_plan_start").fill("09:00")
    page.locator("#id_plan_round").fill("50")
    page.locator("#id_plan_break").fill("10")
    page.locator("#id_plan_tables").fill("300")


@pytest.mark.django_db(transaction=True)
def test_the_planner_shows_a_schedule_for_600_masters_and_the_finish_moves(live_server, browser):
    factories.user("paula")
    context = _context(browser, *SIZES["1366"])
    page = context.new_page()
    _login(page, live_server.url, "paula")
    page.goto(f"{live_server.url}/staff/new/")
    _fill_plan(page)
    expect(page.locator("#plan-finish")).to_have_text("23:05")  # HTMX, from the inputs
    slots = page.locator(".schedule-list li")
    expect(slots).to_have_count(13)
    expect(slots.nth(0)).to_contain_text("09:00–09:50")
    expect(page.locator(".schedule-list li[data-phase=top-cut]")).to_have_count(3)
    expect(page.locator(".plan-divisions tbody tr")).to_contain_text("600")
    expect(page.locator(".plan-divisions tbody tr")).to_contain_text("10")
    page.locator("#id_plan_tables").fill("200")  # too few tables: flights (P-FL-1)
    expect(page.locator(".plan-note").first).to_contain_text("2 flights take turns")
    page.locator("#id_plan_tables").fill("300")
    expect(page.locator("#plan-finish")).to_have_text("23:05")
    _shot(page, "event_create_plan_htmx_1366")

    page.get_by_role("button", name="Use these").click()
    page.locator("#id_name").fill("Masters Regional")
    page.locator("#id_date").fill("2026-05-09")
    page.get_by_role("button", name="Create event").click()
    expect(page).to_have_url(re.compile(r"/staff/players/$"))
    event = Event.objects.get(name="Masters Regional")
    assert (event.swiss_rounds, event.top_cut_size) == (10, 8)
    assert event.expected_players == {"masters": 600}
    assert (event.planned_start, event.planned_round_seconds) == (dt.time(9), 50 * 60)

    dashboard = f"{live_server.url}/e/{event.slug}/staff/"
    page.goto(dashboard)
    expect(page.locator("#estimated-finish strong")).to_have_text("23:05")
    expect(page.locator("#what-next")).to_have_attribute("data-step", "players")
    # Round 1 runs 25 minutes long: every later round, and the finish, moves with it.
    nine = timezone.make_aware(dt.datetime(2026, 5, 9, 9, 0))
    Round.objects.create(
        event=event, group=factories.group_row(event, "open"), number=1, status=RoundStatus.COMPLETE,
        started_at=nine, completed_at=nine + dt.timedelta(minutes=75),
    )  # fmt: skip
    page.reload()
    expect(page.locator("#estimated-finish strong")).to_have_text("23:30")
    _shot(page, "dashboard_finish_moved_1366")
    page.goto(f"{live_server.url}/e/{event.slug}/")
    expect(page.locator("#estimated-finish strong")).to_have_text("23:30")
    context.close()


@pytest.mark.django_db(transaction=True)
def test_screenshots_of_the_pages_this_work_changed(live_server, browser):
    """New event with its plan, dashboard with its next step and finish, the public event
    page, the standings columns page, the staff help, the player page and the standings,
    at 390 × 844 and 1366 × 900; none scrolls sideways."""
    event, regs, _, _ = _event_after_two_rounds()
    Event.objects.filter(pk=event.pk).update(
        planned_start=dt.time(9), date=dt.date(2026, 5, 9), planned_round_seconds=50 * 60
    )
    day = timezone.make_aware(dt.datetime(2026, 5, 9, 9, 0))
    for number, (start, end) in {1: (0, 52), 2: (62, 115)}.items():  # minutes after 09:00
        Round.objects.filter(event=event, number=number).update(
            started_at=day + dt.timedelta(minutes=start),
            completed_at=day + dt.timedelta(minutes=end),
        )
    pages = {
        "event_create_plan": "/staff/new/?players=600&start=09:00&round_minutes=50&tables=300",
        "dashboard": f"/e/{event.slug}/staff/",
        "event_page": f"/e/{event.slug}/",
        "standings_help": f"/e/{event.slug}/standings/help/",
        "staff_help_organiser": f"/e/{event.slug}/staff/help/organiser/",
        "staff_help_judge": f"/e/{event.slug}/staff/help/judge/",
        "player_page": f"/e/{event.slug}/p/{regs[2].report_token}/",
        "standings": f"/e/{event.slug}/standings/",
    }
    for size, (width, height) in SIZES.items():
        context = _context(browser, width, height)
        page = context.new_page()
        _login(page, live_server.url, "ora")
        for name, path in pages.items():
            page.goto(live_server.url + path)
            expect(page.locator("main h1").first).to_be_visible()
            fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
            assert fits, f"{name} scrolls sideways at {width} px"
            if name in ("dashboard", "event_page"):  # round 3: 11:05–11:55
                expect(page.locator("#estimated-finish strong")).to_have_text("11:55")
            _shot(page, f"{name}_{size}")
        context.close()
