"""Events, players, rounds, matches, self-reports, staff and the audit trail.

Models hold data and the invariants the database can guard (unique and check
constraints); every state change goes through ``tournaments.services``. Modules:
``events`` (event, division, player, registration), ``groups`` (pairing group, cut seed), ``rounds`` (round, match, seat,
self-report), ``staff`` (staff roles, audit trail, penalty notes, background runs),
``imports`` (uploaded event files imported in the background), ``live`` (what changed,
per event and topic, for live pages), ``floor`` (judge calls), ``venue`` (events taken
to a venue laptop).
"""

from .events import (
    Division,
    DivisionCode,
    Event,
    EventListing,
    EventStatus,
    Player,
    Registration,
    SelfReportMode,
    Structure,
    new_report_token,
)
from .floor import JudgeCall, JudgeCallReason, JudgeCallStatus
from .groups import CutSeed, GroupPhase, PairingGroup
from .imports import ImportFormat, ImportJob, ImportJobStatus
from .live import LiveVersion
from .rounds import (
    PLAYED_KINDS,
    Match,
    MatchKind,
    MatchSeat,
    Outcome,
    Phase,
    Round,
    RoundStatus,
    Seating,
    SelfReport,
    match_kind,
)
from .staff import (
    AuditEvent,
    BackgroundRun,
    BackgroundRunStatus,
    EventStaff,
    PenaltyKind,
    PenaltyNote,
    StaffInvite,
    StaffRole,
)
from .venue import VenueTrip

__all__ = [
    "PLAYED_KINDS",
    "AuditEvent",
    "BackgroundRun",
    "BackgroundRunStatus",
    "CutSeed",
    "Division",
    "DivisionCode",
    "Event",
    "EventListing",
    "EventStaff",
    "EventStatus",
    "GroupPhase",
    "ImportFormat",
    "ImportJob",
    "ImportJobStatus",
    "JudgeCall",
    "JudgeCallReason",
    "JudgeCallStatus",
    "LiveVersion",
    "Match",
    "MatchKind",
    "MatchSeat",
    "Outcome",
    "PenaltyKind",
    "PairingGroup",
    "PenaltyNote",
    "Phase",
    "Player",
    "Registration",
    "Round",
    "RoundStatus",
    "Seating",
    "SelfReport",
    "SelfReportMode",
    "StaffInvite",
    "StaffRole",
    "Structure",
    "VenueTrip",
    "match_kind",
    "new_report_token",
]
