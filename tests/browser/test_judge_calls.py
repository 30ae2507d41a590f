"""Judge calls on the floor, lived by four actors at once, each
a browser context of its own kept open from start to end (nothing is reloaded):

- a player's phone (390 × 844) on their private page calls a judge;
- the judge judy's phone on the floor board sees the call arrive, claims it, and
  resolves it with a 3-minute time extension;
- the judge jamie's phone on the floor board sees judy's claim and never gets a Claim
  button for it;
- a projector (1280 × 800) on the round timer shows that table's extra time.

The player's page shows the acknowledgement ("A judge is coming"), then who claimed it,
then the answer with the extension, without a reload. axe-core finds no violation on
the pages this adds (the floor board, light and dark; the player's call card; the
projector's end-of-round board), in English and Spanish. No page logs a console error.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from tests import factories
from tests.browser.test_accessibility import violations
from tests.browser.test_live_event import not_reloaded, staff_login, watch
from tournaments import services
from tournaments.models import JudgeCall, Match, Round

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

WAIT = 15_000
AXE = Axe()
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 3,
}


def open_context(browser, *, phone: bool = True, language: str = "en"):
    """A browser context (a phone, or a 1280 × 800 screen) with axe-core loaded into
    every page it opens (no CDN), in ``language``."""
    size = PHONE if phone else {"viewport": {"width": 1280, "height": 800}}
    context = browser.new_context(
        **size,
        locale="es-ES" if language == "es" else "en-GB",
        extra_http_headers={"Accept-Language": language},
    )
    context.set_default_timeout(WAIT)
    context.add_init_script(script=AXE.axe_script)
    return context


def no_violations(page, where: str) -> None:
    found = violations(page)
    assert not found, f"axe-core on {where}:\n" + "\n".join(found)


@pytest.mark.django_db(transaction=True)
def test_a_player_calls_a_judge_who_claims_and_resolves_it_with_three_minutes_on_the_clock(
    live_server, browser
):
    organiser = factories.user("olivia")
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=0)
    judy_user = factories.staff(ev, "judge", username="judy")
    judy_user.first_name, judy_user.last_name = "Judy", "Hopps"  # players see the full name
    judy_user.save()
    factories.staff(ev, "judge", username="jamie")
    rnd = factories.round_in_order(ev, by=organiser)
    ann = ev.registrations.order_by("pk").first()  # table 1
    errors: list[str] = []
    contexts = []

    def actor(path: str, *, phone: bool = True, login: str = ""):
        context = open_context(browser, phone=phone)
        contexts.append(context)
        page = context.new_page()
        watch(page, errors)
        if login:
            staff_login(page, live_server, login)
        page.goto(live_server.url + path)
        page.evaluate("window.liveMark = 'not reloaded'")
        return page

    try:
        player = actor(f"/e/{ev.slug}/p/{ann.report_token}/")
        judy = actor(f"/e/{ev.slug}/staff/floor/", login="judy")
        jamie = actor(f"/e/{ev.slug}/staff/floor/?theme=dark", login="jamie")
        projector = actor(f"/e/{ev.slug}/timer/", phone=False)
        expect(judy.locator(".floor-calls .empty")).to_have_text("No open calls.")
        expect(projector.locator(".round-clock .clock-value")).to_have_text(
            re.compile(r"^\d+:\d\d$")
        )

        # The player calls, with a reason; the answer says a judge is coming.
        card = player.locator("#judge-call")
        card.get_by_label("Rules question").check()
        card.get_by_role("button", name="Call a judge").click()
        expect(player.locator("[data-call-status=open]")).to_contain_text(
            "A judge is coming to your table."
        )
        assert JudgeCall.objects.get().reason == "rules"
        no_violations(player, "the player's page with a call")

        # Both judges' boards show it without a reload, with how long it has waited.
        for board in (judy, jamie):
            call = board.locator("li.call[data-table='1']")
            expect(call).to_contain_text("Rules question")
            expect(call.locator(".call-wait time")).to_have_text(re.compile(r"^\d+:\d\d$"))
        no_violations(judy, "the floor board")
        no_violations(jamie, "the floor board, dark theme")

        # judy claims it; jamie's board loses the Claim button; the player sees who.
        judy.get_by_role("button", name="Claim table 1").click()
        expect(judy.locator(".messages")).to_contain_text("You claimed table 1's call.")
        expect(jamie.locator("li.call[data-table='1']")).to_contain_text("Claimed by judy")
        expect(jamie.get_by_role("button", name="Claim table 1")).to_have_count(0)
        expect(player.locator("[data-call-status=claimed]")).to_contain_text(
            "Judy Hopps is coming to your table."
        )

        # judy resolves it with a 3-minute extension for the table.
        resolve = judy.locator("li.call[data-table='1'] details.call-resolve")
        resolve.get_by_label("Note").fill("Explained the Stadium ruling")
        resolve.get_by_label("Time extension (minutes)").fill("3")
        resolve.get_by_role("button", name="Resolve").click()
        expect(judy.locator(".messages")).to_contain_text("the table has 3 more minutes")
        expect(jamie.locator(".resolved-calls li[data-table='1']")).to_contain_text("+3 min")
        expect(player.locator("[data-call-status=resolved]")).to_contain_text(
            "Your table has 3 more minutes."
        )
        expect(player.locator("[data-call-status=resolved]")).to_contain_text(
            "Answered by Judy Hopps"
        )
        expect(projector.locator(".extensions")).to_contain_text("Table 1: +3 min")
        assert Match.objects.get(round=rnd, table=1).extra_seconds == 180

        # Time is called: the projector's end-of-round board lists table 1 still
        # playing on its extension and the other tables' results missing.
        # (The start moved back 51 minutes; the pause is the clock notice pages follow.)
        Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - dt.timedelta(minutes=51))
        services.round_clock_pause(round=rnd, by=organiser)
        expect(projector.locator(".end-of-round .results-missing")).to_contain_text(
            "Results missing: tables 2, 3, 4"
        )
        expect(projector.locator(".end-of-round tr[data-table='1']")).to_contain_text("+3 min")
        no_violations(projector, "the projector's end-of-round board")
        expect(judy.locator(".end-of-round tr[data-table='1']")).to_contain_text("Playing")

        # judy's own posts load her board again (post, redirect, get); the others followed live.
        for page in (player, jamie, projector):
            assert not_reloaded(page), page.url

        # The same pages in Spanish.
        spanish = open_context(browser, language="es")
        contexts.append(spanish)
        page = spanish.new_page()
        watch(page, errors)
        page.goto(f"{live_server.url}/e/{ev.slug}/p/{ann.report_token}/")
        expect(page.locator("#judge-call h2")).to_have_text("Llamar a un juez")
        no_violations(page, "the player's page in Spanish")
        client = Client()
        client.force_login(User.objects.get(username="jamie"))
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}
        spanish.add_cookies([cookie])
        page.goto(f"{live_server.url}/e/{ev.slug}/staff/floor/")
        expect(page.locator("h1")).to_have_text("Sala")
        no_violations(page, "the floor board in Spanish")
        page.goto(f"{live_server.url}/e/{ev.slug}/timer/")
        expect(page.locator(".end-of-round .results-missing")).to_contain_text(
            "Faltan los resultados"
        )
        no_violations(page, "the projector in Spanish")

        # Item 6: the penalty form's infraction names; a repeated one flagged.
        for _ in range(2):
            services.penalty_note_add(
                event=ev, registration=ann, kind="caution", infraction="Slow Play", by=organiser
            )
        page.goto(f"{live_server.url}/e/{ev.slug}/staff/penalties/")
        expect(page.locator("#id_infraction optgroup").first).to_have_attribute(
            "label", "Errores de procedimiento"
        )
        expect(page.locator("[data-repeated]")).to_have_count(2)
        no_violations(page, "the penalties page in Spanish")
        page.goto(f"{live_server.url}/e/{ev.slug}/staff/floor/")
        expect(page.locator(".repeated-list")).to_contain_text("Juego lento ×2")
        no_violations(page, "the floor board with a repeated infraction")
        client.force_login(organiser)
        cookie["value"] = client.cookies[settings.SESSION_COOKIE_NAME].value
        spanish.add_cookies([cookie])
        page.goto(f"{live_server.url}/e/{ev.slug}/staff/players/{ann.pk}/")
        expect(page.locator("#player-penalties")).to_contain_text(
            "Infracción repetida: Juego lento ×2"
        )
        no_violations(page, "the player's staff page with a repeated infraction")
    finally:
        for context in contexts:
            context.close()
    assert not errors, "console errors:\n" + "\n".join(errors)
