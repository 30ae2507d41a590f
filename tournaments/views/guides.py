"""Help where it is needed: the public page explaining the standings
columns of the event's ruleset, from the registry's own explanations
(``rulesets.Column.explanation``, ``Ruleset.glossary``), and the staff help page per
role, whose list of what a role may do is read from ``permissions.CAPABILITIES``.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from ..models import Event, SelfReportMode, StaffRole
from ..permissions import CAPABILITIES, event_staff_required, staff_roles
from .common import public_event_or_404

#: What each capability lets a member of staff do, in plain words (keys of CAPABILITIES).
CAPABILITY_TEXT = {
    "operate": _(
        "Run the event: add, edit and drop players, close check-in, pair, publish and "
        "start rounds, enter match slips and cut to the top cut."
    ),
    "correct": _(
        "Correct the result of a completed round, always with a reason, and note penalties."
    ),
    "resolve": _(
        "Handle disputes: accept results both players agree on, and decide at the table when "
        "their reports differ."
    ),
    "audit": _("Read the audit trail: every change, who made it, when and why."),
    "clock": _("Run the round clock: pause it, add time to the round, extend one table."),
    "decklists": _("Record deck lists and run deck checks."),
    "floor": _(
        "Answer judge calls on the Floor board: claim a call, escalate it to the head judge, "
        "resolve it with a note and a time extension for the table."
    ),
    "manage": _("Invite and remove staff, change the event's settings, and disqualify a player."),
}

#: A role's day, step by step (what comes next on the dashboard, in order).
ROLE_STEPS = {
    StaffRole.ORGANISER: (
        _("Create the event: the planner shows the rounds, the top cut and the finish time."),
        _("Invite your scorekeepers and judges on the Staff page."),
        _("Add the players, one by one or from a spreadsheet."),
        _("Close check-in on the dashboard: it fixes the rounds and the top cut."),
        _("Pair each round, review it, publish it, then start it when players are seated."),
        _("Follow the results; after the last Swiss round, cut to the top cut."),
        _("When the final is played, check the final standings."),
    ),
    StaffRole.SCOREKEEPER: (
        _("Open the dashboard: it says what comes next for every division."),
        _("Pair the next round, review the tables, publish and start it."),
        _("Enter match slips as they come in; the round page lists the missing results."),
        _("Print pairings and match slips from the round page when needed."),
    ),
    StaffRole.JUDGE: (
        _("Keep the Floor board open on your phone: players' calls for a judge appear there."),
        _("Keep the Disputes page open: tables whose players disagree appear there."),
        _("Go to the table, hear both players, and record the result you decide."),
        _("Correct a completed round's result on Corrections, with a reason."),
        _("Note penalties on Penalties; extend a table's time after a long ruling."),
    ),
}

SELF_REPORT_TEXT = {
    SelfReportMode.ACCEPT: _(
        "When both players report the same result, it is recorded at once, as a match "
        "slip signed by both would be."
    ),
    SelfReportMode.HOLD: _(
        "When both players report the same result, it waits on the Disputes page until "
        "a member of staff accepts it."
    ),
    SelfReportMode.OFF: _(
        "At this event players do not report results: staff enter every match slip."
    ),
}


@require_safe
def standings_help(request: HttpRequest, slug: str) -> HttpResponse:
    """What every standings column of the event's ruleset means: place, record, match
    points (the ruleset's points for a win, a drawn match and a loss) and each
    tiebreaker column's heading, short form and explanation, in the ruleset's order."""
    event = public_event_or_404(request, slug)
    rules = event.rules
    context = {
        "event": event,
        "rules": rules,
        "points_win": rules.points_per_win(event.options),
        "columns": rules.columns,
        "glossary": rules.glossary,
    }
    return render(request, "tournaments/public/standings_help.html", context)


@require_safe
@event_staff_required("audit")
def staff_help_home(request: HttpRequest, event: Event) -> HttpResponse:
    """The help page of the viewer's own role (organiser first, when they hold several)."""
    roles = staff_roles(request.user, event)
    return staff_help_page(request, event, next(r for r in StaffRole.values if r in roles))


@require_safe
@event_staff_required("audit")
def staff_help(request: HttpRequest, event: Event, role: str) -> HttpResponse:
    """One role's help page; any staff member of the event may read every role's page.
    404 for an unknown role."""
    if role not in StaffRole.values:
        raise Http404("No such role.")
    return staff_help_page(request, event, role)


def staff_help_page(request: HttpRequest, event: Event, role: str) -> HttpResponse:
    """What the role may do (from ``CAPABILITIES``), its day step by step, and how
    self-reporting works at this event."""
    context = {
        "event": event,
        "role": StaffRole(role),
        "roles": StaffRole.choices,
        "can_do": [
            CAPABILITY_TEXT[c] for c, (who, _refusal) in CAPABILITIES.items() if role in who
        ],
        "cannot_do": [
            CAPABILITY_TEXT[c] for c, (who, _refusal) in CAPABILITIES.items() if role not in who
        ],
        "steps": ROLE_STEPS[StaffRole(role)],
        "self_report": SELF_REPORT_TEXT[SelfReportMode(event.self_report)],
    }
    return render(request, "tournaments/staff/help.html", context)
