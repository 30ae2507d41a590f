"""The season of an event and its age cut-offs (P-AGE-1).

The organiser sets the year the season ends in (``Event.season_year``); without it the
season follows the event date (July–June, ``ages.season_end_year``), then today.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from .ages import division_for, season_end_year
from .models import Event


@dataclass(frozen=True)
class Cutoffs:
    """Birth years of each division for a season ending in ``season`` (P-AGE-1).

    junior_from: born this year or later; senior: (first, last); masters_until: born this
    year or earlier.
    """

    season: int
    junior_from: int
    senior: tuple[int, int]
    masters_until: int

    @property
    def text(self) -> str:
        lo, hi = self.senior
        return (
            f"Season ending {self.season}: Junior born {self.junior_from} or later, "
            f"Senior born {lo}–{hi}, Masters born {self.masters_until} or earlier."
        )


def event_season(event: Event) -> int:
    """The season year of ``event``: set by the organiser, else from its date, else today."""
    if event.season_year:
        return event.season_year
    return season_end_year(event.date) if event.date else current_season()


def current_season() -> int:
    """The season today belongs to."""
    return season_end_year(timezone.localdate())


def cutoffs(season: int) -> Cutoffs:
    """The birth-year cut-offs of a season, read from ``division_for`` so the two agree."""
    junior_from = next(
        y for y in range(season - 20, season + 1) if division_for(y, season) == "junior"
    )
    masters_until = junior_from - 5
    return Cutoffs(season, junior_from, (masters_until + 1, junior_from - 1), masters_until)
