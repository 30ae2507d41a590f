"""Players pasted or uploaded from a spreadsheet: CSV or TSV text read with the standard
``csv`` module into plain rows, before anything is checked against an event.

What organisers really paste: comma, semicolon or tab separated lines (a spreadsheet
copied to the clipboard gives tabs, a European "CSV" export semicolons), quoted fields
(``"Garcia, Maria",456,1985``), sometimes a mix of these in one paste, with or without a
header row naming the columns in any order, in English or Spanish (``name``, ``player
id``, ``birth year``, ``division``; ``nombre``, ``id``, ``año``, ``división``). The
dialect is sniffed (``csv.Sniffer``) on a sample, with a fallback that counts the
separators; a line that does not split with the sheet's separator is read with the one
it uses. A name written "Last, First" is turned round to "First Last".

Pure Python: no Django. The checks against the event (duplicates, divisions, birth years)
are in ``tournaments.services.player_sheets``.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass, field

#: The separators a sheet may use, the most specific first (a tab or a semicolon inside a
#: name is much rarer than a comma).
SEPARATORS = ("\t", ";", ",")

#: Columns in their order when the sheet has no header row.
DEFAULT_COLUMNS = ("name", "player_id", "birth_year", "division")

#: Header words, normalised (lower case, no accents, letters and digits only), per column.
HEADERS: dict[str, frozenset[str]] = {
    "name": frozenset(
        {"name", "names", "player", "playername", "fullname", "nombre", "jugador", "nombrecompleto"}
    ),
    "first_name": frozenset({"firstname", "givenname", "first", "nombrepila"}),
    "last_name": frozenset({"lastname", "surname", "familyname", "last", "apellido", "apellidos"}),
    "player_id": frozenset(
        {
            "id",
            "playerid",
            "popid",
            "pokemonid",
            "playernumber",
            "playerno",
            "dci",
            "dcinumber",
            "wizardsid",
            "idjugador",
            "iddejugador",
            "numerodejugador",
            "numero",
        }
    ),
    "birth_year": frozenset(
        {
            "birthyear",
            "yearofbirth",
            "born",
            "year",
            "ano",
            "anodenacimiento",
            "nacimiento",
            "anonacimiento",
            "birth",
            "dob",
            "dateofbirth",
            "birthdate",
            "fechadenacimiento",
        }
    ),
    "division": frozenset(
        {"division", "agedivision", "category", "categoria", "age", "edad", "divisiondeedad"}
    ),
}

SNIFF_SAMPLE = 8192  # characters given to csv.Sniffer

#: What ends a line of a sheet. Not ``str.splitlines``, which also breaks at a vertical
#: tab, a form feed or U+2028: those are kept in the line for the text rule for names to
#: refuse or space out (``tournaments.text``).
LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class SheetRow:
    """One player line of the sheet. ``line``: its 1-based line number in the text;
    ``cells``: every cell as read; ``name`` … ``division``: the cells of the known
    columns, stripped ("" when absent); ``turned``: the name was written "Last, First";
    ``extra``: cells beyond the known columns of a sheet without header."""

    line: int
    cells: tuple[str, ...]
    name: str
    player_id: str
    birth_year: str
    division: str
    turned: bool = False
    extra: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sheet:
    """A parsed sheet: the separator found (``"\\t"``, ``";"`` or ``","``), the columns
    (``{column: cell index}``), whether a header row named them, and the player rows."""

    separator: str
    columns: dict[str, int]
    header: bool
    rows: tuple[SheetRow, ...] = field(default_factory=tuple)


def trim(cell: str) -> str:
    """``cell`` without spaces and tabs at either end; a control character there (a
    vertical tab, an escape) is kept for the text rule for names to refuse, where
    ``str.strip`` would drop some of them unseen."""
    start, end = 0, len(cell)
    while start < end and _blank(cell[start]):
        start += 1
    while end > start and _blank(cell[end - 1]):
        end -= 1
    return cell[start:end]


def _blank(char: str) -> bool:
    return char == "\t" or (char.isspace() and unicodedata.category(char) != "Cc")


def normalise(text: str) -> str:
    """``"Año de nacimiento"`` → ``"anodenacimiento"``: lower case, no accents, only
    letters and digits."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", plain.casefold())


