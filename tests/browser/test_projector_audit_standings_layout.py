"""in a real browser: the projector clock full screen at 1920 × 1080;
the audit page on a 390-px phone (pages of 100 rows as cards, nothing sideways); the
public standings headings over their columns on a 390-px phone; the staff round clock
stopping when the round completes."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from standings.services import standings_compute
from tests import factories
from tournaments import services
from tournaments.models import AuditEvent, Match, Round
from tournaments.services import Result

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def new_page(browser, **context):
    ctx = browser.new_context(**context)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return ctx, page, errors


def login(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))


def play(rnd: Round, by, tables: int | None = None) -> None:
    """The first ``tables`` tables (all: None) won by their first seat."""
    matches = Match.objects.filter(round=rnd).order_by("table").prefetch_related("seats")
    for m in list(matches)[:tables]:
        first = sorted(m.seats.all(), key=lambda s: s.seat)[0].registration
        services.slip_enter(match=m, result=Result.win(first), by=by)


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


@pytest.mark.django_db(transaction=True)
def test_the_projector_clock_fills_a_1920_by_1080_screen_without_the_site_header(
    live_server, browser
):
    organiser = factories.user("olivia")
    ev = factories.event_with_players(16, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser)
    play(rnd, organiser, tables=5)  # tables 6, 7 and 8 still playing
    ctx, page, errors = new_page(browser, viewport={"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/e/{ev.slug}/timer/")

    expect(page.locator(".round-clock")).to_have_count(1)
    assert page.locator(".site-header, #language-choice").count() == 0
    size = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= 1920 and size[1] <= 1080, size  # one screen, nothing to scroll
    clock = box(page, ".round-clock")
    value = box(page, ".round-clock .clock-value")
    playing = page.locator(".round-clock .playing")
    expect(playing).to_have_text("Still playing: tables 6, 7, 8")
    assert clock["x"] < 60 and clock["width"] >= 0.75 * 1920  # the clock's column: the width
    assert value["width"] >= 0.4 * 1920 and value["height"] >= 250  # readable from the back
    big = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.big-clock')).fontSize)"
    )
    tables = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.playing')).fontSize)"
    )
    assert big >= 300 and tables >= 50, (big, tables)
    assert box(page, ".round-clock .playing")["width"] >= 0.75 * 1920
    qr = box(page, ".timer-qr svg")
    assert qr["x"] + qr["width"] <= 1920 and qr["width"] >= 200  # a column of its own
    assert qr["x"] >= clock["x"] + clock["width"]
    expect(page.locator(".timer-qr svg title")).to_have_text("QR code of the public pairings")
    first = page.locator(".clock-value").inner_text()
    page.wait_for_timeout(2_000)
    expect(page.locator(".clock-value")).not_to_have_text(first)  # still counting
    assert errors == []
    ctx.close()


@pytest.mark.django_db(transaction=True)
def test_the_audit_page_on_a_phone_shows_100_cards_a_page_and_never_scrolls_sideways(
    live_server, browser
):
    organiser = factories.user("olivia")
    ev = factories.event_with_players(8, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser)
    play(rnd, organiser)  # real rows: results with old and new values
    AuditEvent.objects.bulk_create(
        AuditEvent(
            event=ev,
            action="note.test",
            object_type="event",
            object_id=str(ev.pk),
            reason=f"A long reason written by a judge about row {i}, " * 3,
        )
        for i in range(150)
    )
    ctx, page, errors = new_page(browser, **PHONE)
    login(page, live_server, "olivia")
    page.goto(f"{live_server.url}/e/{ev.slug}/staff/audit/?person=system")

    rows = page.locator("table.audit tbody tr")
    expect(rows).to_have_count(100)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    rights = page.evaluate(
        "Array.from(document.querySelectorAll('table.audit tbody tr'))"
        ".map(r => r.getBoundingClientRect().right)"
    )
    assert max(rights) <= 390  # every card inside the screen
    assert page.evaluate("document.documentElement.scrollHeight") < 30_000
    before = rows.first.locator("td.reason").evaluate(
        "td => getComputedStyle(td, '::before').content"
    )
    assert before == '"Reason: "'  # each value says what it is, the headings being hidden
    page.get_by_role("link", name="Older", exact=True).first.click()
    expect(page).to_have_url(re.compile(r"\?person=system&page=2$"))
    expect(page.locator("table.audit tbody tr")).to_have_count(50)
    expect(page.locator("#id_person")).to_have_value("system")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    page.goto(f"{live_server.url}/e/{ev.slug}/staff/audit/?person=u:{organiser.pk}")
    result = page.locator("table.audit tbody tr", has_text="result.enter").first
    old = result.locator("td[data-label=Old]")
    assert old.evaluate("td => getComputedStyle(td, '::before').content") == '"Old: "'
    expect(old).to_contain_text("outcome: pending")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert errors == []
    ctx.close()


ALIGNED = """() => {
  const out = [];
  for (const table of document.querySelectorAll('table.standings')) {
    const heads = Array.from(table.querySelectorAll('thead th'));
    for (const row of table.querySelectorAll('tbody tr')) {
      const cells = Array.from(row.children);
      heads.forEach((th, i) => out.push(
        [i, th.getBoundingClientRect().left, cells[i].getBoundingClientRect().left,
         th.getBoundingClientRect().width, cells[i].getBoundingClientRect().width]));
    }
  }
  return out;
}"""


@pytest.mark.parametrize("ruleset", ["pokemon", "mtg"])
@pytest.mark.django_db(transaction=True)
def test_public_standings_headings_stand_over_their_columns_on_a_390_px_phone(
    live_server, browser, ruleset
):
    organiser = factories.user("olivia")
    extra = {"ruleset": "mtg", "structure": "swiss"} if ruleset == "mtg" else {}
    ev = factories.event_with_players(8, by=organiser, **extra)
    if ruleset == "mtg":  # a long name in the first row's column
        reg = ev.registrations.order_by("pk").first()
        reg.player.name = "Maximiliana Wolfeschlegelsteinhausen-Bergerdorff"
        reg.player.save(update_fields=["name"])
    rnd = factories.round_in_order(ev, by=organiser)
    for m in Match.objects.filter(round=rnd).order_by("table").prefetch_related("seats"):
        first = sorted(m.seats.all(), key=lambda s: s.seat)[0].registration
        games = (2, 1, 0) if ruleset == "mtg" else None  # best of 3 (M-MATCH-1)
        services.slip_enter(match=m, by=organiser, result=services.Result.win(first, games))
    standings_compute(event=ev)
    ctx, page, errors = new_page(browser, **PHONE)
    page.goto(f"{live_server.url}/e/{ev.slug}/standings/")
    expect(page.locator("table.standings tbody tr")).to_have_count(8)
    cells = page.evaluate(ALIGNED)
    heads = page.locator("table.standings thead th").count()
    assert heads >= 6 and len(cells) == 8 * heads
    for i, th_left, td_left, th_width, td_width in cells:
        assert abs(th_left - td_left) <= 1, (i, th_left, td_left)
        assert abs(th_width - td_width) <= 1, (i, th_width, td_width)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert errors == []
    ctx.close()


@pytest.mark.django_db(transaction=True)
def test_the_staff_round_clock_stops_when_the_round_completes(live_server, browser):
    organiser = factories.user("olivia")
    ev = factories.event_with_players(4, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser)
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - dt.timedelta(minutes=10))
    ctx, page, errors = new_page(browser, viewport={"width": 1280, "height": 800})
    login(page, live_server, "olivia")
    page.goto(f"{live_server.url}/e/{ev.slug}/staff/rounds/{rnd.pk}/")
    value = page.locator("#round-clock .clock-value")
    expect(value).to_have_text(re.compile(r"^(40:00|39:[0-5]\d)$"))
    first = value.inner_text()
    page.wait_for_timeout(1_500)
    expect(value).not_to_have_text(first)  # counting down

    play(rnd, organiser)  # the last result completes the round; the page follows live
    label = page.locator("#round-clock .clock-label")
    expect(label).to_have_text("Round complete", timeout=20_000)
    expect(page.locator("#round-clock [data-started-ms]")).to_have_count(0)
    stopped = value.inner_text()
    page.wait_for_timeout(2_500)
    expect(value).to_have_text(stopped)  # no ticking any more
    page.reload()
    expect(label).to_have_text("Round complete")
    expect(value).to_have_text(stopped)
    assert page.get_by_role("button", name="Pause clock").count() == 0
    assert errors == []
    ctx.close()
