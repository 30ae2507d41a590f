"""Registering players from a pasted or uploaded spreadsheet: a preview with every
problem marked, nothing saved, then the confirmed save through the bulk path.

``players_sheet_preview`` reads the text (``tournaments.player_sheet``: CSV or TSV, comma,
semicolon or tab, quoted fields, a header row in any order) and checks each row against
the event: a missing name, a player id or name twice in the sheet or already registered,
an unknown division, a birth year that is not one or out of range, an age division the
event does not hold (P-AGE-1). ``registrations_add_sheet`` parses the same text again,
so it saves exactly what the preview showed, and refuses while any row has a problem, or
while a name is duplicated without the organiser's confirmation.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from ..actors import Actor
from ..ages import division_for
from ..errors import InvalidInput
from ..models import Division, DivisionCode, Event, Registration
from ..player_sheet import normalise, sheet_parse, year_of
from ..seasons import event_season
from ..spreadsheet import starts_like_formula
from ..text import TextRefused, clean_name
from .registration_batch import NewPlayer, players_register

#: Earliest birth year taken; the latest is the current year.
FIRST_BIRTH_YEAR = 1900
NAME_MAX, PLAYER_ID_MAX = 200, 40  # the Player model's field lengths

#: What a division cell may say, normalised (``tournaments.player_sheet.normalise``), per code.
DIVISION_WORDS: dict[str, frozenset[str]] = {
    DivisionCode.JUNIOR: frozenset({"junior", "juniors", "jr", "ju", "infantil"}),
    DivisionCode.SENIOR: frozenset({"senior", "seniors", "sr", "se", "juvenil"}),
    DivisionCode.MASTERS: frozenset({"masters", "master", "ma", "adulto", "adultos"}),
    DivisionCode.OPEN: frozenset({"open", "abierta", "abierto", "libre"}),
}


@dataclass(frozen=True)
class PreviewRow:
    """One checked row of the sheet. ``problems``: what stops the save (the organiser
    fixes the sheet); ``duplicates``: names seen twice, saved only when confirmed;
    ``notes``: information (a name turned round, a division the sheet overrides)."""

    line: int
    name: str
    player_id: str
    birth_year: int | None
    birth_year_text: str
    division: Division | None
    problems: tuple[str, ...] = ()
    duplicates: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def division_label(self) -> str:
        return self.division.get_code_display() if self.division else ""


@dataclass(frozen=True)
class SheetPreview:
    """The checked rows of a sheet, in line order, and how it was read (``separator``
    as a word: "tab", "semicolon", "comma"; ``header``: a header row named the columns).
    ``birth_years``: the event's ruleset has age divisions, so birth years are read
    (P-AGE-1); ``divisions``: rows say their division (age divisions, or an event of
    several divisions). The page shows only those columns."""

    rows: tuple[PreviewRow, ...]
    separator: str
    header: bool
    birth_years: bool = True
    divisions: bool = True

    @property
    def problem_rows(self) -> int:
        return sum(bool(r.problems) for r in self.rows)

    @property
    def duplicate_rows(self) -> int:
        return sum(bool(r.duplicates) for r in self.rows)

    @property
    def ready(self) -> bool:
        """Nothing stops the save (duplicated names still need the confirmation)."""
        return bool(self.rows) and not self.problem_rows


SEPARATOR_WORDS = {"\t": "tab", ";": "semicolon", ",": "comma"}


def _division_of_cell(cell: str, divisions: dict[str, Division]) -> Division | None:
    word = normalise(cell)
    for code, division in divisions.items():
        if word in DIVISION_WORDS.get(code, frozenset()) or word == normalise(
            division.get_code_display()
        ):
            return division
    return None


def _sheet_name(cell: str) -> tuple[str, str]:
    """A row's name as the text rule for names cleans it (``tournaments.text``
    item 3) and ``""``; or the cell as read and the problem ("Name: contains the control
    character U+001B, which a name cannot hold.")."""
    if not cell:
        return cell, ""
    try:
        return clean_name(cell, gettext("Name")), ""
    except TextRefused as e:
        return cell, f"{e}."


def _registered(event: Event) -> tuple[Counter[str], set[str]]:
    """Names (case-folded, counted) and player ids already registered in the event. One
    query."""
    names: Counter[str] = Counter()
    ids: set[str] = set()
    rows = Registration.objects.filter(event=event).order_by()
    for name, player_id in rows.values_list("player__name", "player__player_id"):
        names[name.casefold()] += 1
        if player_id:
            ids.add(player_id)
    return names, ids


def players_sheet_preview(*, event: Event, text: str, today: dt.date | None = None) -> SheetPreview:
    """Read ``text`` (pasted or uploaded CSV/TSV) and check every row against ``event``;
    saves nothing. Two queries (divisions, registered players) whatever the number of
    rows. ``today`` fixes the latest birth year taken (default: today).

    Each row's division: the sheet's division cell (a code or label, English or Spanish)
    when there is one, else the event's single division (P-AGE-6), else the age
    division of the birth year in the event's season (P-AGE-1). A ruleset without age
    divisions (Magic) reads no birth year, and no division either unless the event has
    several: those cells are left unread, and a row without one joins the event's first
    division, as a player added by hand does.
    """
    sheet = sheet_parse(text)
    divisions = {d.code: d for d in event.divisions.order_by("code")}
    ages = event.rules.features.age_divisions
    several = ages or len(divisions) > 1
    season = event_season(event)
    last_year = (today or dt.date.today()).year
    registered_names, registered_ids = _registered(event)
    ids = Counter(r.player_id for r in sheet.rows if r.player_id)
    names = [_sheet_name(r.name) for r in sheet.rows]
    lines_of: dict[str, list[int]] = {}
    for r, (name, _) in zip(sheet.rows, names, strict=True):
        lines_of.setdefault(name.casefold(), []).append(r.line)
    known = ", ".join(d.get_code_display() for d in divisions.values())
    rows = []
    for r, (name, name_refused) in zip(sheet.rows, names, strict=True):
        problems: list[str] = []
        duplicates: list[str] = []
        notes: list[str] = []
        if r.turned:
            notes.append(f"Written “{r.cells[sheet.columns.get('name', 0)]}”: saved as {name}.")
        for cell in (name, r.player_id):  # said before anything is saved
            if cell and starts_like_formula(cell):
                notes.append(
                    gettext(
                        "“%(cell)s” starts like a spreadsheet formula: exported CSV files "
                        "write it as text, never as a formula."
                    )
                    % {"cell": cell}
                )
        if not r.name:
            problems.append("No name.")
        elif name_refused:
            problems.append(name_refused)
        elif len(name) > NAME_MAX:
            problems.append(f"The name is longer than {NAME_MAX} characters.")
        if r.extra:
            problems.append(
                f"Unexpected extra cells {', '.join(r.extra)}: quote a name that has a comma."
            )
        if r.player_id:
            if not any(c.isdigit() for c in r.player_id):
                problems.append(
                    f"Player id “{r.player_id}” has no digit: is it part of the name? "
                    "Quote a name written “Last, First”."
                )
            elif len(r.player_id) > PLAYER_ID_MAX:
                problems.append(f"The player id is longer than {PLAYER_ID_MAX} characters.")
            if r.player_id in registered_ids:
                problems.append(f"Player id {r.player_id} is already registered.")
            elif ids[r.player_id] > 1:
                problems.append(f"Player id {r.player_id} appears {ids[r.player_id]} times.")
        birth_year = r.birth_year if ages else ""
        year = year_of(birth_year) if birth_year else None
        if birth_year and year is None:
            problems.append(f"Birth year “{r.birth_year}” is not a year.")
        elif year is not None and not FIRST_BIRTH_YEAR <= year <= last_year:
            problems.append(f"Birth year {year} is out of range ({FIRST_BIRTH_YEAR}–{last_year}).")
            year = None
        if ages:
            division = _row_division(r.division, year, divisions, season, known, problems, notes)
        else:
            cell = r.division if several else ""
            division = _plain_division(cell, divisions, known, problems)
        if name and not name_refused:
            key = name.casefold()
            if registered_names[key]:
                duplicates.append(f"{name} is already registered.")
            others = [str(n) for n in lines_of[key] if n != r.line]
            if others:
                duplicates.append(f"{name} is also on line {', '.join(others)}.")
        rows.append(
            PreviewRow(
                line=r.line,
                name=name,
                player_id=r.player_id,
                birth_year=year,
                birth_year_text=birth_year,
                division=division,
                problems=tuple(problems),
                duplicates=tuple(duplicates),
                notes=tuple(notes),
            )
        )
    return SheetPreview(tuple(rows), SEPARATOR_WORDS[sheet.separator], sheet.header, ages, several)


def _plain_division(
    cell: str, divisions: dict[str, Division], known: str, problems: list[str]
) -> Division | None:
    """A row's division at an event without age divisions: the sheet's cell when it
    names one, else the event's first division (``division_of_birth_year`` does the
    same for a player added by hand); adds to ``problems`` for an unknown cell or an
    event without divisions."""
    if cell:
        division = _division_of_cell(cell, divisions)
        if division is None:
            problems.append(f"Unknown division “{cell}”: this event has {known}.")
        return division
    if not divisions:
        problems.append(gettext("This event has no division to register players in."))
        return None
    return next(iter(divisions.values()))


def _row_division(
    cell: str,
    year: int | None,
    divisions: dict[str, Division],
    season: int,
    known: str,
    problems: list[str],
    notes: list[str],
) -> Division | None:
    """The row's division (see ``players_sheet_preview``); adds to ``problems`` when
    there is none, to ``notes`` when the sheet's division is not the birth year's."""
    by_year = division_for(year, season) if year is not None else None
    if cell:
        division = _division_of_cell(cell, divisions)
        if division is None:
            problems.append(f"Unknown division “{cell}”: this event has {known}.")
        elif len(divisions) > 1 and by_year and by_year != division.code:
            notes.append(
                f"Born {year} is {by_year.title()}; the sheet says {division.get_code_display()}."
            )
        return division
    if len(divisions) == 1:
        return next(iter(divisions.values()))
    if year is None:
        problems.append("A birth year is needed to choose the age division.")
        return None
    age = division_for(year, season)
    if age not in divisions:
        problems.append(f"Born {year} is {age.title()}, not a division of this event.")
        return None
    return divisions[age]


@transaction.atomic
def registrations_add_sheet(
    *, event: Event, text: str, by: Actor, allow_duplicate_names: bool = False
) -> list[Registration]:
    """Register every row of a previewed sheet, all or nothing, through the bulk path
    (``players_register``: late entries P-LATE-1, flights P-FL-4, P-SE-4, one
    ``registration.add`` audit row each) in a fixed number of queries.

    ``text`` is parsed again exactly as the preview parsed it. Raises InvalidInput, with
    nothing saved, when the sheet has no player, when any row has a problem, or when a
    name is duplicated (in the sheet or with a registered player) and
    ``allow_duplicate_names`` is False. Returns the registrations in line order.
    """
    preview = players_sheet_preview(event=event, text=text)
    if not preview.rows:
        raise InvalidInput(gettext("No players found in the sheet."))
    bad = next((r for r in preview.rows if r.problems), None)
    if bad is not None:
        raise InvalidInput(
            gettext("Line %(line)s: %(problems)s") % {"line": bad.line, "problems": bad.problems[0]}
        )
    twin = next((r for r in preview.rows if r.duplicates), None)
    if twin is not None and not allow_duplicate_names:
        raise InvalidInput(
            gettext("Line %(line)s: %(duplicates)s Confirm that these are different players.")
            % {"line": twin.line, "duplicates": twin.duplicates[0]}
        )
    entries = [
        NewPlayer(r.name, r.player_id, r.birth_year, r.division, line=r.line)
        for r in preview.rows
        if r.division is not None
    ]
    return players_register(event=event, entries=entries, by=by, late=None, override=False)
