"""The match-slip print page renders each player's report QR code; decoded, it is that
player's private link."""

from __future__ import annotations

import io
import re

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from pairings.services import round_pair
from tests import factories
from tests.pod_factories import pod_event
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.django_db(transaction=True)
def test_match_slips_print_with_a_readable_qr_code_of_the_players_report_link(live_server, browser):
    event, rnd, regs = factories.started_round(players=10)
    context = browser.new_context(viewport={"width": 1000, "height": 1200}, device_scale_factor=3)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("org")
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/e/{event.slug}/staff/rounds/{rnd.pk}/print/slips/?paper=letter")
    expect(page.locator("article.slip-card")).to_have_count(5)
    first = page.locator("article.slip-card").first
    expect(first).to_contain_text("Table 1")
    expect(first).to_contain_text("Record 0-0-0")

    # each player's name, link and QR code on their own tear-off strip
    expect(first.locator(".cut-here")).to_have_text("✂ Cut here · keep your half")
    stubs = first.locator(".slip-stub")
    expect(stubs).to_have_count(2)
    for i, (own, other) in enumerate([(regs[0], regs[1]), (regs[1], regs[0])]):
        stub = stubs.nth(i)
        expect(stub.locator(".name")).to_have_text(own.player.name)
        expect(stub.locator(".link")).to_have_text(
            f"{live_server.url}/e/{event.slug}/p/{own.report_token}/"
        )
        expect(stub).not_to_contain_text(other.player.name)
        expect(stub).not_to_contain_text(other.report_token)
    staff, strips = first.locator(".slip-staff").bounding_box(), stubs.first.bounding_box()
    assert staff and strips and strips["x"] >= staff["x"] + staff["width"]  # beyond the cut
    expect(first.locator(".slip-staff")).not_to_contain_text(regs[0].report_token)

    figure = page.locator('.slip-stub figure.qr-box[data-player="Player 002"]')
    png = figure.locator("svg").screenshot()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert [r.text for r in found] == [
        f"{live_server.url}/e/{event.slug}/p/{regs[1].report_token}/"
    ]

    page.emulate_media(media="print")
    assert page.locator(".print-toolbar").is_hidden()
    pdf = page.pdf(prefer_css_page_size=True)
    pages = re.findall(rb"/Type\s*/Page(?![s\w])", pdf)
    assert len(pages) == 2  # 5 slips: four on the first sheet, one on the second
    context.close()


@pytest.mark.django_db(transaction=True)
def test_pod_slips_print_two_per_sheet_with_every_seat_s_strip_on_the_card(live_server, browser):
    organiser = factories.user("org")
    event = pod_event(11, by=organiser)  # MP-POD-1: pods of 4, 4 and 3
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=3)
    services.round_publish(round=rnd, by=organiser)
    context = browser.new_context(viewport={"width": 1000, "height": 1200})
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("org")
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/e/{event.slug}/staff/rounds/{rnd.pk}/print/slips/")
    cards = page.locator("article.slip-card.slip-pod")
    expect(cards).to_have_count(3)
    for i in range(3):
        card = cards.nth(i)
        box = card.bounding_box()
        stubs = card.locator(".slip-stub")
        assert stubs.count() == int(card.get_attribute("data-seats")) >= 3
        for j in range(stubs.count()):  # every strip and its QR code fit on the card
            qr = stubs.nth(j).locator("svg").bounding_box()
            assert box and qr and qr["y"] + qr["height"] <= box["y"] + box["height"]
    page.emulate_media(media="print")
    pdf = page.pdf(prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf)) == 2  # two pod slips a sheet
    context.close()
