"""Events, players, rounds, matches, self-reports, staff and the audit trail.

Models hold data and the invariants the database can guard (unique and check
constraints); every state change goes through ``tournaments.services``. Modules:
``events`` (event, division, player, registration), ``rounds`` (round, match, seat,
self-report), ``staff`` (staff roles, audit trail, penalty notes, background runs),
``imports`` (uploaded event files imported in the background).
"""

from .events import (
    Division,
    DivisionCode,
    Event,
    EventStatus,
    Player,
    Registration,
    SelfReportMode,
    Structure,
    new_report_token,
)
from .imports import ImportFormat, ImportJob, ImportJobStatus
from .rounds import Match, MatchSeat, Outcome, Phase, Round, RoundStatus, SelfReport
from .staff import (
    AuditEvent,
    BackgroundRun,
    BackgroundRunStatus,
    EventStaff,
    PenaltyKind,
    PenaltyNote,
    StaffRole,
)

__all__ = [
    "AuditEvent",
    "BackgroundRun",
    "BackgroundRunStatus",
    "Division",
    "DivisionCode",
    "Event",
    "EventStaff",
    "EventStatus",
    "ImportFormat",
    "ImportJob",
    "ImportJobStatus",
    "Match",
    "MatchSeat",
    "Outcome",
    "PenaltyKind",
    "PenaltyNote",
    "Phase",
    "Player",
    "Registration",
    "Round",
    "RoundStatus",
    "SelfReport",
    "SelfReportMode",
    "StaffRole",
    "Structure",
    "new_report_token",
]
