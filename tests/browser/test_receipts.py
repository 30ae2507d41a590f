"""Tiebreaker receipts on a phone: a player taps their name on the
public standings and reads their receipt — every opponent with the percentage counted for
them, the floors by rule, how the columns moved since the previous round — on a 390-px
screen, nothing pushed sideways; then opens an opponent's receipt from it. In English
and in Spanish. A receipt left open follows the next round's standings without a
reload."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.test_live_event import not_reloaded, until, watch
from tests.standings.test_receipts import play_round, played
from tournaments.models import MatchSeat, Outcome

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

WORDS = {
    "en": {"since": "since round 2", "resistance": "What resistance means", "bye": "Bye"},
    "es": {
        "since": "desde la ronda 2",
        "resistance": "Qué significa la resistencia",
        "bye": "Pase automático",
    },
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "es"])
def test_a_phone_opens_its_receipt_from_the_standings(live_server, phone, organiser, language):
    event = played("pokemon", organiser)
    seat = MatchSeat.objects.filter(round__event=event, match__outcome=Outcome.BYE).first()
    reg = seat.registration
    words = WORDS[language]
    phone.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    phone.goto(live_server.url + reverse("public:standings", args=[event.slug]))
    link = phone.locator("a.receipt-link", has_text=reg.player.name)
    row = phone.locator("table.standings tbody tr").filter(has=link)
    owp = row.locator("td").nth(4).inner_text()  # #, player, record, points, OWP
    link.click()
    expect(phone).to_have_url(
        live_server.url + reverse("public:receipt", args=[event.slug, reg.pk])
    )
    receipt = phone.locator("section.receipt[data-counted]")
    # the standings' own OWP, written as the standings page writes it
    expect(receipt.locator(".receipt-columns dd[data-column='owp'] .receipt-value")).to_have_text(
        owp
    )
    expect(
        receipt.locator(".receipt-columns dd[data-column='owp'] .receipt-change")
    ).to_contain_text(words["since"])
    bye = receipt.locator("li[data-kind='bye']")
    expect(bye).to_contain_text(words["bye"])
    expect(bye).to_contain_text("P-TB-5")
    expect(phone.locator("#resistance h2")).to_have_text(words["resistance"])
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing sideways
    # An opponent's name on the receipt opens that opponent's receipt.
    opponent = receipt.locator("li[data-kind='match'] .receipt-who a").first
    name = opponent.inner_text()
    opponent.click()
    expect(phone.locator("h1")).to_have_text(name)
    expect(phone.locator("section.receipt[data-counted]")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_an_open_receipt_shows_the_next_rounds_standings_without_a_reload(
    live_server, phone, organiser
):
    event = factories.event_with_players(
        9, by=organiser, ruleset="pokemon", swiss_rounds=4, top_cut_size=0
    )
    for n in (1, 2):  # each round complete: its standings run on commit
        play_round(event, n, organiser)
    reg = event.registrations.order_by("pk")[2]
    errors: list[str] = []
    watch(phone, errors)
    phone.goto(live_server.url + reverse("public:receipt", args=[event.slug, reg.pk]))
    counted = phone.locator("#live section.receipt[data-counted]")
    expect(counted.locator("h2")).to_have_text("After round 2")
    expect(counted.locator(".receipt-change").first).to_contain_text("since round 1")
    phone.evaluate("window.liveMark = 'not reloaded'")
    until(phone, "[...window.matchslipLive.sources].some(s => s.sawHello)")

    play_round(event, 3, organiser)  # the standings of round 3 are announced
    expect(counted.locator("h2")).to_have_text("After round 3")
    expect(counted.locator(".receipt-change").first).to_contain_text("since round 2")
    expect(counted.locator("li[data-round='3']")).to_have_count(1)
    assert not_reloaded(phone)
    assert errors == [], errors
