"""Best-of-3 game slips in a real browser (M-MATCH-1): a scorekeeper on a phone enters a
2-1 and an intentional draw; a judge's impossible 3-0 is refused and changes nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.tournaments.test_game_slips import bo3_round
from tournaments.models import AuditEvent, Match, Outcome, StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def log_in(page, url, username):
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()


def db_state(rnd):
    rows = Match.objects.filter(round=rnd).order_by("table")
    return [(m.outcome, m.winner_id, m.games, m.version) for m in rows]


@pytest.mark.django_db(transaction=True)
def test_M_MATCH_1_scorekeeper_on_a_phone_enters_2_1_and_an_intentional_draw_then_a_judges_3_0_is_refused(
    live_server, phone, page
):
    ev, rnd, regs, _ = bo3_round(players=6)
    factories.staff(ev, StaffRole.SCOREKEEPER, username="sam")
    factories.staff(ev, StaffRole.JUDGE, username="judy")

    log_in(phone, live_server.url, "sam")
    phone.goto(f"{live_server.url}/e/{ev.slug}/staff/rounds/{rnd.pk}/")
    expect(phone.locator("#results-missing")).to_have_text("3")
    rows = phone.locator("li.match")
    # six quick scores in equal columns, a compact card.
    widths = (
        rows.nth(2)
        .locator(".quick button")
        .evaluate_all("bs => bs.map(b => Math.round(b.getBoundingClientRect().width))")
    )
    assert len(widths) == 6 and max(widths) - min(widths) <= 1, widths
    card = rows.nth(2).evaluate("li => li.getBoundingClientRect().height")
    assert card < 400, f"a best-of-3 table card is {card} px tall on a phone"
    rows.nth(0).get_by_role("button", name="Player 001 2-1", exact=True).click()
    expect(rows.nth(0).locator(".result")).to_have_text("Player 001 wins 2-1-0")
    expect(phone.locator("#results-missing")).to_have_text("2")
    rows.nth(1).get_by_role("button", name="Intentional draw 0-0-3").click()
    expect(rows.nth(1).locator(".result")).to_have_text("Draw 0-0-3")
    expect(phone.locator("#results-missing")).to_have_text("1")
    fits = phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert fits, "the game slip must fit a 390 px wide phone"

    assert db_state(rnd)[:2] == [
        (Outcome.WIN, regs[0].pk, [2, 1, 0], 1),
        (Outcome.DRAW, None, [0, 0, 3], 1),
    ]
    before, audit_rows = db_state(rnd), AuditEvent.objects.count()

    log_in(page, live_server.url, "judy")
    page.goto(f"{live_server.url}/e/{ev.slug}/staff/corrections/?round={rnd.pk}")
    first = page.locator("li.match").first
    first.get_by_label("Games won by Player 001").fill("3")
    first.get_by_label("Games won by Player 002").fill("0")
    first.get_by_label("Drawn games").fill("0")
    first.get_by_label("Reason").fill("the slip says 3-0")
    first.get_by_role("button", name="Correct").click()
    expect(
        page.get_by_text("Impossible game score 3-0-0: nobody wins more than 2 games")
    ).to_be_visible()

    assert db_state(rnd) == before
    assert AuditEvent.objects.count() == audit_rows


@pytest.mark.django_db(transaction=True)
def test_M_MATCH_1_a_players_best_of_3_report_fits_a_phone_legend_above_scores_two_by_two(
    live_server, phone
):
    ev, rnd, regs, _ = bo3_round(players=4)
    second = regs[1]  # the second seat of table 1: "You" is on the right of the table
    phone.goto(f"{live_server.url}/e/{ev.slug}/p/{second.report_token}/")
    form = phone.locator("form.player-slip")
    legend = form.locator(".games-legend").bounding_box()
    buttons = form.locator(".quick button")
    expect(buttons).to_have_count(6)
    boxes = buttons.evaluate_all(
        "bs => bs.map(b => { const r = b.getBoundingClientRect();"
        " return [Math.round(r.left), Math.round(r.top), Math.round(r.width)]; })"
    )
    assert legend is not None and legend["y"] + legend["height"] <= min(b[1] for b in boxes)
    assert len({b[0] for b in boxes}) == 2, boxes  # two columns
    widths = [b[2] for b in boxes]
    assert max(widths) - min(widths) <= 1 and min(widths) > 150, widths  # equal, wide
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    buttons.filter(has_text="2-1").first.tap()
    expect(phone.locator("#report")).to_contain_text("Waiting for your opponent")
    assert Match.objects.get(round=rnd, table=1).outcome == Outcome.PENDING
