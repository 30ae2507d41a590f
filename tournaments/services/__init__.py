"""Services own every state change (docs/style.md §2): keyword-only, ``by=`` the acting user
(or the Registration of a player on their private link), atomic, audited. Views, tasks,
the admin and commands call these."""

from .audit import audit_log
from .checkin import registration_checkin
from .clock import match_time_extend, round_clock_add_time, round_clock_pause, round_clock_resume
from .corrections import Correction, mark_changed_brackets, result_correct
from .decklists import deck_check_draw, decklist_record
from .edits import event_rounds_editable, event_rounds_floor, event_update, player_update
from .events import event_create, event_finish, unique_slug
from .invites import (
    staff_carry_over,
    staff_invite_accept,
    staff_invite_create,
    staff_invite_find,
    staff_invite_mail,
    staff_invite_problem,
    staff_invite_withdraw,
)
from .judge_calls import (
    judge_call_claim,
    judge_call_escalate,
    judge_call_open,
    judge_call_resolve,
)
from .listing import event_deletable, event_delete, event_has_results, event_listing_set
from .player_decklists import (
    decklist_deadline_set,
    decklist_reopen,
    decklist_settings_update,
    decklist_submit,
)
from .player_sheets import players_sheet_preview, registrations_add_sheet
from .registrations import (
    late_losses,
    match_forfeit,
    parse_player_lines,
    registration_add,
    registration_disqualify,
    registration_drop,
    registration_reinstate,
    registration_set_division,
    registrations_add_csv,
)
from .reports import dispute_resolve, registration_self_drop, report_accept, report_submit
from .result_types import Result
from .results import (
    correction_window_open,
    locked_message,
    match_result_text,
    pod_intentional_draw_note,
    slip_enter,
)
from .rounds import (
    round_complete_if_reported,
    round_create,
    round_discard,
    round_publish,
    round_start,
    standings_refresh_on_commit,
)
from .staff import (
    event_settings_update,
    penalty_note_add,
    registration_link_reset,
    staff_invite,
    staff_remove,
)
from .undo import (
    last_entry_undo_refusal,
    round_last_entry,
    round_last_entry_undo,
    round_pairings_discard,
    round_seats_swap,
    round_table_move,
)

__all__ = [
    "Correction",
    "Result",
    "audit_log",
    "correction_window_open",
    "deck_check_draw",
    "decklist_record",
    "decklist_deadline_set",
    "decklist_reopen",
    "decklist_settings_update",
    "decklist_submit",
    "dispute_resolve",
    "event_create",
    "event_deletable",
    "event_delete",
    "event_has_results",
    "event_listing_set",
    "staff_carry_over",
    "staff_invite_accept",
    "staff_invite_create",
    "staff_invite_find",
    "staff_invite_mail",
    "staff_invite_problem",
    "staff_invite_withdraw",
    "event_finish",
    "event_rounds_editable",
    "event_rounds_floor",
    "event_update",
    "event_settings_update",
    "judge_call_claim",
    "judge_call_escalate",
    "judge_call_open",
    "judge_call_resolve",
    "locked_message",
    "mark_changed_brackets",
    "match_time_extend",
    "match_result_text",
    "parse_player_lines",
    "penalty_note_add",
    "player_update",
    "pod_intentional_draw_note",
    "players_sheet_preview",
    "registration_add",
    "registration_checkin",
    "late_losses",
    "match_forfeit",
    "registration_disqualify",
    "registration_drop",
    "registration_self_drop",
    "registration_reinstate",
    "registration_set_division",
    "registration_link_reset",
    "registrations_add_csv",
    "registrations_add_sheet",
    "report_accept",
    "report_submit",
    "result_correct",
    "round_clock_add_time",
    "round_clock_pause",
    "round_clock_resume",
    "round_complete_if_reported",
    "round_create",
    "round_discard",
    "round_publish",
    "round_start",
    "slip_enter",
    "staff_invite",
    "staff_remove",
    "standings_refresh_on_commit",
    "unique_slug",
    "last_entry_undo_refusal",
    "round_last_entry",
    "round_last_entry_undo",
    "round_pairings_discard",
    "round_seats_swap",
    "round_table_move",
]
