"""The event survives a dropped connection (static/js/offline.js, the worker at
/e/service-worker.js): Playwright's offline mode (``context.set_offline``) in Debian's
Chromium.

A scorekeeper enters ten slips offline, reloads the page offline (the worker answers
with the page's own copy), goes back online, and all ten are recorded exactly once; a
slip another scorekeeper contradicted meanwhile is shown with both values and changes
nothing. A player's page offline shows their last table and "Offline since 14:02"; a
report made offline is sent when the connection returns. axe finds no violation on
either page as it shows the waiting entries and the conflict.
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests import factories
from tournaments.models import AuditEvent, Match, Outcome, SelfReport, StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

AXE = Axe()
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def console_errors(page) -> list[str]:
    """The page's console errors from now on (a list that fills as they come)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def log_in(browser, live_server, username: str):
    """A laptop context of its own (its own IndexedDB and worker), signed in, with axe."""
    context = browser.new_context(**LAPTOP)
    context.set_default_timeout(15_000)
    context.add_init_script(script=AXE.axe_script)  # bundled: no CDN
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    return context, page


def violations(page) -> list[str]:
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']}: {', '.join(' '.join(n['target']) for n in v['nodes'][:4])}"
        for v in results["violations"]
    ]


def ready_offline(page) -> None:
    """The worker runs and the page has kept its copy (offline.js marks the page)."""
    expect(page.locator("html[data-offline-ready]")).to_have_count(1)


def result_rows(match: Match) -> int:
    return AuditEvent.objects.filter(
        action__in=("result.enter", "result.correct"), object_id=str(match.pk)
    ).count()


@pytest.mark.django_db(transaction=True)
def test_ten_slips_entered_offline_survive_a_reload_and_are_recorded_once(live_server, browser):
    event, rnd, regs = factories.started_round(24)  # 12 tables
    factories.staff(event, StaffRole.SCOREKEEPER, username="sam")
    factories.staff(event, StaffRole.SCOREKEEPER, username="kim")
    matches = {m.table: m for m in Match.objects.filter(round=rnd)}
    url = f"{live_server.url}/e/{event.slug}/staff/rounds/{rnd.pk}/"
    sam_context, sam = log_in(browser, live_server, "sam")
    kim_context, kim = log_in(browser, live_server, "kim")
    errors = console_errors(sam)
    sam.goto(url)
    ready_offline(sam)
    kim.goto(url)
    assert errors == []  # online, the worker and the page's copy log nothing

    sam_context.set_offline(True)
    winners = {}
    for table in range(1, 11):  # seat 1 wins odd tables, seat 2 even ones
        seat = regs[2 * (table - 1) + (table + 1) % 2]
        winners[table] = seat
        row = sam.locator(f"#match-{matches[table].pk}")
        row.get_by_role("button", name=f"{seat.player.name} wins").click()
        expect(row.locator(".offline-mark")).to_contain_text(
            f"Waiting to send: {seat.player.name} wins"
        )
    panel = sam.locator("#offline-panel")
    expect(panel).to_contain_text("10 slips are waiting to send")
    expect(panel).to_contain_text(re.compile(r"Offline since \d\d:\d\d\."))
    # Table 11: Sam says Player 021 won; meanwhile Kim, online, records Player 022.
    sam.locator(f"#match-{matches[11].pk}").get_by_role("button", name="Player 021 wins").click()
    kim_row = kim.locator(f"#match-{matches[11].pk}")
    kim_row.get_by_role("button", name="Player 022 wins").click()
    expect(kim_row.locator("[data-recorded]")).to_have_text("Player 022 wins")

    sam.reload()  # offline: the worker answers with the page's own copy
    expect(sam.locator("html[data-offline-copy]")).to_have_count(1)
    expect(sam.locator(".offline-mark")).to_have_count(11)
    expect(panel).to_contain_text("11 slips are waiting to send")
    expect(panel).to_contain_text("This is the page as it was last seen")
    assert violations(sam) == []
    assert not Match.objects.filter(round=rnd, table__lte=10).exclude(outcome=Outcome.PENDING)

    sam_context.set_offline(False)  # sent in order, then the page loads itself anew
    conflict = sam.locator(".offline-problem")
    expect(conflict).to_contain_text("Table 11: nothing changed.")
    expect(conflict).to_contain_text("Your slip: Player 021 wins.")
    expect(conflict).to_contain_text("Recorded meanwhile: Player 022 wins.")
    expect(sam.locator("html[data-offline-copy]")).to_have_count(0)
    expect(sam.locator(".offline-mark")).to_have_count(0)
    expect(panel).not_to_contain_text("waiting to send")
    for table in range(1, 11):
        m = Match.objects.get(pk=matches[table].pk)
        assert (m.outcome, m.winner_id, m.version) == (Outcome.WIN, winners[table].pk, 1)
        assert result_rows(m) == 1, table
    contested = Match.objects.get(pk=matches[11].pk)
    assert (contested.winner_id, contested.version) == (regs[21].pk, 1)
    assert result_rows(contested) == 1
    assert Match.objects.get(pk=matches[12].pk).outcome == Outcome.PENDING
    assert violations(sam) == []

    conflict.get_by_role("button", name="Dismiss").click()  # seen: the note goes
    expect(conflict).to_have_count(0)
    sam.reload()
    expect(sam.locator(".offline-problem")).to_have_count(0)
    sam_context.close()
    kim_context.close()


