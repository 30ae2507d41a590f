"""Registration from real spreadsheets: CSV/TSV with any separator, quoted fields and a
header row in any order, previewed with every problem marked before anything is saved;
duplicate names only when confirmed, then told apart on the pages players see."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from standings.services import standings_compute, standings_data
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import AuditEvent, RoundStatus
from tournaments.player_sheet import sheet_parse, sheet_separator, turn_name, year_of
from tournaments.selectors.names import shown_name
from tournaments.services import Result

MIXED = (
    "Alice Smith,1111,1990\n"
    "Carol White\t123\t1991\n"
    "Eve Black;789;1990\n"
    '"Garcia, Maria",456,1985\n'
    "Alice Smith,2222,1992\n"
)
AGES = {"junior": "junior", "senior": "senior", "masters": "masters"}


# --- reading the sheet (pure) ----------------------------------------------------------


def test_a_mix_of_tab_semicolon_and_quoted_comma_lines_is_read_cell_by_cell():
    sheet = sheet_parse(MIXED)
    got = [(r.name, r.player_id, r.birth_year) for r in sheet.rows]
    assert got == [
        ("Alice Smith", "1111", "1990"),
        ("Carol White", "123", "1991"),
        ("Eve Black", "789", "1990"),
        ("Maria Garcia", "456", "1985"),
        ("Alice Smith", "2222", "1992"),
    ]
    assert [r.line for r in sheet.rows] == [1, 2, 3, 4, 5]
    assert sheet.rows[3].turned and not sheet.header


@pytest.mark.parametrize(
    ("text", "separator"),
    [
        ("Ann\t1\t1990\nBob\t2\t1991\n", "\t"),
        ("Ann;1;1990\nBob;2;1991\n", ";"),
        ("Ann,1,1990\nBob,2,1991\n", ","),
        ('"Lee, Ann"\t1\t1990\n"Kim, Bob"\t2\t1991\n', "\t"),  # commas only inside quotes
        ("Ann\nBob\n", ","),  # one column
    ],
)
def test_the_separator_is_sniffed_with_a_counting_fallback(text, separator):
    assert sheet_separator(text) == separator


def test_a_header_row_names_the_columns_in_any_order_in_spanish_too():
    text = "División;Año de nacimiento;Nombre;ID\nmasters;1990;Ana López;77\n"
    sheet = sheet_parse(text)
    assert sheet.header and sheet.columns == {
        "division": 0,
        "birth_year": 1,
        "name": 2,
        "player_id": 3,
    }
    (row,) = sheet.rows
    assert (row.line, row.name, row.player_id, row.birth_year, row.division) == (
        2,
        "Ana López",
        "77",
        "1990",
        "masters",
    )


def test_first_and_last_name_columns_are_joined_and_a_bom_is_ignored():
    sheet = sheet_parse("\ufeffPlayer ID,Last name,First name,Email\n5,Ketchum,Ash,a@b.c\n")
    assert [(r.name, r.player_id) for r in sheet.rows] == [("Ash Ketchum", "5")]


def test_turn_name_and_year_of():
    assert turn_name("Garcia, Maria") == ("Maria Garcia", True)
    assert turn_name("Maria Garcia") == ("Maria Garcia", False)
    assert turn_name("Smith, ") == ("Smith, ", False)
    assert [year_of(c) for c in ("1999", "1999-04-02", "02/04/1999", "April")] == [
        1999,
        1999,
        1999,
        None,
    ]


# --- the preview -----------------------------------------------------------------------


def test_preview_marks_every_problem_and_saves_nothing(organiser):
    event = factories.event(by=organiser, divisions=AGES, season_year=2026)
    services.registration_add(
        event=event, name="Zed Old", player_id="999", birth_year=1980, by=organiser
    )
    text = (
        "name,player id,birth year,division\n"
        ",1,1990,\n"  # 2: no name
        "Ann,999,1990,\n"  # 3: id already registered
        "Bob,5,1990,\n"  # 4
        "Cid,5,1990,\n"  # 5: id twice in the sheet (with 4)
        "Dee,6,2031,\n"  # 6: birth year out of range
        "Eve,7,1990,Seniors\n"  # 7: a division by its plural: fine, a note
        "Fay,8,1990,Cadets\n"  # 8: unknown division
        "zed old,9,1981,\n"  # 9: name already registered (any case)
        "Gus,Maria,1990,\n"  # 10: an id without a digit
        "Hal,10,,\n"  # 11: no birth year to choose the division
    )
    preview = services.players_sheet_preview(event=event, text=text, today=dt.date(2026, 11, 24))
    problems = {r.line: r.problems for r in preview.rows}
    assert problems[2] == ("No name.",)
    assert problems[3] == ("Player id 999 is already registered.",)
    assert problems[4] == problems[5] == ("Player id 5 appears 2 times.",)
    assert problems[6] == (
        "Birth year 2031 is out of range (1900–2026).",
        "A birth year is needed to choose the age division.",
    )
    assert problems[8] == ("Unknown division “Cadets”: this event has Junior, Masters, Senior.",)
    assert problems[10][0].startswith("Player id “Maria” has no digit")
    assert problems[11] == ("A birth year is needed to choose the age division.",)
    by_line = {r.line: r for r in preview.rows}
    assert problems[7] == () and by_line[7].division.code == "senior"
    assert by_line[7].notes == ("Born 1990 is Masters; the sheet says Senior.",)
    assert by_line[9].duplicates == ("zed old is already registered.",)
    assert by_line[4].division.code == "masters"
    assert preview.problem_rows == 8 and preview.duplicate_rows == 1 and not preview.ready
    assert event.registrations.count() == 1


def test_a_duplicate_name_needs_the_confirmation_then_is_saved(organiser):
    event = factories.event(by=organiser)
    preview = services.players_sheet_preview(event=event, text=MIXED)
    assert preview.ready and preview.problem_rows == 0
    assert [r.duplicates for r in preview.rows if r.duplicates] == [
        ("Alice Smith is also on line 5.",),
        ("Alice Smith is also on line 1.",),
    ]
    with pytest.raises(InvalidInput, match="Line 1: Alice Smith is also on line 5. Confirm"):
        services.registrations_add_sheet(event=event, text=MIXED, by=organiser)
    assert not event.registrations.exists()
    regs = services.registrations_add_sheet(
        event=event, text=MIXED, by=organiser, allow_duplicate_names=True
    )
    got = [(r.player.name, r.player.player_id, r.player.birth_year) for r in regs]
    assert got == [
        ("Alice Smith", "1111", 1990),
        ("Carol White", "123", 1991),
        ("Eve Black", "789", 1990),
        ("Maria Garcia", "456", 1985),
        ("Alice Smith", "2222", 1992),
    ]
    assert AuditEvent.objects.filter(event=event, action="registration.add").count() == 5


def test_a_sheet_with_a_problem_is_refused_whole(organiser):
    event = factories.event(by=organiser)
    with pytest.raises(InvalidInput, match="Line 2: Birth year 1850 is out of range"):
        services.registrations_add_sheet(event=event, text="Ann,1,1990\nBob,2,1850\n", by=organiser)
    assert not event.registrations.exists()


def test_five_thousand_lines_preview_and_save_in_a_fixed_number_of_queries(
    organiser, django_assert_max_num_queries
):
    event = factories.event(by=organiser)
    text = "\n".join(f"Player {n:05d}\t{100000 + n}\t1990" for n in range(5000))
    with django_assert_max_num_queries(3):
        preview = services.players_sheet_preview(event=event, text=text)
    assert len(preview.rows) == 5000 and preview.ready and not preview.duplicate_rows
    with django_assert_max_num_queries(25):
        regs = services.registrations_add_sheet(event=event, text=text, by=organiser)
    assert len(regs) == 5000


# --- the page --------------------------------------------------------------------------


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client


def test_an_uploaded_semicolon_file_is_previewed_then_confirmed(staff_client, event):
    url = reverse("staff:players_import", args=[event.slug])
    content = "Nombre;ID;Año\nJosé Pérez;12;1990\nLuz Díaz;13;1991\n".encode("cp1252")
    upload = SimpleUploadedFile("jugadores.csv", content, content_type="text/csv")
    body = staff_client.post(url, {"file": upload}).content.decode()
    assert not event.registrations.exists()
    assert "semicolon separated" in body and "José Pérez" in body and "Add these 2 players" in body
    # The confirmation posts the sheet's text (the file is not sent again).
    text = "Nombre;ID;Año\nJosé Pérez;12;1990\nLuz Díaz;13;1991\n"
    response = staff_client.post(url, {"lines": text, "confirm": "on"}, follow=True)
    assert "Added 2 players." in response.content.decode()
    assert sorted(event.registrations.values_list("player__name", flat=True)) == [
        "José Pérez",
        "Luz Díaz",
    ]


def test_a_utf16_sheet_is_read_and_junk_behind_a_utf16_mark_is_refused(staff_client, event):
    url = reverse("staff:players_import", args=[event.slug])
    sheet = "Name\tID\n山田 太郎\t21\nJosé Pérez\t22\n".encode("utf-16")
    body = staff_client.post(url, {"file": SimpleUploadedFile("p.txt", sheet)}).content.decode()
    assert "山田 太郎" in body and "José Pérez" in body and "Add these 2 players" in body
    # An ASCII file behind a UTF-16 mark: it decodes to "最牡慢敧ĀⰬਬ產瑮牥業慮整Ɽ਱".
    junk = b'\xff\xfe\x00garbage\x00\x01,,,\n"unterminated,1\n'
    for content in (junk, b"\xff\xfe\x00\xd8A\x00", b"\xff\xfeA"):  # lone surrogate, odd
        upload = SimpleUploadedFile("players.csv", content, content_type="text/csv")
        answer = staff_client.post(url, {"file": upload}).content.decode()
        assert "This file is not a text spreadsheet" in answer
        assert "Add this player" not in answer
    spanish = staff_client.post(
        url, {"file": SimpleUploadedFile("j.csv", junk)}, HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "Este archivo no es una hoja de cálculo de texto" in spanish
    assert not event.registrations.exists()


def test_duplicates_are_confirmed_on_the_page(staff_client, event):
    url = reverse("staff:players_import", args=[event.slug])
    body = staff_client.post(url, {"lines": MIXED}).content.decode()
    assert 'id="sheet-line-1" class="has-duplicate"' in body
    assert 'name="allow_duplicates" required' in body
    refused = staff_client.post(url, {"lines": MIXED, "confirm": "on"}).content.decode()
    assert "Nothing was added. Line 1: Alice Smith is also on line 5." in refused
    assert not event.registrations.exists()
    done = staff_client.post(
        url, {"lines": MIXED, "confirm": "on", "allow_duplicates": "on"}, follow=True
    )
    assert "Added 5 players." in done.content.decode()
    added = staff_client.post(url, {"lines": "Ann,77\n", "confirm": "on"}, follow=True)
    assert "Added 1 player." in added.content.decode()


def test_a_magic_sheet_reads_no_birth_year_or_division(organiser):
    event = factories.event(by=organiser, ruleset="mtg")
    text = "Ana Lee,3001,1990,Masters\nBo Chen,3002,not a year\nCy Diaz,3003\n"
    preview = services.players_sheet_preview(event=event, text=text)
    assert (preview.birth_years, preview.divisions, preview.ready) == (False, False, True)
    assert [(r.name, r.birth_year, r.birth_year_text, r.problems) for r in preview.rows] == [
        ("Ana Lee", None, "", ()),
        ("Bo Chen", None, "", ()),
        ("Cy Diaz", None, "", ()),
    ]
    only = event.divisions.get()
    assert {r.division for r in preview.rows} == {only}
    regs = services.registrations_add_sheet(event=event, text=text, by=organiser)
    assert [(r.player.birth_year, r.division_id) for r in regs] == [(None, only.pk)] * 3


def test_a_pokemon_sheet_still_reads_birth_years_and_divisions(organiser):
    event = factories.event(by=organiser, divisions=AGES, season_year=2026)
    preview = services.players_sheet_preview(event=event, text="Ann,1,1990\n")
    assert (preview.birth_years, preview.divisions) == (True, True)
    assert (preview.rows[0].birth_year, preview.rows[0].division.code) == (1990, "masters")


def test_the_magic_preview_asks_for_and_shows_no_birth_year_or_division(client, organiser):
    event = factories.event(by=organiser, ruleset="mtg")
    client.force_login(organiser)
    players = client.get(reverse("staff:players", args=[event.slug])).content.decode()
    assert "birth year" not in players.lower()
    url = reverse("staff:players_import", args=[event.slug])
    body = client.post(url, {"lines": "Ana Lee,3001,1990\nBo Chen,3002\n"}).content.decode()
    assert "(columns: name, player id;" in body
    preview = body.split('id="sheet-preview"')[1].split("</section>")[0]
    assert "birth year" not in preview.lower() and "division" not in preview.lower()
    assert "<th>Line</th><th>Name</th><th>Player id</th></tr>" in preview
    shown = preview.split("<table")[1].split("</table>")[0]
    assert ">Born<" not in shown and "1990" not in shown  # only the sheet's own text holds it
    spanish = client.post(
        url, {"lines": "Ana Lee,3001,1990\n"}, HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "(columnas: nombre, ID de jugador;" in spanish


# --- duplicate names told apart --------------------------------------------------------


def test_shown_name():
    assert shown_name("Al", twin=False, player_id="123456") == "Al"
    assert shown_name("Al", twin=True, player_id="123456") == "Al #3456"
    assert shown_name("Al", twin=True, birth_year=1990) == "Al (1990)"
    assert shown_name("Al", twin=True, external_id="p4") == "Al (p4)"


def two_alices(organiser):
    """An event of four players, two of them named Alice Smith (confirmed duplicates)."""
    event = factories.event(by=organiser)
    services.registrations_add_sheet(
        event=event,
        text="Alice Smith,1111\nBob,2\nAlice Smith,2222\nDan,4\n",
        by=organiser,
        allow_duplicate_names=True,
    )
    return event


def test_players_with_the_same_name_are_told_apart_where_players_look(client, organiser):
    event = two_alices(organiser)
    factories.round_in_order(event, by=organiser, status=RoundStatus.PUBLISHED)
    url = reverse("public:pairings", args=[event.slug])
    by_table = client.get(url).content.decode()
    assert "Alice Smith #1111" in by_table and "Alice Smith #2222" in by_table
    assert "Bob #" not in by_table
    found = client.get(url, {"q": "alice"}).content.decode()
    assert found.count("Alice Smith #") == 2
    by_name = client.get(url, {"by": "name"}).content.decode()
    assert '<h2 class="round-heading">Round 1' in by_name
    assert 'class="round-heading">Round 1' in found


def test_standings_tell_players_with_the_same_name_apart(client, organiser):
    event = two_alices(organiser)
    rnd = factories.round_in_order(event, by=organiser)
    for m in rnd.matches.all():
        services.slip_enter(match=m, result=Result.draw(), by=organiser)
    data = standings_data(event)
    rows = {r["player"]: r for rows in data["divisions"].values() for r in rows}
    twins = sorted(r["shown_name"] for r in rows.values() if "shown_name" in r)
    assert twins == ["Alice Smith #1111", "Alice Smith #2222"]
    assert sorted(r["name"] for r in rows.values()) == ["Alice Smith", "Alice Smith", "Bob", "Dan"]
    standings_compute(event=event)
    body = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert "Alice Smith #1111" in body and "Alice Smith #2222" in body and "Bob #" not in body
