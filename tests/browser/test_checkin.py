"""Check-in in a real browser: a scorekeeper on a 390-px phone
finds players by a name typed without accents or by their ID and checks them in with one
tap each; a player checks themselves in on their private page; closing check-in lists
the one absentee and removes them, and only then is round 1 offered."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tournaments import services
from tournaments.models import Registration

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

NAMES = ["Tomás Díaz", "Zoë Müller", "Ana Li", "Bo Kim"]


def _log_in(page, url: str, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])


@pytest.mark.django_db(transaction=True)
def test_staff_tap_players_in_on_a_phone_and_a_player_checks_in_on_their_page(
    live_server, phone, page, organiser
):
    ev = factories.event(by=organiser, checkin_step=True)
    regs = [
        services.registration_add(event=ev, name=n, player_id=f"90{i}", by=organiser)
        for i, n in enumerate(NAMES, start=1)
    ]
    base = live_server.url

    # The player: "Check in" on their private page.
    ana = regs[2]
    page.goto(base + reverse("public:player", args=[ev.slug, ana.report_token]))
    page.locator("#player-checkin").get_by_role("button", name="Check in").click()
    expect(page.locator("#player-checkin")).to_contain_text("You are checked in (")

    # The scorekeeper's phone: the list counts Ana present; search and tap.
    _log_in(phone, base, organiser)
    phone.goto(base + reverse("staff:checkin", args=[ev.slug]))
    expect(phone.locator("#present-count")).to_have_text("1")
    expect(phone.locator("#absent-count")).to_have_text("3")
    phone.get_by_label("Find a player").fill("tomas")
    rows = phone.locator("#checkin-rows li.checkin-row")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Tomás Díaz")
    rows.first.get_by_role("button").tap()
    expect(rows.first).to_have_attribute("data-present", "1")
    expect(rows.first.get_by_role("button")).to_have_attribute("aria-pressed", "true")
    expect(phone.locator("#present-count")).to_have_text("2")
    phone.get_by_label("Find a player").fill("903")  # Ana's ID; unticks her by mistake
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Ana Li")
    rows.first.get_by_role("button").tap()
    expect(rows.first).to_have_attribute("data-present", "0")
    rows.first.get_by_role("button").tap()  # and back
    expect(rows.first).to_have_attribute("data-present", "1")
    phone.get_by_label("Find a player").fill("muller")
    expect(rows.first).to_contain_text("Zoë Müller")
    expect(rows).to_have_count(1)
    rows.first.get_by_role("button").tap()
    expect(phone.locator("#present-count")).to_have_text("3")
    expect(phone.locator("#absent-count")).to_have_text("1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = rows.first.get_by_role("button").bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
    present = set(
        Registration.objects.filter(event=ev, checked_in_at__isnull=False).values_list(
            "player__name", flat=True
        )
    )
    assert present == {"Tomás Díaz", "Ana Li", "Zoë Müller"}

    # Closing check-in: round 1 is not offered before; the absentee is listed, then removed.
    phone.goto(base + reverse("staff:dashboard", args=[ev.slug]))
    expect(phone.get_by_role("button", name="Pair next round")).to_have_count(0)
    phone.get_by_role("button", name="Close check-in").click()
    expect(phone.locator("#absentees li")).to_have_count(1)
    expect(phone.locator("#absentees")).to_contain_text("Bo Kim")
    phone.get_by_role("button", name="Remove 1 player and close check-in").click()
    expect(phone.get_by_text("Check-in closed.")).to_be_visible()
    expect(phone.get_by_role("button", name="Pair next round")).to_be_visible()
    assert sorted(ev.registrations.values_list("player__name", flat=True)) == [
        "Ana Li",
        "Tomás Díaz",
        "Zoë Müller",
    ]