def sheet_separator(text: str) -> str:
    """The separator of ``text``: ``csv.Sniffer`` on a sample, restricted to tab,
    semicolon and comma; when it cannot tell, the separator found on most lines
    (ties: tab, then semicolon, then comma); a comma for a single column."""
    sample = text[:SNIFF_SAMPLE]
    try:
        found = csv.Sniffer().sniff(sample, delimiters="".join(SEPARATORS)).delimiter
    except csv.Error:
        found = ""
    lines = [ln for ln in sample.splitlines() if ln.strip()]
    counts = {sep: sum(sep in _unquoted(ln) for ln in lines) for sep in SEPARATORS}
    best = max(SEPARATORS, key=lambda sep: counts[sep])  # max keeps the first of a tie
    # The sniffer guesses from character frequencies and can pick a comma inside quoted
    # names over the tabs of every line: trust it only when it agrees with most lines.
    if found in SEPARATORS and counts[found] >= counts[best]:
        return found
    return best if counts[best] else ","


def _unquoted(line: str) -> str:
    """``line`` without its double-quoted parts (a comma inside quotes separates nothing)."""
    return re.sub(r'"[^"]*"', "", line)


def _cells(line: str, separator: str) -> list[str]:
    """The cells of one line read with ``separator``; when that gives a single cell, with
    the first other separator that splits it (a pasted mix of TSV and CSV lines)."""
    row = next(csv.reader([line], delimiter=separator, skipinitialspace=True), [])
    if len(row) <= 1:
        for other in SEPARATORS:
            if other != separator and other in _unquoted(line):
                split = next(csv.reader([line], delimiter=other, skipinitialspace=True), [])
                if len(split) > 1:
                    return split
    return row


def _header_columns(cells: list[str]) -> dict[str, int] | None:
    """``{column: index}`` when ``cells`` is a header row (a name column, a first and last
    name pair, or at least two known headings, and no cell that is a number), else None."""
    if any(c.strip().isdigit() for c in cells):
        return None
    columns: dict[str, int] = {}
    for i, cell in enumerate(cells):
        word = normalise(cell)
        for column, words in HEADERS.items():
            if word in words and column not in columns:
                columns[column] = i
                break
    named = "name" in columns or {"first_name", "last_name"} <= columns.keys()
    return columns if named or len(columns) >= 2 else None


def turn_name(name: str) -> tuple[str, bool]:
    """``"Garcia, Maria"`` → ``("Maria Garcia", True)``: a name written "Last, First"
    (one comma, words on both sides) is turned round; any other name is kept."""
    parts = [trim(p) for p in name.split(",")]
    if len(parts) == 2 and all(parts):
        return f"{parts[1]} {parts[0]}", True
    return name, False


def _cell(cells: list[str], columns: dict[str, int], column: str) -> str:
    i = columns.get(column)
    return trim(cells[i]) if i is not None and i < len(cells) else ""


def sheet_parse(text: str) -> Sheet:
    """Read pasted or uploaded sheet text into a :class:`Sheet`; never raises. Blank
    lines are skipped; line numbers count every line of ``text`` (a header included)."""
    text = text.lstrip("\ufeff")
    separator = sheet_separator(text)
    columns: dict[str, int] = {c: i for i, c in enumerate(DEFAULT_COLUMNS)}
    header = False
    rows: list[SheetRow] = []
    for n, line in enumerate(LINE_BREAK.split(text), start=1):
        if not line.strip():
            continue
        cells = [trim(c) for c in _cells(line, separator)]
        if not any(cells):
            continue
        if not rows and not header:
            found = _header_columns(cells)
            if found is not None:
                columns, header = found, True
                continue
        name = _cell(cells, columns, "name")
        if "name" not in columns:  # a header with first and last name columns
            first, last = _cell(cells, columns, "first_name"), _cell(cells, columns, "last_name")
            name = " ".join(p for p in (first, last) if p)
        name, turned = turn_name(name)
        extra = () if header else tuple(c for c in cells[len(DEFAULT_COLUMNS) :] if c)
        rows.append(
            SheetRow(
                line=n,
                cells=tuple(cells),
                name=name.replace("\t", " "),  # the text rule cleans it (services)
                player_id=_cell(cells, columns, "player_id"),
                birth_year=_cell(cells, columns, "birth_year"),
                division=_cell(cells, columns, "division"),
                turned=turned,
                extra=extra,
            )
        )
    return Sheet(separator=separator, columns=columns, header=header, rows=tuple(rows))


def year_of(cell: str) -> int | None:
    """The year in a birth-year cell: ``"1999"``, or the four-digit year of a date
    (``"1999-04-02"``, ``"02/04/1999"``); None when there is none."""
    cell = cell.strip()
    if cell.isdigit():
        return int(cell)
    found = re.fullmatch(r"(\d{4})[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.](\d{4})", cell)
    if found:
        return int(found.group(1) or found.group(2))
    return None
