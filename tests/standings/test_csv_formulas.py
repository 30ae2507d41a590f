"""No CSV the project writes runs as a formula in a spreadsheet (
CWE-1236): names such as ``=HYPERLINK(…)``, ``@SUM(…)``, ``+1+1`` or ``-2+3`` come out as
text (a leading single quote), in the standings and pairings downloads, ``export_csv``
and the audit trail; plain numbers stay numbers."""

from __future__ import annotations

import csv

import pytest
from django.urls import reverse

from tests import factories
from tournaments import services
from tournaments.services import Result
from tournaments.spreadsheet import safe_cell

pytestmark = pytest.mark.django_db

# ";" separates a formula's arguments in many locales; a "," would make "Add a player" read
# the name as "Last, First" and turn it round.
NAMES = ['=HYPERLINK("http://evil.example";"x")', "@SUM(A1:A9)", "+1+1", "-2+3"]


def rows_of(raw: bytes) -> list[list[str]]:
    return list(csv.reader(raw.decode("utf-8-sig").splitlines()))


def test_cells_that_start_a_formula_become_text_and_numbers_stay():
    assert safe_cell("=1+1") == "'=1+1"
    assert safe_cell("@SUM(A1)") == "'@SUM(A1)"
    assert safe_cell("\tcmd") == "'\tcmd"
    assert safe_cell("-2+3") == "'-2+3"
    assert safe_cell("-1") == "-1" and safe_cell("0.555556") == "0.555556"
    assert safe_cell("Ash Ketchum") == "Ash Ketchum" and safe_cell(None) == ""


def test_standings_pairings_and_audit_csv_never_carry_a_formula(client, organiser):
    event = factories.event(by=organiser, swiss_rounds=2)
    for i, name in enumerate(NAMES):
        services.registration_add(event=event, name=name, player_id=f"{2000 + i}", by=organiser)
    rnd = factories.round_in_order(event, by=organiser)
    for m in rnd.matches.prefetch_related("seats"):
        services.slip_enter(match=m, result=Result.win(m.seats.first().registration), by=organiser)
    services.registration_drop(
        registration=event.registrations.first(), by=organiser, reason="=cmd|' /C calc'!A0"
    )
    client.force_login(organiser)
    files = {
        "standings": client.get(reverse("staff:standings_csv", args=[event.slug])).content,
        "pairings": client.get(reverse("staff:pairings_csv", args=[event.slug])).content,
        "audit": client.get(reverse("staff:audit_csv", args=[event.slug])).content,
    }
    for kind, raw in files.items():
        cells = [cell for row in rows_of(raw) for cell in row]
        assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")], kind
        assert not [
            c for c in cells if c.startswith("-") and not c.lstrip("-").replace(".", "").isdigit()
        ], kind
    for kind in ("standings", "pairings"):
        cells = {cell for row in rows_of(files[kind]) for cell in row}
        assert {f"'{name}" for name in NAMES} <= cells, kind
    assert "'=cmd|' /C calc'!A0" in {cell for row in rows_of(files["audit"]) for cell in row}


def test_the_registration_preview_warns_about_a_cell_that_starts_a_formula(organiser):
    """Said before anything is saved; a plain name or id says nothing."""
    event = factories.event(by=organiser)
    text = "=SUM(A1:A9),1001\nAsh Ketchum,@2002\nMisty,3003"
    preview = services.players_sheet_preview(event=event, text=text)
    notes = [row.notes for row in preview.rows]
    assert notes[0] == (
        "“=SUM(A1:A9)” starts like a spreadsheet formula: exported CSV files write it as "
        "text, never as a formula.",
    )
    assert notes[1] == (
        "“@2002” starts like a spreadsheet formula: exported CSV files write it as text, "
        "never as a formula.",
    )
    assert notes[2] == ()
