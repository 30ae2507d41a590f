"""Players report their own results on phones; a judge resolves the dispute and finds
the reason in the audit trail."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests import factories
from tournaments.models import Match, Outcome, StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def report(browser, url, button):
    """Open a player's private link on a phone of their own and press a result button."""
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.goto(url)
    phone.get_by_role("button", name=button).tap()
    return context, phone


@pytest.mark.django_db(transaction=True)
def test_players_self_report_agree_and_disagree_then_a_judge_resolves(live_server, browser, page):
    event, rnd, regs = factories.started_round()
    judge = factories.staff(event, StaffRole.JUDGE, username="jules")
    link = {r.pk: f"{live_server.url}/e/{event.slug}/p/{r.report_token}/" for r in regs}
    contexts = []

    ctx, ash = report(browser, link[regs[0].pk], "I won")
    contexts.append(ctx)
    expect(ash.locator("#report")).to_contain_text("Waiting for your opponent")
    assert ash.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ctx, misty = report(browser, link[regs[1].pk], "I lost")
    contexts.append(ctx)
    # Her answer ("Result recorded"), or the page's own line once a live refresh came
    # (a loaded machine can take longer than the answer's few seconds in view).
    expect(misty.locator("#report")).to_contain_text(
        re.compile("Result recorded|Result: Player 001 wins")
    )
    ash.reload()
    expect(ash.locator("#report")).to_contain_text("Result: Player 001 wins")

    ctx, brock = report(browser, link[regs[2].pk], "I won")
    contexts.append(ctx)
    ctx, gary = report(browser, link[regs[3].pk], "I won")
    contexts.append(ctx)
    # His answer, or the page's own line once the live refresh came after its hold.
    expect(gary.locator("#report")).to_contain_text(
        re.compile("A judge will come to your table|Your reports differ: a judge will decide")
    )
    assert Match.objects.get(round=rnd, table=2).outcome == Outcome.PENDING

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(judge.username)
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/e/{event.slug}/staff/disputes/")
    dispute = page.locator("li.match", has_text="Table 2")
    expect(dispute).to_contain_text("Player 003 reported Player 003 wins")
    expect(dispute).to_contain_text("Player 004 reported Player 004 wins")
    dispute.get_by_label("Result").select_option(label="Player 004 wins")
    dispute.get_by_label("Reason").fill("Player 003 conceded game 3 to the judge")
    dispute.get_by_role("button", name="Record result").click()
    expect(page.locator(".message-success")).to_contain_text("recorded as Player 004 wins")

    page.get_by_role("link", name="Audit").click()
    row = page.locator("table.audit tr", has_text="report.override")
    expect(row).to_contain_text("Player 003 conceded game 3 to the judge")
    expect(row).to_contain_text("jules")
    brock.reload()
    expect(brock.locator("#report")).to_contain_text("Result: Player 004 wins")
    for c in contexts:
        c.close()
