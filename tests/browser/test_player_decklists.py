"""Deck lists from players in a real browser, several people at once.

Actors, each a browser context of its own, kept open throughout: the organiser's laptop
on the staff Deck lists page; Ana's phone (390 × 844, in Spanish) on her private page;
Ben's phone (English) on his; a judge's phone. At a Championship Point event (lists
collected by default, P-POST-5): Ana submits a 61-card list — refused, naming the count
and keeping her text — then a legal one; Ben submits his; the organiser moves the
deadline to a minute ago and Ana's page locks her list (shown, no form); the organiser
reopens Ana's list, she changes it once and it locks again; the judge reads it on their
phone, counted by section. axe-core finds no violation on the new pages (the player's
list page in Spanish and English, the staff Deck lists page, the judge's reading, the
published lists), and no page logs a console error.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from tests import factories
from tests.browser.test_accessibility import AXE, violations
from tests.browser.test_live_event import PHONE_CONTEXT, staff_login, watch
from tournaments import services
from tournaments.models import Registration, StaffRole
from tournaments.services.player_decklists import decklist_settings_update

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

LEGAL = """Pokémon: 12
4 Pikachu ex SVI 057
4 Raichu SVI 58
4 Jirachi PR-SV 161
Trainer: 36
4 Professor's Research SVI 189
4 Ultra Ball SVI 196
4 Nest Ball SVI 181
4 Pokégear 3.0 SVI 186
4 Pokémon Catcher SVI 187
4 Iono PAL 185
4 Boss's Orders PAL 172
4 Switch SVI 194
4 Rare Candy SVI 191
Energy: 12
8 Basic {L} Energy SVE 4
4 Lightning Energy Energy 4
"""
SIXTY_ONE = LEGAL.replace("8 Basic {L} Energy", "9 Basic {L} Energy")
CHANGED = LEGAL.replace("4 Switch SVI 194", "4 Switch Cart ASR 154")


def open_phone(browser, url: str, errors: list[str], language: str = "en"):
    """A phone kept open: 390 × 844, axe-core loaded in every page, ``language`` chosen
    with the site's language cookie (the pages' own switcher)."""
    context = browser.new_context(**PHONE_CONTEXT, locale="es-ES" if language == "es" else "en-GB")
    context.set_default_timeout(10_000)
    context.add_init_script(script=AXE.axe_script)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": url}])
    page = context.new_page()
    watch(page, errors)
    page.goto(url)
    return context, page


def no_violation(page) -> None:
    found = violations(page)
    assert not found, f"{page.url}:\n" + "\n".join(found)


def fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.url


@pytest.mark.django_db(transaction=True)
def test_players_submit_lists_on_phones_the_deadline_locks_them_and_a_judge_reads_them(
    live_server, browser, page
):
    organiser = factories.user("olivia")
    event = factories.event(by=organiser, name="League Cup", awards_championship_points=True)
    ana, ben = (
        services.registration_add(event=event, name=name, player_id=pid, by=organiser)
        for name, pid in (("Ana Torres", "501"), ("Ben Okafor", "502"))
    )
    judge = factories.staff(event, StaffRole.JUDGE, username="jules")
    # Phones are other devices: another host name than the laptop's (test_live_event).
    phone_base = f"{live_server.url}/e/{event.slug}".replace("://localhost:", "://127.0.0.1:")
    errors: list[str] = []

    # The organiser's laptop: the staff Deck lists page, a deadline in an hour.
    page.context.add_init_script(script=AXE.axe_script)
    watch(page, errors)
    staff_login(page, live_server, "olivia")
    page.goto(f"{live_server.url}/e/{event.slug}/staff/decklists/")
    expect(page.locator("#decklists-collected")).to_have_text("This event collects deck lists.")
    in_an_hour = timezone.localtime(timezone.now() + dt.timedelta(hours=1))
    page.get_by_label("Players submit and edit their lists until").fill(
        in_an_hour.strftime("%Y-%m-%dT%H:%M")
    )
    page.get_by_role("button", name="Save the deadline").click()
    expect(page.locator(".message-success")).to_have_text("Deadline saved.")
    no_violation(page)

    contexts = []
    # Ana's phone, in Spanish: her private page has the deck list card.
    ctx, ana_phone = open_phone(browser, f"{phone_base}/p/{ana.report_token}/", errors, "es")
    contexts.append(ctx)
    card = ana_phone.locator("#player-decklist")
    expect(card).to_contain_text("Tu lista todavía no está entregada.")
    card.get_by_role("link", name="Enviar tu lista de mazo").click()
    expect(ana_phone.locator("h1")).to_have_text("Tu lista de mazo")
    no_violation(ana_phone)
    fits_the_phone(ana_phone)

    # 61 cards: refused, naming the count; her text stays in the box.
    ana_phone.get_by_label("Tu lista de mazo").fill(SIXTY_ONE)
    ana_phone.get_by_role("button", name="Enviar mi lista").click()
    problems = ana_phone.locator("#decklist-problems")
    expect(problems).to_contain_text("Tu lista no se ha guardado:")
    expect(problems).to_contain_text("El mazo tiene 61 cartas; debe tener exactamente 60.")
    expect(ana_phone.get_by_label("Tu lista de mazo")).to_have_value(SIXTY_ONE)
    assert Registration.objects.get(pk=ana.pk).decklist_received_at is None
    no_violation(ana_phone)
    fits_the_phone(ana_phone)

    # A legal list: kept.
    ana_phone.get_by_label("Tu lista de mazo").fill(LEGAL)
    ana_phone.get_by_role("button", name="Enviar mi lista").click()
    expect(ana_phone.locator(".message-success")).to_have_text(
        "Tu lista de mazo está entregada. ¡Gracias!"
    )
    expect(ana_phone.locator("#decklist-status")).to_contain_text("Mazo principal: 60 cartas.")
    assert Registration.objects.get(pk=ana.pk).decklist == LEGAL.strip()

    # Ben's phone, in English: his list too.
    ctx, ben_phone = open_phone(browser, f"{phone_base}/p/{ben.report_token}/decklist/", errors)
    contexts.append(ctx)
    ben_phone.get_by_label("Your deck list").fill(LEGAL)
    ben_phone.get_by_role("button", name="Submit my list").click()
    expect(ben_phone.locator("#decklist-status")).to_contain_text("Main deck: 60 cards.")
    no_violation(ben_phone)
    fits_the_phone(ben_phone)

    # The deadline passes (the organiser moves it to a minute ago): Ana's list locks.
    page.reload()
    expect(page.locator("#decklists-missing-count")).to_have_text("0 missing")
    a_minute_ago = timezone.localtime(timezone.now() - dt.timedelta(minutes=1))
    page.get_by_label("Players submit and edit their lists until").fill(
        a_minute_ago.strftime("%Y-%m-%dT%H:%M")
    )
    page.get_by_role("button", name="Save the deadline").click()
    expect(page.locator(".message-success")).to_have_text("Deadline saved.")
    ana_phone.reload()
    expect(ana_phone.locator("#decklist-locked")).to_contain_text("Tu lista está cerrada.")
    expect(ana_phone.locator("#decklist-locked")).to_contain_text(
        "El plazo para las listas de mazo ha terminado"
    )
    expect(ana_phone.locator("textarea")).to_have_count(0)
    expect(ana_phone.locator("#decklist-locked-list")).to_contain_text("Pikachu ex")
    no_violation(ana_phone)
    fits_the_phone(ana_phone)
    # A form kept from before the deadline is refused too, and nothing changes.
    ben_phone.get_by_label("Your deck list").fill(CHANGED)
    ben_phone.get_by_role("button", name="Save my new list").click()
    expect(ben_phone.locator("#decklist-locked")).to_contain_text("Your list is locked.")
    assert Registration.objects.get(pk=ben.pk).decklist == LEGAL.strip()

    # The organiser reopens Ana's list; she changes it once and it locks again.
    page.reload()
    page.get_by_role("button", name="Reopen for Ana Torres").click()
    expect(page.locator(".message-success")).to_have_text(
        "Ana Torres may submit their list once more."
    )
    expect(page.locator(f"#decklist-{ana.pk} [data-reopened]")).to_be_visible()
    no_violation(page)
    ana_phone.reload()
    expect(ana_phone.locator("#decklist-window")).to_contain_text(
        "El personal ha reabierto tu lista para un cambio más"
    )
    ana_phone.get_by_label("Tu lista de mazo").fill(CHANGED)
    ana_phone.get_by_role("button", name="Guardar mi nueva lista").click()
    expect(ana_phone.locator("#decklist-locked")).to_contain_text("Tu lista está cerrada.")
    expect(ana_phone.locator("#decklist-locked-list")).to_contain_text("Switch Cart")
    assert "Switch Cart" in Registration.objects.get(pk=ana.pk).decklist

    # The judge reads Ana's list on their phone.
    ctx, judge_phone = open_phone(browser, f"{phone_base.rsplit('/e/', 1)[0]}/", errors)
    contexts.append(ctx)
    judge_phone.goto(f"{phone_base.rsplit('/e/', 1)[0]}/accounts/login/")
    judge_phone.get_by_label("Username").fill(judge.username)
    judge_phone.get_by_label("Password").fill(factories.PASSWORD)
    judge_phone.get_by_role("button", name="Log in").click()
    judge_phone.goto(f"{phone_base}/staff/decklists/")
    judge_phone.get_by_role("link", name="Ana Torres").click()
    expect(judge_phone.locator("h1")).to_have_text("Deck list of Ana Torres")
    main = judge_phone.locator('table[data-section="main"]')
    expect(main.locator("caption")).to_have_text("Main deck (60 cards)")
    expect(main).to_contain_text("Switch Cart")
    expect(judge_phone.locator("[data-decklist-problems]")).to_have_count(0)
    no_violation(judge_phone)
    fits_the_phone(judge_phone)

    # After the event the organiser publishes the lists: one public page per player.
    decklist_settings_update(event=event, by=organiser, required=None, public=True)
    services.event_finish(event=event, by=organiser)
    ben_phone.goto(f"{phone_base}/decklists/")
    ben_phone.get_by_role("link", name="Ana Torres").click()
    expect(ben_phone.locator('table[data-section="main"]')).to_contain_text("Switch Cart")
    no_violation(ben_phone)
    fits_the_phone(ben_phone)

    for context in contexts:
        context.close()
    # A refused list answers 422 (the browser logs the status; nothing else may log).
    unexpected = [e for e in errors if "status of 422" not in e]
    assert not unexpected, "console errors:\n" + "\n".join(unexpected)
