"""The round clock of a Magic event in a real browser: a phone on the
projector page sees the clock count down by the server's clock; the organiser pauses it
on the staff round page and the phone's clock shows "Paused" and stops."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.django_db(transaction=True)
def test_phone_sees_the_mtg_round_clock_count_down_and_stop_when_staff_pause_it(
    live_server, phone, page
):
    organiser = factories.user("olivia")
    ev = factories.event_with_players(8, by=organiser, ruleset="mtg", structure="swiss")
    rnd = factories.round_in_order(ev, by=organiser)

    phone.goto(f"{live_server.url}/e/{ev.slug}/timer/")
    value = phone.locator(".round-clock .clock-value")
    expect(value).to_have_text(re.compile(r"^(50:00|49:[0-5]\d)$"))  # the ruleset's 50 minutes
    first = value.inner_text()
    phone.wait_for_timeout(2_000)
    expect(value).not_to_have_text(first)  # counting down, second by second
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("olivia")
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/e/{ev.slug}/staff/rounds/{rnd.pk}/")
    page.get_by_role("button", name="Pause clock").click()
    expect(page.get_by_role("button", name="Resume clock")).to_be_visible()
    expect(page.locator("#round-clock .clock-label")).to_have_text("Paused")

    # The projector page refreshes itself every 15 s: no reload needed.
    expect(phone.locator(".round-clock .clock-label")).to_have_text("Paused", timeout=25_000)
    stopped = value.inner_text()
    phone.wait_for_timeout(2_000)
    expect(value).to_have_text(stopped)  # a paused clock does not count
