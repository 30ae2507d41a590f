"""Importing whole events (event JSON v1, TOM ``.tdf``) and exporting event JSON.

Both importers normalise the file into :class:`EventData` and create everything in one
transaction: a file that fails validation writes nothing (INTERFACES.md).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from ..errors import InvalidInput
from ..formats.eventdata import DivisionData, EventData, MatchData, RoundData
from ..formats.tdf import TdfError, parse_tdf
from ..formats.tdf_event import tdf_event_data
from ..models import (
    Division,
    Event,
    EventStaff,
    Match,
    MatchSeat,
    Outcome,
    Phase,
    Player,
    Registration,
    Round,
    RoundStatus,
    StaffRole,
    Structure,
)
from ..multiplayer import allowed_cuts
from ..pods import cut_pod_name, flight_pod
from .audit import audit_log
from .events import unique_slug


def _pod_of(
    match: MatchData,
    phase: str,
    division_of: dict[str, DivisionData],
    flight_of: dict[str, int | None] | None = None,
) -> str:
    division = division_of[match.players[0]]
    if phase in (Phase.TOP_CUT, Phase.SINGLE_ELIMINATION):
        return cut_pod_name(division.code) if phase == Phase.TOP_CUT else division.pod
    flight = (flight_of or {}).get(match.players[0])
    if division.flights and flight:  # P-FL: each flight is its own pairing group
        return flight_pod(division.pod, flight)
    return division.pod


def _create_round(
    event: Event, pod: str, rd: RoundData, matches: list[MatchData], regs: dict[str, Registration]
) -> None:
    pending = any(m.outcome == Outcome.PENDING for m in matches)
    rnd = Round.objects.create(
        event=event,
        pod=pod,
        phase=rd.phase,
        number=rd.number,
        status=RoundStatus.STARTED if pending else RoundStatus.COMPLETE,
    )
    created = Match.objects.bulk_create(
        Match(
            round=rnd,
            table=m.table if len(m.players) > 1 else None,
            outcome=m.outcome,
            winner=regs[m.winner] if m.winner else None,
            games=m.games,
            version=0 if m.outcome == Outcome.PENDING else 1,
        )
        for m in matches
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=obj, round=rnd, registration=regs[pid], seat=n, conceded=pid in m.conceded)
        for obj, m in zip(created, matches, strict=True)
        for n, pid in enumerate(m.players, start=1)
    )


@transaction.atomic
def event_import(*, data: EventData, by: Any) -> Event:
    """Create an event with its players, rounds and results from normalised data.

    Rounds are split by pod (R-5); top-cut matches go to the division's bracket pod.
    ``day2_rounds`` of a two-day event is kept (P-D2-1); its ``swiss-day2`` rounds stay in
    the division's pod as Day 1's do.
    """
    cut = max((d.top_cut for d in data.divisions), default=0)
    event = Event.objects.create(
        slug=unique_slug(data.name),
        name=data.name,
        ruleset=data.ruleset,
        structure=Structure.SWISS_TOP_CUT if cut else Structure.SWISS,
        swiss_rounds=max((d.swiss_rounds for d in data.divisions), default=0),
        # the ruleset's sizes (MP-SE-1 pod cuts included); each division keeps its own too
        top_cut_size=cut if cut in allowed_cuts(data.ruleset) else 0,
        third_place_playoff=data.third_place_playoff,
        day2_rounds=data.day2_rounds,
        date=data.date,
        location=data.location,
        options=data.options,
        source=data.source,
        status="finished" if data.rounds else "registration",
    )
    divisions = {
        d.code: Division.objects.create(
            event=event,
            code=d.code,
            pod=d.pod,
            swiss_rounds=d.swiss_rounds,
            top_cut_size=d.top_cut,
            flights=d.flights,
        )
        for d in data.divisions
    }
    regs = {}
    for p in data.players:
        player = Player.objects.create(name=p.name, player_id=p.player_id, birth_year=p.birth_year)
        regs[p.id] = Registration.objects.create(
            event=event,
            player=player,
            division=divisions[p.division],
            external_id=p.id,
            late=p.late,
            dropped_after_round=p.dropped_after_round,
            disqualified=p.disqualified,
            flight=p.flight,
        )
    division_of = {
        p.id: next(d for d in data.divisions if d.code == p.division) for p in data.players
    }
    flight_of = {p.id: p.flight for p in data.players}
    for rd in data.rounds:
        by_pod: dict[str, list[MatchData]] = {}
        for m in rd.matches:
            by_pod.setdefault(_pod_of(m, rd.phase, division_of, flight_of), []).append(m)
        for pod, matches in by_pod.items():
            _create_round(event, pod, rd, matches, regs)
    audit_log(
        event=event,
        by=by,
        action="event.import",
        obj=event,
        new={"players": len(regs), "rounds": len(data.rounds)},
    )
    return event


@transaction.atomic
def event_import_tdf(*, content: bytes, by: Any) -> Event:
    """Import an uploaded TOM ``.tdf`` file and make ``by`` its organiser.

    Raises InvalidInput naming the element at fault for a malformed or inconsistent file;
    then nothing is written (INTERFACES.md)."""
    try:
        data = tdf_event_data(parse_tdf(content))
    except TdfError as e:
        raise InvalidInput(f"This is not a TOM file we can read: {e}") from None
    event = event_import(data=data, by=by)
    if getattr(by, "is_authenticated", False):
        EventStaff.objects.create(event=event, user=by, role=StaffRole.ORGANISER)
    return event
