"""CSV cells a spreadsheet opens as text, never as a formula (CWE-1236).

Names, ids and reasons come from public sign-up sheets, the Add-player form and imported
files. A cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
run as a formula by Excel, LibreOffice and Google Sheets (``=HYPERLINK(…)``, ``@SUM(…)``,
``+1+1``, ``-2+3``), so every CSV the project writes — the standings and pairings
downloads, ``export_csv`` and the audit trail — puts a single quote before such a cell,
as OWASP recommends; the spreadsheet shows the text as typed. A plain number (``-1``,
``0.5``) is left as it is, so numeric columns stay numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def safe_cell(value: object) -> str:
    """``value`` as CSV cell text that no spreadsheet runs: a leading ``'`` before a
    formula start, unless the cell is a plain number."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_START) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def starts_like_formula(value: str) -> bool:
    """Whether a spreadsheet would run ``value`` as a formula (CWE-1236): the cells
    :func:`safe_cell` writes as text. The registration preview warns about them."""
    return safe_cell(value) != value


def safe_rows(rows: Iterable[Iterable[object]]) -> list[list[str]]:
    """Every cell of ``rows`` through :func:`safe_cell`."""
    return [[safe_cell(cell) for cell in row] for row in rows]
