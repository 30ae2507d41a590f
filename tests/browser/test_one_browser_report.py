"""One phone that opens both players' links from a printed slip and
reports both sides sends the table to the staff, never records it, and cannot drop the
opponent; two phones that agree are recorded as before."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tournaments.models import Match, Outcome, Registration

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def strip_links(page, table):
    """The private links printed on the tear-off strips of a table's slip."""
    stubs = page.locator(f'article.slip-card[data-table="{table}"] .slip-stub .link')
    expect(stubs).to_have_count(2)
    return stubs.all_inner_texts()


@pytest.mark.django_db(transaction=True)
def test_one_phone_reporting_both_sides_of_a_slip_goes_to_the_staff(live_server, browser, page):
    event, rnd, regs = factories.started_round(4)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("org")
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/e/{event.slug}/staff/rounds/{rnd.pk}/print/slips/")
    ash_link, misty_link = strip_links(page, 1)
    brock_link, gary_link = strip_links(page, 2)

    one = browser.new_context(**PHONE)  # one phone scans both codes of table 1
    phone = one.new_page()
    phone.goto(ash_link)
    phone.get_by_role("button", name="I won").tap()
    expect(phone.locator("#report")).to_contain_text("Waiting for your opponent")
    phone.goto(misty_link)
    phone.get_by_role("button", name="I lost").tap()
    # the answer's notice, or the page's own line once the live refresh redrew it
    expect(phone.locator("#report")).to_contain_text("Both reports came from one phone, so ")
    assert Match.objects.get(round=rnd, table=1).outcome == Outcome.PENDING
    phone.reload()
    expect(phone.locator("[data-one-browser]")).to_be_visible()
    expect(phone.get_by_role("button", name="I won")).to_have_count(0)

    phone.get_by_label("Yes, drop me from the event").check()
    phone.get_by_role("button", name="Drop").click()
    expect(phone.locator(".message-error")).to_contain_text("it cannot drop you")
    assert Registration.objects.get(pk=regs[1].pk).dropped_after_round is None

    two, three = browser.new_context(**PHONE), browser.new_context(**PHONE)
    brock, gary = two.new_page(), three.new_page()
    brock.goto(brock_link)
    brock.get_by_role("button", name="I won").tap()
    expect(brock.locator("#report")).to_contain_text("Waiting for your opponent")
    gary.goto(gary_link)
    gary.get_by_role("button", name="I lost").tap()
    expect(gary.locator("#report")).to_contain_text("Result: Player 003 wins")
    table2 = Match.objects.get(round=rnd, table=2)
    assert (table2.outcome, table2.winner_id) == (Outcome.WIN, regs[2].pk)

    page.goto(f"{live_server.url}/e/{event.slug}/staff/disputes/")
    expect(page.locator("li.match")).to_have_count(1)
    dispute = page.locator("li.match", has_text="Table 1")
    expect(dispute).to_contain_text("Both reports came from one phone")
    expect(dispute.get_by_role("button", name="Record result")).to_be_visible()
    for c in (one, two, three):
        c.close()
