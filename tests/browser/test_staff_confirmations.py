"""A Magic event's staff asked before what cannot be taken back lightly: Inés reports a
2-0 win on her phone, the scorekeeper misclicks "Kofi Mensah 2-0" and the row asks
what she reported before anything is recorded; then undoing the last entry and dropping
a player each open a question that needs its box ticked."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.browser.test_game_slips import log_in
from tournaments import services
from tournaments.models import Match, Outcome, Phase, StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.django_db(transaction=True)
def test_a_misclick_over_a_players_report_is_asked_then_undo_and_drop_ask_too(
    live_server, phone, page
):
    organiser = factories.user("org")
    ev = factories.event(by=organiser, ruleset="mtg")
    factories.staff(ev, StaffRole.SCOREKEEPER, username="sam")
    ines, kofi = (
        services.registration_add(event=ev, name=name, player_id=pid, by=organiser)
        for name, pid in (("Inés Ruiz", "3001"), ("Kofi Mensah", "3002"))
    )
    rnd = services.round_create(
        event=ev,
        group=factories.group_row(ev, "open"),
        number=1,
        phase=Phase.SWISS,
        by=organiser,
        tables=[(2, [ines, kofi], "random")],
    )
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)

    phone.goto(f"{live_server.url}/e/{ev.slug}/p/{ines.report_token}/")
    phone.get_by_role("button", name="You 2-0").tap()
    expect(phone.locator("#report")).to_contain_text("Waiting for your opponent")

    log_in(page, live_server.url, "sam")
    page.goto(f"{live_server.url}/e/{ev.slug}/staff/rounds/{rnd.pk}/")
    row = page.locator("li.match", has_text="Table 2")
    row.get_by_role("button", name="Kofi Mensah 2-0", exact=True).click()
    question = row.locator(".override-confirm")
    expect(question).to_contain_text(
        "Inés Ruiz reported: Inés Ruiz wins 2-0-0. Record Kofi Mensah wins 2-0-0 anyway?"
    )
    expect(question.locator('input[name="reason"]')).to_have_count(0)
    assert Match.objects.get(round=rnd, table=2).outcome == Outcome.PENDING
    question.get_by_role("button", name="Record it anyway").click()
    expect(row.locator(".result")).to_have_text("Kofi Mensah wins 2-0-0")
    expect(page.locator("#results-missing")).to_have_text("0")

    # Undo the entry that completed the round: a question, then the tick box.
    page.get_by_role("button", name="Undo last entry (table 2)").click()
    expect(page.locator("h1")).to_contain_text("Undo the last entry?")
    expect(page.locator("#undo-last-question")).to_contain_text(
        "Inés Ruiz vs Kofi Mensah: Kofi Mensah wins 2-0-0"
    )
    assert Match.objects.get(round=rnd, table=2).outcome == Outcome.WIN
    page.get_by_label("Yes, undo this entry").check()
    page.get_by_role("button", name="Undo the entry").click()
    expect(page.locator(".message-success")).to_contain_text(
        "Table 2 is not reported any more: round 1 is in progress again."
    )
    assert Match.objects.get(round=rnd, table=2).outcome == Outcome.PENDING

    # Drop from the Players page: a question, then the tick box.
    page.goto(f"{live_server.url}/e/{ev.slug}/staff/players/")
    page.locator(f"#reg-{kofi.pk}").get_by_role("button", name="Drop").click()
    expect(page.locator("h1")).to_have_text("Drop Kofi Mensah?")
    kofi.refresh_from_db()
    assert kofi.dropped_after_round is None
    page.get_by_label("Yes, drop this player").check()
    page.get_by_role("button", name="Drop").click()
    expect(page.locator(".message-success")).to_contain_text("Kofi Mensah dropped after round")
    kofi.refresh_from_db()
    assert kofi.dropped_after_round is not None
