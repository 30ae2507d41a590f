"""Services own every state change (STYLE.md §2): keyword-only, ``by=`` the acting user,
atomic, audited. Views, tasks, the admin and commands call these."""

from .audit import audit_log
from .events import event_create, event_finish, unique_slug
from .registrations import (
    parse_player_lines,
    registration_add,
    registration_drop,
    registrations_add_csv,
)
from .results import correction_window_open, match_result_text, slip_enter
from .rounds import (
    round_complete_if_reported,
    round_create,
    round_discard,
    round_publish,
    round_start,
    standings_refresh_on_commit,
)

__all__ = [
    "audit_log",
    "correction_window_open",
    "event_create",
    "event_finish",
    "match_result_text",
    "parse_player_lines",
    "registration_add",
    "registration_drop",
    "registrations_add_csv",
    "round_complete_if_reported",
    "round_create",
    "round_discard",
    "round_publish",
    "round_start",
    "slip_enter",
    "standings_refresh_on_commit",
    "unique_slug",
]
