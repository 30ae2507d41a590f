"""Every public form works in a real browser with JavaScript off: the
pairings search, the language switcher, a player's report and a player's drop on their
private link. The private page's referrer policy (``same-origin``) lets the browser send
its real ``Origin``: with ``no-referrer`` it sent ``Origin: null`` and Django's CSRF check
refused the drop ("Origin checking failed - null does not match")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.django_db(transaction=True)
def test_every_public_form_works_with_javascript_off(live_server, browser):
    event, rnd, regs = factories.started_round(4)
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 390, "height": 844}, is_mobile=True
    )
    context.set_default_timeout(10_000)
    phone = context.new_page()
    refused = []
    phone.on("response", lambda r: refused.append(r.url) if r.status == 403 else None)

    phone.goto(f"{live_server.url}/e/{event.slug}/pairings/")
    phone.get_by_label("Find my table").fill("Player 003")
    phone.get_by_role("button", name="Find").click()
    expect(phone.locator("main")).to_contain_text("Player 004")

    phone.get_by_label("Language").select_option("es")
    phone.get_by_role("button", name="Change").click()
    expect(phone.locator("html")).to_have_attribute("lang", "es")
    phone.get_by_label("Idioma").select_option("en")
    phone.get_by_role("button", name="Cambiar").click()
    expect(phone.locator("html")).to_have_attribute("lang", "en")

    mine = f"{live_server.url}/e/{event.slug}/p/{regs[0].report_token}/"
    phone.goto(mine)
    phone.get_by_role("button", name="I won").click()
    expect(phone.locator(".message-success")).to_contain_text("Thanks!")
    expect(phone.locator("#report")).to_contain_text("Waiting for your opponent")

    phone.get_by_label("Yes, drop me from the event").check()
    phone.get_by_role("button", name="Drop").click()
    expect(phone.locator(".message-success")).to_contain_text("You dropped after round 1")
    assert refused == []
    regs[0].refresh_from_db()
    assert regs[0].dropped
    context.close()


@pytest.mark.django_db(transaction=True)
def test_check_in_forms_work_with_javascript_off(live_server, browser):
    """The forms  added for players: "Check in" on the private page, and the door
    page a QR code opens (player ID and birth year)."""
    organiser = factories.user("olivia")
    event = factories.event(by=organiser, checkin_step=True)
    from tournaments import services

    ana = services.registration_add(event=event, name="Ana Li", player_id="901", by=organiser)
    bo = services.registration_add(
        event=event, name="Bo Kim", player_id="902", birth_year=1990, by=organiser
    )
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 390, "height": 844}, is_mobile=True
    )
    context.set_default_timeout(10_000)
    phone = context.new_page()
    refused = []
    phone.on("response", lambda r: refused.append(r.url) if r.status == 403 else None)

    phone.goto(f"{live_server.url}/e/{event.slug}/p/{ana.report_token}/")
    phone.locator("#player-checkin").get_by_role("button", name="Check in").click()
    expect(phone.locator("#player-checkin")).to_contain_text("You are checked in (")

    phone.goto(f"{live_server.url}/e/{event.slug}/checkin/")
    phone.get_by_label("Player ID").fill("902")
    phone.get_by_label("Birth year").fill("1990")
    phone.get_by_role("button", name="Check in").click()
    expect(phone.locator("#checked-in")).to_contain_text("Bo Kim, you are checked in.")
    assert refused == []
    ana.refresh_from_db()
    bo.refresh_from_db()
    assert ana.checked_in_at is not None and bo.checked_in_at is not None
    context.close()
