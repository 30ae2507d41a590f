"""The match-slip print page renders each player's report QR code; decoded, it is that
player's private link."""

from __future__ import annotations

import io
import re

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from tests import factories

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

    figure = page.locator('figure.qr-box[data-player="Player 002"]')
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
