"""A 22-player multiplayer pod event in a real browser: two Swiss rounds (four pods of 4
and two of 3, MP-POD-1), pod slips with a shared draw (MP-PTS-1), a top-10 cut with
byes for seeds 1–2 (MP-SE-1) and the final, and the projector's round clock (MP-TIME-1)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.pod_factories import pod_event
from tournaments.models import EventStatus, RoundStatus

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def report_every_pod(page, *, draw_first: bool = False) -> None:
    """Click a winner in every pod row (the first pod a draw with its seat 2 conceded);
    each answer swaps the row in place and lowers the missing counter."""
    rows = page.locator("li.match.pod")
    total = rows.count()
    for i in range(total):
        row = rows.nth(i)
        if draw_first and i == 0:
            row.locator('input[name="conceded"]').nth(1).check()
            row.get_by_role("button", name="Draw").click()
            expect(row.locator(".result")).to_contain_text("conceded")
        else:
            row.locator("button", has_text=" wins").first.click()
            expect(row.locator(".result")).to_contain_text("wins")
        expect(page.locator("#results-missing")).to_have_text(str(total - 1 - i))
    expect(page.locator("#round-progress")).to_contain_text("round complete")


def pair_publish_start(page, dashboard: str) -> None:
    page.goto(dashboard)
    page.get_by_role("button", name="Pair next round").click()
    expect(page.get_by_role("button", name="Publish pairings")).to_be_visible()
    page.get_by_role("button", name="Publish pairings").click()
    page.get_by_role("button", name="Start round").click()
    expect(page.locator("#round-progress")).to_contain_text("missing")


@pytest.mark.django_db(transaction=True)
def test_22_player_pod_event_runs_two_rounds_and_a_top_10_cut(live_server, page, browser):
    organiser = factories.user("olivia")
    event = pod_event(22, by=organiser, rounds=2, cut=10, name="Commander Night")
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("olivia")
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    dashboard = f"{live_server.url}/e/{event.slug}/staff/"

    pair_publish_start(page, dashboard)
    seat_counts = [page.locator("li.match.pod").nth(i).locator("li.seat").count() for i in range(6)]
    assert seat_counts == [4, 4, 4, 4, 3, 3]
    # the shared draw takes the card's whole width, not one column.
    draw = page.locator("li.match.pod").first.locator("fieldset.pod-draw")
    share = draw.evaluate(
        "f => f.getBoundingClientRect().width / f.parentElement.getBoundingClientRect().width"
    )
    assert share > 0.95, share

    projector = browser.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{live_server.url}/e/{event.slug}/timer/")
    expect(projector.locator(".round-clock h2")).to_contain_text("Round 1")
    expect(projector.locator(".clock-value")).to_have_text(re.compile(r"^(80:00|79:[0-5]\d)$"))
    expect(projector.locator(".playing")).to_contain_text("1, 2, 3, 4, 5, 6")
    expect(projector.locator("svg.qr")).to_be_visible()

    report_every_pod(page, draw_first=True)
    pair_publish_start(page, dashboard)
    report_every_pod(page)

    pair_publish_start(page, dashboard)  # the top 10: seeds 1–2 bye, 8 players in 2 pods
    expect(page.locator("li.match.pod")).to_have_count(2)
    expect(page.locator(".table-no", has_text="Bye")).to_have_count(2)
    report_every_pod(page)
    pair_publish_start(page, dashboard)  # the final pod of 4
    expect(page.locator("li.match.pod")).to_have_count(1)
    projector.reload()
    expect(projector.locator(".clock-label")).to_contain_text("Untimed")
    report_every_pod(page)

    page.goto(f"{live_server.url}/e/{event.slug}/bracket/")
    expect(page.get_by_role("heading", name="Final")).to_be_visible()
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    assert all(r.status == RoundStatus.COMPLETE for r in event.rounds.all())
    projector.close()


@pytest.mark.django_db(transaction=True)
def test_MP_TIME_1_projector_clock_follows_the_server_not_the_device(live_server, browser):
    """A device whose own clock is 47 minutes fast still shows the server's round time."""
    import datetime as dt

    from django.utils import timezone

    from pairings.services import round_pair
    from tournaments import services

    organiser = factories.user("olivia")
    event = pod_event(8, by=organiser, name="Clock Cup")
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    rnd.started_at = timezone.now() - dt.timedelta(minutes=30)
    rnd.save(update_fields=["started_at"])
    context = browser.new_context()
    page = context.new_page()
    page.clock.install(time=dt.datetime.now(dt.UTC) + dt.timedelta(minutes=47))
    page.goto(f"{live_server.url}/e/{event.slug}/timer/")
    expect(page.locator(".clock-value")).to_have_text(re.compile(r"^(50:00|49:[45]\d)$"))
    page.clock.run_for(65_000)  # the device's clock moves on: the count follows
    expect(page.locator(".clock-value")).to_have_text(re.compile(r"^4[89]:[0-5]\d$"))
    assert page.evaluate("window.matchslipTimer.text(-5)") == "-0:05"
    context.close()
