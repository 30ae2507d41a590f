"""An organiser's day on a Pokémon event in three divisions, as it is lived:
the traps a newcomer met, walked through by several people at once.

Actors, each a browser context of its own, kept open through the day: the organiser's
laptop; Noah Williams' phone on his private page (another Noah Williams plays too); Ash
Ketchum's Spanish phone on his private page; a phone on the public pairings; May Maple's
phone, which scans the check-in QR code at the door. The day: the players pasted with
their Play! IDs; the sanction ID and POP ID set; check-in (one no-show, one player checking
in at the door by QR); a late adult added (lands in Masters by his birth year); check-in
closed (the no-show removed); round 1 paired in two groups at different tables; the
Masters round discarded and paired again; two players swapped; both rounds started
together; Noah drops from his phone and the organiser undoes it; every slip entered; the
TOM file holds the Play! IDs, the sanction ID and the POP ID. Phones are never reloaded;
no page logs a console error.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from tests import factories
from tests.browser.test_live_event import (
    enter_every_missing_slip,
    not_reloaded,
    open_phone,
    staff_login,
    watch,
)
from tournaments.models import Event, Registration, RoundStatus
from tournaments.seasons import cutoffs

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SEASON = 2026
AGES = {"junior": "junior", "senior": "senior", "masters": "masters"}
SANCTION_ID = "26-01-000123"
POP_ID = "4242"


def roster() -> list[tuple[str, str, int]]:
    """(name, Play! ID, birth year): 4 Juniors, 4 Seniors and 8 Masters, two of them
    named Noah Williams."""
    c = cutoffs(SEASON)
    junior, senior = c.junior_from + 1, c.junior_from - 2
    names = [("Lily Park", junior), ("Max Cole", junior), ("Ivy Chen", junior)]
    names += [("Leo Diaz", junior), ("Sara Kim", senior), ("Omar Ali", senior)]
    names += [("Nina Ross", senior), ("Theo Hart", senior), ("Noah Williams", 1990)]
    names += [("Noah Williams", 1991), ("Ash Ketchum", 1990), ("Misty Waters", 1992)]
    names += [("Brock Stone", 1989), ("Gary Oak", 1993), ("Dawn Berlitz", 1995)]
    names += [("May Maple", 1994)]
    return [(name, f"31000{n:02d}", year) for n, (name, year) in enumerate(names, start=1)]


def reg(event: Event, play_id: str) -> Registration:
    return Registration.objects.select_related("player", "division").get(
        event=event, player__player_id=play_id
    )


@pytest.mark.django_db(transaction=True)
def test_an_organisers_day_with_three_divisions(live_server, browser, page):
    organiser = factories.user("olivia")
    event = factories.event(
        by=organiser, name="League Cup", divisions=dict(AGES), season_year=SEASON,
        checkin_step=True, swiss_rounds=3,
    )  # fmt: skip
    base = f"{live_server.url}/e/{event.slug}"
    phone_base = base.replace("://localhost:", "://127.0.0.1:")  # phones: other devices
    errors: list[str] = []
    watch(page, errors)
    staff_login(page, live_server, "olivia")
    contexts = []

    # The sanction ID and the organiser's POP ID, for the TOM file.
    page.goto(f"{base}/staff/team/")
    page.get_by_label("Sanction ID").fill(SANCTION_ID)
    page.get_by_label("Organiser's POP ID").fill(POP_ID)
    page.locator("#settings").get_by_role("button", name="Save").click()

    # The players, pasted from the sign-up sheet with their Play! IDs.
    page.goto(f"{base}/staff/players/")
    page.get_by_label("Paste players").fill(
        "\n".join(f"{name},{pid},{year}" for name, pid, year in roster())
    )
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("main")).to_contain_text("Noah Williams is also on line 10.")
    page.get_by_label("These are different players with the same name").check()
    page.get_by_role("button", name="Add these 16 players").click()
    expect(page.get_by_text("Added 16 players.")).to_be_visible()
    noah = reg(event, "3100009")
    ash, misty = reg(event, "3100011"), reg(event, "3100012")
    assert (noah.division.code, reg(event, "3100001").division.code) == ("masters", "junior")

    ctx, noah_phone = open_phone(browser, f"{phone_base}/p/{noah.report_token}/", errors=errors)
    contexts.append(ctx)
    ctx, ash_phone = open_phone(
        browser, f"{phone_base}/p/{ash.report_token}/", language="es", errors=errors
    )
    contexts.append(ctx)
    ctx, pairings = open_phone(browser, f"{phone_base}/pairings/", errors=errors)
    contexts.append(ctx)

    # Check-in: everybody at the desk but Dawn (a no-show) and May (at the door, by QR).
    page.goto(f"{base}/staff/checkin/")
    rows = page.locator("#checkin-rows li.checkin-row")
    expect(rows).to_have_count(16)
    for name, pid, _ in roster():
        if name in ("Dawn Berlitz", "May Maple"):
            continue
        row = page.locator(f"#reg-{reg(event, pid).pk}")
        row.get_by_role("button").click()
        expect(row).to_have_attribute("data-present", "1")
    expect(page.locator("#present-count")).to_have_text("14")

    page.goto(f"{base}/staff/checkin/door/")
    png = page.locator("svg.qr").first.screenshot()
    (code,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    ctx, may_phone = open_phone(browser, code.text, errors=errors)
    contexts.append(ctx)
    may_phone.get_by_label("Player ID").fill("3100016")
    may_phone.get_by_label("Birth year").fill("1994")
    may_phone.get_by_role("button", name="Check in").click()
    expect(may_phone.locator("#checked-in")).to_contain_text("May Maple, you are checked in.")

    # A late adult: the birth year puts him in Masters (the list's first choice is "By
    # birth year", not Junior); he checks in at the desk.
    page.goto(f"{base}/staff/players/")
    page.locator("#id_name").fill("Nakamura, Kai")
    page.locator("#id_player_id").fill("3100017")
    page.locator("#id_birth_year").fill("1999")
    page.get_by_role("button", name="Add player").click()
    kai = reg(event, "3100017")
    assert (kai.player.name, kai.division.code) == ("Kai Nakamura", "masters")
    page.goto(f"{base}/staff/checkin/")
    page.locator(f"#reg-{kai.pk}").get_by_role("button").click()
    expect(page.locator(f"#reg-{kai.pk}")).to_have_attribute("data-present", "1")
    expect(page.locator("#present-count")).to_have_text("16")

    # Closing check-in lists the no-show and removes her; round 1 is offered only now.
    page.goto(f"{base}/staff/")
    expect(page.get_by_role("button", name="Pair next round")).to_have_count(0)
    page.get_by_role("button", name="Close check-in").click()
    expect(page.locator("#absentees li")).to_have_count(1)
    expect(page.locator("#absentees")).to_contain_text("Dawn Berlitz")
    page.get_by_role("button", name="Remove 1 player and close check-in").click()
    expect(page.get_by_text("Check-in closed.")).to_be_visible()
    assert not Registration.objects.filter(event=event, player__name="Dawn Berlitz").exists()

    # Round 1 in both groups: Juniors with Seniors, and Masters, at different tables.
    pair_buttons = page.get_by_role("button", name="Pair next round")
    expect(pair_buttons).to_have_count(2)
    pair_buttons.first.click()
    page.wait_for_load_state()
    if event.rounds.count() < 2:  # one group paired: the other group's button
        page.goto(f"{base}/staff/")
        page.get_by_role("button", name="Pair next round").click()
    page.goto(f"{base}/staff/")
    expect(page.get_by_role("button", name="Start all")).to_be_visible()
    masters = event.rounds.get(number=1, group__key="masters")
    youth = event.rounds.exclude(pk=masters.pk).get(number=1)
    youth_tables = set(youth.matches.exclude(table=None).values_list("table", flat=True))
    masters_tables = set(masters.matches.exclude(table=None).values_list("table", flat=True))
    assert youth_tables and masters_tables and not youth_tables & masters_tables

    # The Masters pairings are discarded and paired again.
    page.goto(f"{base}/staff/rounds/{masters.pk}/")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Discard these pairings").click()
    expect(page.get_by_text("The pairings of round 1 were discarded")).to_be_visible()
    page.get_by_role("button", name="Pair next round").click()
    expect(page.get_by_role("link", name="Masters · Round 1")).to_be_visible()
    masters = event.rounds.get(number=1, group__key="masters")

    # Two players swapped; the two Noah Williams told apart on the round page.
    page.goto(f"{base}/staff/rounds/{masters.pk}/")
    if masters.matches.filter(seats__registration=ash).filter(seats__registration=misty):
        misty = reg(event, "3100013")  # they already meet: swap Ash with Brock instead
    swap = page.locator("#swap-form")
    swap.locator('select[name="first"]').select_option(str(ash.pk))
    swap.locator('select[name="second"]').select_option(str(misty.pk))
    swap.get_by_role("button", name="Swap").click()
    expect(page.get_by_text(f"Swapped Ash Ketchum and {misty.player.name}.")).to_be_visible()
    rows = page.locator("li.match", has_text="Noah Williams")
    texts = [rows.nth(i).inner_text() for i in range(rows.count())]
    assert any("Noah Williams #0009" in t for t in texts)
    assert any("Noah Williams #0010" in t for t in texts)

    # Both groups start together, under one clock.
    page.goto(f"{base}/staff/")
    page.get_by_role("button", name="Start all").click()
    started = list(event.rounds.filter(number=1).values_list("status", "started_at"))
    assert {s for s, _ in started} == {RoundStatus.STARTED} and len({t for _, t in started}) == 1
    table = masters.matches.get(seats__registration=noah).table
    expect(noah_phone.locator("#my-table")).to_contain_text(f"Table {table}")
    ash_table = masters.matches.get(seats__registration=ash).table
    expect(ash_phone.locator("#my-table")).to_contain_text(f"Mesa {ash_table}")
    expect(pairings.locator("#live")).to_contain_text("Noah Williams #0010")

    # Noah drops from his phone by mistake; the organiser undoes it.
    noah_phone.get_by_label("Yes, drop me from the event").check()
    noah_phone.get_by_role("button", name="Drop").click()
    expect(noah_phone.get_by_text("You dropped after round 1.", exact=True)).to_be_visible()
    noah_phone.evaluate("window.liveMark = 'not reloaded'")  # his own post; from here: live
    page.goto(f"{base}/staff/players/")
    page.locator("tr", has_text="3100009").get_by_role("button", name="Undo drop").click()
    noah.refresh_from_db()
    assert noah.dropped_after_round is None
    expect(noah_phone.get_by_role("button", name="Drop")).to_be_visible()

    # Every slip entered; the standings follow on the phones.
    for rnd in event.rounds.filter(number=1):
        page.goto(f"{base}/staff/rounds/{rnd.pk}/")
        enter_every_missing_slip(page)
        expect(page.locator("#round-progress")).to_contain_text("round complete")
    expect(noah_phone.locator("#standing")).to_contain_text("After round 1")
    expect(ash_phone.locator("#standing")).to_contain_text("Tras la ronda 1")

    # The TOM file carries the Play! IDs, the sanction ID and the organiser's POP ID.
    page.goto(f"{base}/staff/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download TOM file").click()
    tom = ET.parse(download.value.path()).getroot()
    assert tom.findtext("data/id") == SANCTION_ID
    assert tom.find("data/organizer").get("popid") == POP_ID
    userids = {p.get("userid") for p in tom.findall("players/player")}
    assert {"3100009", "3100010", "3100016", "3100017"} <= userids
    assert "3100015" not in userids and not any(u.startswith("p") for u in userids)

    for phone in (noah_phone, ash_phone, pairings):
        assert not_reloaded(phone), phone.url
    assert errors == [], errors
    for c in contexts:
        c.close()
