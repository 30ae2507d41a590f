"""A judge typing on the floor board while the event moves on (static/js/live.js).

The board is a live page: every change at the event refreshes it, but not while the judge
types in one of its forms (what they type would be replaced). Lived by a judge's phone
and a player's phone, each a browser context of its own:

- judy has claimed table 1's call and types her note; a player at table 2 calls a judge
  from their phone. judy's board holds the update and says so (role=status, "New
  updates: they appear when you finish typing.", with "Show now") next to her form; her
  text and focus stay. "Show now" brings table 2's call in and keeps her note.
- judy starts a note on table 3's open call; jamie claims it, so the form goes away
  with the update: "Show now" applies it and a warning (role=alert) gives her back
  what she typed, until she dismisses it.

No page logs a console message about the Content-Security-Policy (any level), nor
fires a ``securitypolicyviolation`` event, across these live updates; axe-core finds no
violation with the note shown.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.browser.test_judge_calls import no_violations, open_context
from tests.browser.test_live_event import staff_login, watch
from tournaments import services
from tournaments.models import JudgeCall

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

# Every Content-Security-Policy violation the page sees, kept where the test can read it.
CSP_WATCH = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.cspViolations.push(e.violatedDirective + " " + (e.sourceFile || "") + ":" +
    e.lineNumber + " " + (e.sample || ""));
});
"""
HELD = "New updates: they appear when you finish typing."
LOST = "This update removed the form you were filling in. What you typed:"


def csp_messages(page, found: list[str]) -> None:
    """Every console message of ``page`` (any level) that mentions the policy."""
    page.on(
        "console",
        lambda m: (
            found.append(f"{page.url} [{m.type}] {m.text}")
            if "content security policy" in m.text.lower()
            else None
        ),
    )


@pytest.mark.django_db(transaction=True)
def test_a_judge_typing_is_told_updates_wait_and_shows_them_without_losing_her_note(
    live_server, browser
):
    organiser = factories.user("olivia")
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=0)
    judy = factories.staff(ev, "judge", username="judy")
    jamie = factories.staff(ev, "judge", username="jamie")
    factories.round_in_order(ev, by=organiser)  # tables 1–4 in registration order
    regs = list(ev.registrations.order_by("pk"))
    first = services.judge_call_open(registration=regs[0], reason="rules")  # table 1
    services.judge_call_claim(call=first, by=judy, version=first.version)
    services.judge_call_open(registration=regs[4])  # table 3, open
    errors: list[str] = []
    csp: list[str] = []
    contexts = []

    def actor(path: str, *, login: str = ""):
        context = open_context(browser)
        context.add_init_script(script=CSP_WATCH)
        contexts.append(context)
        page = context.new_page()
        watch(page, errors)
        csp_messages(page, csp)
        if login:
            staff_login(page, live_server, login)
        page.goto(live_server.url + path)
        return page

    try:
        board = actor(f"/e/{ev.slug}/staff/floor/", login="judy")
        player = actor(f"/e/{ev.slug}/p/{regs[2].report_token}/")  # table 2
        mine = board.locator("li.call[data-table='1']")
        expect(mine.locator("details.call-resolve")).to_have_attribute("open", "")
        note = mine.get_by_label("Note")
        note.fill("Deck check: 58 cards, both players told")
        expect(note).to_be_focused()

        # A player calls from table 2: the board holds it while judy types, and says so
        # right after her form.
        player.get_by_role("button", name="Call a judge").click()
        expect(player.locator("[data-call-status=open]")).to_be_visible()
        held = board.locator(".live-held[role=status]")
        expect(held).to_contain_text(HELD)
        expect(mine.locator("form.stack + .live-held")).to_have_count(1)
        expect(board.locator("li.call[data-table='2']")).to_have_count(0)
        expect(note).to_be_focused()
        expect(note).to_have_value("Deck check: 58 cards, both players told")
        no_violations(board, "the floor board holding an update")

        # "Show now": table 2's call is in, judy's note is kept, the note has gone.
        held.get_by_role("button", name="Show now").click()
        expect(board.locator("li.call[data-table='2']")).to_contain_text("No reason given")
        expect(note).to_have_value("Deck check: 58 cards, both players told")
        expect(held).to_have_count(0)

        # judy starts a note on table 3's open call; jamie claims it meanwhile, so its
        # resolve form leaves judy's board with the update: she is given her text back.
        third = board.locator("li.call[data-table='3']")
        third.locator("summary").click()
        third.get_by_label("Note").fill("Asked about the prize split")
        call = JudgeCall.objects.get(registration=regs[4])
        services.judge_call_claim(call=call, by=jamie, version=call.version)
        expect(held).to_contain_text(HELD)
        expect(third.locator("details.call-resolve")).to_have_count(1)
        held.get_by_role("button", name="Show now").click()
        expect(third).to_contain_text("Claimed by jamie")
        expect(third.locator("details.call-resolve")).to_have_count(0)
        lost = board.locator("#live-lost[role=alert]")
        expect(lost).to_contain_text(LOST)
        expect(lost.locator("li")).to_have_text("Note: Asked about the prize split")
        expect(note).to_have_value("Deck check: 58 cards, both players told")  # still kept
        no_violations(board, "the floor board with the lost text")
        lost.get_by_role("button", name="Dismiss").click()
        expect(lost).to_have_count(0)

        for page in (board, player):
            assert page.evaluate("window.cspViolations") == [], page.url
    finally:
        for context in contexts:
            context.close()
    assert not csp, "Content-Security-Policy messages:\n" + "\n".join(csp)
    assert not errors, "console errors:\n" + "\n".join(errors)
