"""Staff pages of ``tournaments`` (namespace ``staff``): creating an event, then players,
rounds and match slips, the judges' desk (disputes, corrections, penalties), the audit
trail, printing and the event's staff, under ``/e/<event>/staff/…``.

config/urls.py joins these with ``pairings.urls_staff`` and ``standings.urls_staff`` into
the ``staff`` namespace.
"""

from django.urls import path

from .views import (
    accounts,
    audit,
    checkin,
    clock,
    decklists,
    desk,
    discipline,
    floor,
    guides,
    live,
    pods,
    printing,
    roster,
    seating,
    staff,
    tables,
    team,
    undo,
    venue,
)

E = "e/<slug:slug>/staff/"
R = f"{E}rounds/<int:round_id>/"
M = f"{E}matches/<int:match_id>/"
P = f"{E}players/<int:registration_id>/"

urlpatterns = [
    path("staff/new/", staff.event_create, name="event_create"),
    path(f"{E}live/", live.staff_live, name="live"),
    path(f"{E}players/", staff.players, name="players"),
    path(f"{E}checkin/", checkin.checkin, name="checkin"),
    path(f"{P}checkin/", checkin.checkin_toggle, name="checkin_toggle"),
    path(f"{E}checkin/door/", checkin.checkin_door, name="checkin_door"),
    path(f"{E}venue/", venue.venue_sign, name="venue_sign"),
    path(f"{E}players/add/", staff.player_add, name="player_add"),
    path(f"{E}players/import/", staff.players_import, name="players_import"),
    path(f"{P}drop/", staff.player_drop, name="player_drop"),
    path(f"{P}reinstate/", staff.player_reinstate, name="player_reinstate"),
    path(f"{P}division/", staff.player_division, name="player_division"),
    path(P, roster.player_detail, name="player"),
    path(f"{P}disqualify/", roster.player_disqualify, name="player_disqualify"),
    path(f"{P}fixed-seat/", seating.fixed_seat, name="fixed_seat"),
    path(f"{R}feature/", seating.feature, name="match_feature"),
    path(f"{M}unfeature/", seating.unfeature, name="match_unfeature"),
    path(f"{P}decklist/", discipline.decklist_record, name="decklist_record"),
    path(f"{E}decklists/", discipline.decklists, name="decklists"),
    path(f"{E}deck-check/", discipline.deck_check, name="deck_check"),
    # judges read any list; reopen one; the deadline and settings
    path(f"{P}decklist/read/", decklists.decklist_read, name="decklist_read"),
    path(f"{P}decklist/reopen/", decklists.decklist_reopen, name="decklist_reopen"),
    path(f"{E}decklists/deadline/", decklists.decklist_deadline, name="decklist_deadline"),
    path(f"{E}decklists/settings/", decklists.decklist_settings, name="decklist_settings"),
    path(f"{E}disqualify/", roster.player_disqualify, name="disqualify"),  # from the penalties page
    path(f"{P}link/", team.player_link, name="player_link"),
    path(f"{P}link/reset/", team.player_link_reset, name="player_link_reset"),
    path(R, staff.round_detail, name="round"),
    path(f"{R}publish/", staff.round_publish, name="round_publish"),
    path(f"{R}start/", staff.round_start, name="round_start"),
    path(f"{R}discard/", undo.round_discard, name="round_discard"),
    path(f"{R}swap/", undo.round_swap, name="round_swap"),
    path(f"{R}move/", undo.round_move, name="round_move"),
    path(f"{R}undo-last/", undo.round_undo_last, name="round_undo_last"),
    path(f"{R}clock/", clock.round_clock, name="round_clock"),
    path(f"{R}clock/pause/", clock.round_clock_pause, name="round_clock_pause"),
    path(f"{R}clock/resume/", clock.round_clock_resume, name="round_clock_resume"),
    path(f"{R}clock/add/", clock.round_clock_add, name="round_clock_add"),
    path(f"{M}extend-time/", clock.match_time_extend, name="match_time_extend"),
    path(f"{R}print/pairings/", printing.print_pairings, name="print_pairings"),
    path(f"{R}print/slips/", printing.print_slips, name="print_slips"),
    path(f"{M}result/", staff.match_result, name="match_result"),
    path(f"{M}intentional-draw/", pods.pod_intentional_draw, name="pod_intentional_draw"),
    path(f"{E}pod-structure/", pods.pod_structure, name="pod_structure"),
    path(f"{M}accept/", desk.report_accept, name="report_accept"),
    path(f"{M}resolve/", desk.dispute_resolve, name="dispute_resolve"),
    path(f"{M}correct/", desk.result_correct, name="result_correct"),
    path(f"{E}disputes/", desk.disputes, name="disputes"),
    path(f"{E}corrections/", desk.corrections, name="corrections"),
    path(f"{E}penalties/", desk.penalties, name="penalties"),
    # the judges' floor board and its judge calls
    path(f"{E}floor/", floor.floor, name="floor"),
    path(f"{E}floor/calls/<int:call_id>/claim/", floor.judge_call_claim, name="judge_call_claim"),
    path(
        f"{E}floor/calls/<int:call_id>/escalate/",
        floor.judge_call_escalate,
        name="judge_call_escalate",
    ),
    path(
        f"{E}floor/calls/<int:call_id>/resolve/",
        floor.judge_call_resolve,
        name="judge_call_resolve",
    ),
    # table numbers across groups, and one clock for them
    path(f"{E}groups/<str:group_key>/first-table/", tables.first_table, name="group_first_table"),
    path(f"{E}rounds/start-all/", tables.start_all, name="rounds_start_all"),
    path(f"{E}help/", guides.staff_help_home, name="help_home"),
    path(f"{E}help/<str:role>/", guides.staff_help, name="help"),
    path(f"{E}audit/", audit.audit, name="audit"),
    path(f"{E}audit.csv", audit.audit_csv, name="audit_csv"),
    path(f"{E}team/", team.team, name="team"),
    path(f"{E}team/invite/", team.team_invite, name="team_invite"),
    path(f"{E}team/<int:staff_id>/remove/", team.team_remove, name="team_remove"),
    path(  # invites, listing, delete
        f"{E}team/invites/<int:invite_id>/withdraw/",
        accounts.team_invite_withdraw,
        name="team_invite_withdraw",
    ),
    path("staff/invite/<str:token>/", accounts.invite_accept, name="invite_accept"),
    path(f"{E}listing/", accounts.event_listing, name="event_listing"),
    path(f"{E}delete/", accounts.event_delete, name="event_delete"),
    path(f"{E}event/", roster.event_edit, name="event_edit"),
    path(f"{E}settings/", team.event_settings, name="event_settings"),
    path(f"{E}settings/options/", team.event_options, name="event_options"),
]
