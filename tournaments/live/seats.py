"""A player's table pushed in their stream: when the public pages change, each
open player page of this process gets its own table's HTML in the ``seat`` message, read
for all of them in one cache read from the new prebuilt pages — a few thousand phones
show a new round without a single request. A page whose table is not stored (a cache
miss) gets ``seatfetch`` instead and fetches ``/p/<token>/table/`` as before.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.urls import reverse
from django.utils import translation

from .. import public_pages
from ..views.prebuilt import my_table_html
from .topics import Change


@dataclass(frozen=True)
class SeatChange(Change):
    """A player's table as HTML (one line), for their stream only."""

    html: str = ""


def seat_html(slug: str, wanted: Sequence[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """``{(language, token): HTML}`` of the tables of ``wanted`` from the current prebuilt
    pages of the event ``slug``; those not stored are left out. One or two cache reads."""
    current = public_pages.pointer(slug)
    if current is None or not wanted:
        return {}
    found = public_pages.seats(slug, current, list(wanted))
    by_language: dict[str, list[str]] = defaultdict(list)
    for language, token in found:
        by_language[language].append(token)
    out = {}
    for language, tokens in by_language.items():
        with translation.override(language):
            for token in tokens:
                url = reverse("public:player_table", args=[slug, token])
                html = my_table_html(found[(language, token)], url)
                out[(language, token)] = " ".join(str(html).splitlines())
    return out