@pytest.mark.django_db(transaction=True)
def test_a_players_page_offline_shows_the_last_table_and_sends_the_report_when_back(
    live_server, browser
):
    event, rnd, regs = factories.started_round(4)
    context = browser.new_context(**PHONE)
    context.set_default_timeout(15_000)
    context.add_init_script(script=AXE.axe_script)
    phone = context.new_page()
    errors = console_errors(phone)
    phone.goto(f"{live_server.url}/e/{event.slug}/p/{regs[2].report_token}/")
    expect(phone.locator(".my-table")).to_contain_text("Table 2")
    ready_offline(phone)
    assert errors == []  # the manifest, the worker and the page's copy log nothing

    context.set_offline(True)
    phone.reload()  # the last known page, from this phone's copy
    expect(phone.locator("html[data-offline-copy]")).to_have_count(1)
    expect(phone.locator(".my-table")).to_contain_text("Table 2")
    expect(phone.locator(".my-table")).to_contain_text("vs Player 004")
    expect(phone.locator("#report")).to_contain_text("Round 1")
    expect(phone.locator("#offline-panel")).to_contain_text(
        re.compile(r"Offline since \d\d:\d\d\. This is the page as it was last seen")
    )
    phone.get_by_role("button", name="I won").tap()
    expect(phone.locator("#report .offline-mark")).to_contain_text("Waiting to send: I won")
    expect(phone.locator("#offline-panel")).to_contain_text(
        "Your report (I won) is waiting to send"
    )
    assert violations(phone) == []
    assert not SelfReport.objects.filter(registration=regs[2]).exists()

    context.set_offline(False)  # sent, then the page catches up from the server
    expect(phone.locator("#report")).to_contain_text("Waiting for your opponent")
    expect(phone.locator("html[data-offline-copy]")).to_have_count(0)
    expect(phone.locator("#offline-panel")).to_be_hidden()
    report = SelfReport.objects.get(registration=regs[2])
    assert report.match.table == 2 and report.winner_id == regs[2].pk
    assert AuditEvent.objects.filter(action="report.submit").count() == 1
    context.close()


@pytest.mark.django_db(transaction=True)
def test_a_slip_whose_request_fails_while_the_browser_says_online_waits_and_is_sent(
    live_server, browser
):
    """The venue's Wi-Fi is up but the server cannot be reached: the slip's request fails
    (routed to nowhere here), so the slip waits instead of showing an error, and the
    next try, once the server answers, records it once."""
    event, rnd, regs = factories.started_round(4)
    factories.staff(event, StaffRole.SCOREKEEPER, username="sam")
    context, page = log_in(browser, live_server, "sam")
    page.goto(f"{live_server.url}/e/{event.slug}/staff/rounds/{rnd.pk}/")
    ready_offline(page)
    unreachable = re.compile(r".*/result/$")
    page.route(unreachable, lambda route: route.abort("connectionrefused"))
    match = Match.objects.get(round=rnd, table=2)
    row = page.locator(f"#match-{match.pk}")
    row.get_by_role("button", name="Player 004 wins").click()
    expect(row.locator(".offline-mark")).to_contain_text("Waiting to send: Player 004 wins")
    expect(page.locator("#messages")).not_to_contain_text("No connection")
    expect(page.locator("#offline-panel")).to_contain_text("1 slip is waiting to send")
    page.unroute(unreachable)
    # tried again every 15 seconds while something waits
    expect(row.locator("[data-recorded]")).to_have_text("Player 004 wins", timeout=40_000)
    expect(page.locator(".offline-mark")).to_have_count(0)
    match.refresh_from_db()
    assert (match.winner_id, match.version) == (regs[3].pk, 1)
    assert result_rows(match) == 1
    context.close()
