"""Fixed seats and featured tables as they are lived.

Actors, each a browser context of its own, kept open across two rounds: the organiser on
a laptop; a phone on the public pairings page; a Spanish phone on the public event page;
the phone of Player 006, who opts out of being featured on their private page. Staff give
Player 007 a fixed seat at table 1 (a table that would be the top table) and, each round,
try to feature Player 006's match (refused, saying why) and feature another. The phones
show, without a reload, the fixed seat and the featured match; Player 006 is never
featured. axe-core finds no violation on the pages this work added to or changed, and no
page logs a console error.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from tests import factories
from tests.browser.test_accessibility import AXE, violations
from tests.browser.test_live_event import (
    PHONE_CONTEXT,
    WAIT,
    enter_every_missing_slip,
    not_reloaded,
    staff_login,
    watch,
)
from tournaments.models import Event, Match
from tournaments.services.featured import match_feature
from tournaments.services.seating import registration_fixed_seat_set

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def open_phone(browser, url: str, *, errors: list[str], language: str = "en"):
    """A 390 × 844 phone with axe-core loaded on every page (no CDN), marked at load."""
    context = browser.new_context(
        **PHONE_CONTEXT,
        locale="es-ES" if language == "es" else "en-GB",
        extra_http_headers={"Accept-Language": language},
    )
    context.set_default_timeout(WAIT)
    context.add_init_script(script=AXE.axe_script)
    page = context.new_page()
    watch(page, errors)
    page.goto(url)
    page.evaluate("window.liveMark = 'not reloaded'")
    return context, page


def no_violation(page, problems: dict[str, list[str]]) -> None:
    found = violations(page)
    if found:
        problems[page.url] = found


@pytest.mark.django_db(transaction=True)
def test_staff_fix_a_seat_and_feature_a_match_and_phones_mark_both(live_server, browser, page):
    organiser = factories.user("olivia")
    event = factories.event_with_players(8, by=organiser, swiss_rounds=2, top_cut_size=0)
    regs = list(event.registrations.order_by("pk"))
    seated, shy = regs[6], regs[5]  # Player 007 gets table 1; Player 006 opts out
    base = f"{live_server.url}/e/{event.slug}"
    phone_base = base.replace("://localhost:", "://127.0.0.1:")  # other devices (see live)
    errors: list[str] = []
    problems: dict[str, list[str]] = {}
    page.context.add_init_script(script=AXE.axe_script)
    watch(page, errors)
    staff_login(page, live_server, "olivia")

    contexts = []
    ctx, pairings = open_phone(browser, f"{phone_base}/pairings/", errors=errors)
    contexts.append(ctx)
    ctx, event_page = open_phone(browser, f"{phone_base}/", errors=errors, language="es")
    contexts.append(ctx)
    ctx, shy_phone = open_phone(browser, f"{phone_base}/p/{shy.report_token}/", errors=errors)
    contexts.append(ctx)

    # Player 006 asks not to be featured, on their own phone.
    no_violation(shy_phone, problems)
    shy_phone.get_by_role("button", name="Never feature my matches").tap()
    expect(shy_phone.locator("#feature-opted-out")).to_be_visible()
    expect(shy_phone.get_by_role("status")).to_contain_text("Your matches will not be featured.")

    # The organiser gives Player 007 table 1 for the event, with a reason only staff see.
    page.goto(f"{base}/staff/players/{seated.pk}/")
    page.get_by_label("Fixed table").fill("1")
    page.get_by_label("Reason (staff only)").fill("wheelchair")
    page.get_by_role("button", name="Give fixed seat").click()
    expect(page.locator("#fixed-seat-now")).to_contain_text("Plays at table 1 in every Swiss round")
    expect(page.locator("#fixed-seat-now")).to_contain_text("wheelchair")
    no_violation(page, problems)

    for number in (1, 2):
        page.goto(f"{base}/staff/")
        page.get_by_role("button", name="Pair next round").click()
        expect(page.get_by_role("button", name="Publish pairings")).to_be_visible()
        rnd = Event.objects.get(pk=event.pk).rounds.get(number=number)
        shy_match = rnd.matches.get(seats__registration=shy)
        other = rnd.matches.exclude(seats__registration__in=[shy, seated]).order_by("table").first()

        # Featuring Player 006's table is refused, saying why; another table is featured.
        form = page.locator("#feature-form")
        form.locator("select[name=match]").select_option(str(shy_match.pk))
        form.locator("input[name=feature_table]").fill("Stream")
        form.get_by_role("button", name="Feature", exact=True).click()
        expect(page.get_by_role("alert")).to_contain_text(
            "Player 006 asked not to be featured: choose another match."
        )
        form.locator("select[name=match]").select_option(str(other.pk))
        form.locator("input[name=feature_table]").fill("Stream")
        form.get_by_role("button", name="Feature", exact=True).click()
        expect(page.locator("#round-featured")).to_contain_text(f"Stream · table {other.table}")
        fixed_row = page.locator("li.match", has_text="Player 007")
        expect(fixed_row.locator("[data-mark=fixed]")).to_be_visible()
        if number == 1:
            no_violation(page, problems)
        page.get_by_role("button", name="Publish pairings").click()

        # The public pairings phone, open since before round 1, marks both.
        expect(pairings.locator("#live")).to_contain_text(f"Round {number}")
        seat_row = pairings.locator("li.pairing", has_text="Player 007")
        expect(seat_row.locator(".table-no")).to_have_text("1")
        expect(seat_row.locator("[data-mark=fixed]")).to_contain_text("Fixed seat")
        expect(seat_row).not_to_contain_text("wheelchair")  # never the reason
        featured_row = pairings.locator("li.pairing", has=pairings.locator("[data-mark=featured]"))
        expect(featured_row).to_have_count(1)
        expect(featured_row.locator(".table-no")).to_have_text(str(other.table))
        expect(featured_row).to_contain_text("Featured: Stream")
        expect(
            pairings.locator("li.pairing", has_text="Player 006").locator("[data-mark=featured]")
        ).to_have_count(0)
        # The Spanish event page lists the featured match; Player 006's page shows none.
        expect(event_page.locator("#featured-matches")).to_contain_text("Stream")
        expect(event_page.locator("#live")).to_contain_text("Partidas destacadas")
        expect(shy_phone.locator("#my-table")).to_contain_text(f"Round {number}")
        expect(shy_phone.locator("#my-feature")).to_have_count(0)

        page.get_by_role("button", name="Start round").click()
        enter_every_missing_slip(page)
        expect(page.locator("#round-progress")).to_contain_text("round complete")

    for phone in (pairings, event_page, shy_phone):
        no_violation(phone, problems)
    assert not_reloaded(pairings) and not_reloaded(event_page)
    # Over the event: table 1 only ever held Player 007's match; Player 006 never featured.
    held = Match.objects.filter(round__event=event, table=1)
    assert held.count() == 2 and all(m.seats.filter(registration=seated).exists() for m in held)
    assert not Match.objects.filter(seats__registration=shy).exclude(feature_table="").exists()
    assert not problems, "axe-core violations:\n" + "\n".join(
        f"{url}\n    " + "\n    ".join(v) for url, v in problems.items()
    )
    assert errors == [], errors
    for c in contexts:
        c.close()


MARKS = {
    "en": ("Fixed seat, not a top table", "Featured: Stream"),
    "es": ("Asiento fijo, no es mesa principal", "Destacada: Stream"),
}


@pytest.mark.django_db(transaction=True)
def test_every_list_of_the_tables_marks_them_and_staff_list_the_fixed_seats_in_both_languages(
    live_server, browser
):
    """The marks on the public pairings by name, the projector, the printed wall list and
    slips, and the staff list of fixed seats: shown in English and Spanish, and axe-core
    finds no violation on those pages."""
    organiser = factories.user("olivia")
    event = factories.event_with_players(8, by=organiser, swiss_rounds=2, top_cut_size=0)
    regs = list(event.registrations.order_by("pk"))
    registration_fixed_seat_set(registration=regs[6], table=1, reason="wheelchair", by=organiser)
    rnd = factories.round_in_order(event, by=organiser)  # started; 007 v 008 at table 1
    featured_match = rnd.matches.get(seats__registration=regs[4])  # 005 v 006, table 4
    match_feature(match=featured_match, feature_table="Stream", by=organiser)
    base = f"{live_server.url}/e/{event.slug}"
    client = Client()
    client.force_login(organiser)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    errors: list[str] = []
    problems: dict[str, list[str]] = {}
    for language, (fixed, featured) in MARKS.items():
        ctx, phone = open_phone(
            browser, f"{base}/pairings/?by=name", errors=errors, language=language
        )
        line = phone.locator("li.name-line").filter(has=phone.locator(".name", has_text="008"))
        expect(line.locator("[data-mark=fixed]")).to_have_text(fixed)
        featured_line = phone.locator("li.name-line").filter(
            has=phone.locator(".name", has_text="005")
        )
        expect(featured_line.locator("[data-mark=featured]")).to_have_text(featured)
        expect(phone.locator("#live")).not_to_contain_text("wheelchair")
        no_violation(phone, problems)
        phone.goto(f"{base}/timer/")
        marked = phone.locator(".marked-tables li")
        expect(marked).to_have_count(2)
        expect(marked.nth(0).locator("[data-mark=fixed]")).to_have_text(fixed)
        expect(marked.nth(1).locator("[data-mark=featured]")).to_have_text(featured)
        no_violation(phone, problems)
        ctx.close()

        laptop = browser.new_context(viewport={"width": 1366, "height": 900})
        laptop.set_default_timeout(WAIT)
        laptop.add_init_script(script=AXE.axe_script)
        laptop.add_cookies(
            [
                {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url},
                {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
            ]
        )
        page = laptop.new_page()
        watch(page, errors)
        page.goto(f"{base}/staff/players/")
        seat_row = page.locator("#fixed-seats tr[data-fixed-table='1']")
        expect(seat_row).to_contain_text("Player 007")
        expect(seat_row).to_contain_text("wheelchair")  # staff read the reason
        no_violation(page, problems)
        seat_row.get_by_role("link").click()
        expect(page.locator("#fixed-seat-now")).to_contain_text("wheelchair")
        page.goto(f"{base}/staff/rounds/{rnd.pk}/print/pairings/")
        wall = page.locator(".wall-names li").filter(has=page.locator(".n", has_text="007"))
        expect(wall.locator("[data-mark=fixed]")).to_have_text(fixed)
        no_violation(page, problems)
        page.goto(f"{base}/staff/rounds/{rnd.pk}/print/slips/")
        slip = page.locator(f"article.slip-card[data-table='{featured_match.table}'] header")
        expect(slip.locator("[data-mark=featured]")).to_have_text(featured)
        no_violation(page, problems)
        laptop.close()
    assert not problems, "axe-core violations:\n" + "\n".join(
        f"{url}\n    " + "\n    ".join(v) for url, v in problems.items()
    )
    assert errors == [], errors
