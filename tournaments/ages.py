"""Age divisions by birth year (P-AGE-1). Pure Python, no Django: used by the TOM file
parser, the season cut-offs shown to organisers and registration by pasted CSV lines.
"""

from __future__ import annotations

from datetime import date


def season_end_year(day: date) -> int:
    """Year in which the Play! Pokémon season containing ``day`` ends (July–June).

    An event on 2025-11-30 belongs to the season ending 2026.
    """
    return day.year + 1 if day.month >= 7 else day.year


def division_for(birth_year: int, season_end: int) -> str:
    """``junior`` / ``senior`` / ``masters`` for a birth year in a season (P-AGE-1).

    P-AGE-1 as written (Junior born S−11 or later, Senior S−15…S−12, Masters ≤ S−16)
    holds up to the season ending 2020. The seasons ending 2020 and 2021 shared the same
    birth years (pandemic), so from 2021 on every boundary is one year earlier: for the
    season ending 2026, Junior 2014+, Senior 2010–2013, Masters ≤ 2009. The real event
    ``2025-dg-nov-cup.tdf`` (11/30/2025) confirms it: players born 2010 are Seniors.
    """
    reference = season_end if season_end <= 2020 else season_end - 1
    if birth_year >= reference - 11:
        return "junior"
    if birth_year >= reference - 15:
        return "senior"
    return "masters"
