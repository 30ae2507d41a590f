"""Read-only queries for the pages (docs/style.md §2: ``<thing>_for_<audience>``).

Each selector returns plain frozen dataclasses holding what one screen needs, in a fixed
number of queries whatever the size of the event. Public selectors only ever look at
published rounds: a round in status "paired" is invisible to players (P-POST-1).

Modules: ``rounds`` (round and table views, staff round pages), ``public`` (published
rounds, pairings by name, brackets), ``events`` (structure, divisions, home page,
players) and ``snapshots`` (a standings snapshot as page rows). Import from the package.
"""

from ..groups import group_label
from .events import (
    DivisionSummary,
    divisions_for_event,
    events_for_home,
    registrations_for_staff,
)
from .public import (
    NameEntry,
    bracket_for_public,
    current_public_rounds,
    names_for_public,
    pairings_for_public,
    pairings_search_for_public,
    seats_for_public,
    table_for_player,
    tables_by_registration,
)
from .rounds import (
    ELIMINATION_PHASES,
    LIVE_STATUSES,
    PUBLIC_STATUSES,
    MatchView,
    Records,
    RoundView,
    SeatView,
    match_for_staff,
    round_for_staff,
    rounds_for_staff,
    views_in_language,
)
from .snapshots import StandingLine, standings_for_public

__all__ = [
    "ELIMINATION_PHASES",
    "LIVE_STATUSES",
    "PUBLIC_STATUSES",
    "DivisionSummary",
    "MatchView",
    "NameEntry",
    "Records",
    "RoundView",
    "SeatView",
    "StandingLine",
    "bracket_for_public",
    "current_public_rounds",
    "divisions_for_event",
    "events_for_home",
    "group_label",
    "match_for_staff",
    "names_for_public",
    "pairings_for_public",
    "pairings_search_for_public",
    "registrations_for_staff",
    "round_for_staff",
    "rounds_for_staff",
    "seats_for_public",
    "standings_for_public",
    "table_for_player",
    "tables_by_registration",
    "views_in_language",
]
