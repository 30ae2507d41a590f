"""Registering, importing and dropping players."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from ..errors import InvalidInput
from ..formats.tdf import division_for, season_end_year
from ..models import (
    Division,
    Event,
    Match,
    MatchSeat,
    Outcome,
    Phase,
    Player,
    Registration,
    Round,
    RoundStatus,
)
from .audit import audit_log


@dataclass(frozen=True)
class PlayerLine:
    """One parsed CSV line ``name,player id,birth year``."""

    name: str
    player_id: str
    birth_year: int | None


def parse_player_lines(text: str) -> list[PlayerLine]:
    """Parse pasted CSV lines ``name,player id,birth year`` (id and year optional).

    Raises InvalidInput naming the first bad line (1-based); returns nothing partial.
    """
    lines: list[PlayerLine] = []
    for n, row in enumerate(csv.reader(io.StringIO(text.strip())), start=1):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if len(cells) > 3 or not cells[0]:
            raise InvalidInput(f"Line {n}: expected 'name,player id,birth year', got {row!r}.")
        year: int | None = None
        if len(cells) == 3 and cells[2]:
            if not cells[2].isdigit() or not 1900 <= int(cells[2]) <= 2100:
                raise InvalidInput(f"Line {n}: birth year {cells[2]!r} is not a year.")
            year = int(cells[2])
        lines.append(PlayerLine(cells[0], cells[1] if len(cells) > 1 else "", year))
    if not lines:
        raise InvalidInput("No players found: paste one 'name,player id,birth year' per line.")
    return lines


def _next_external_id(event: Event) -> str:
    n = Registration.objects.filter(event=event).count() + 1
    while Registration.objects.filter(event=event, external_id=f"p{n}").exists():
        n += 1
    return f"p{n}"


def _default_division(event: Event) -> Division:
    division = event.divisions.order_by("code").first()
    if division is None:
        raise InvalidInput("This event has no division to register players in.")
    return division


@transaction.atomic
def registration_add(
    *,
    event: Event,
    name: str,
    by: Any,
    player_id: str = "",
    birth_year: int | None = None,
    division: Division | None = None,
    external_id: str | None = None,
    late: bool | None = None,
) -> Registration:
    """Register one player. After a Swiss round of their pod has started the player is
    late: flagged tardy and given a loss for every started round (P-LATE-1, I-5).

    Raises InvalidInput for an empty name or a player id already registered.
    """
    name = name.strip()
    if not name:
        raise InvalidInput("The player needs a name.")
    if player_id and event.registrations.filter(player__player_id=player_id).exists():
        raise InvalidInput(f"Player id {player_id} is already registered in this event.")
    division = division or _default_division(event)
    started = Round.objects.filter(
        event=event,
        pod=division.pod,
        phase=Phase.SWISS,
        status__in=[RoundStatus.STARTED, RoundStatus.COMPLETE],
    ).order_by("number")
    player = Player.objects.create(name=name, player_id=player_id, birth_year=birth_year)
    reg = Registration.objects.create(
        event=event,
        player=player,
        division=division,
        external_id=external_id or _next_external_id(event),
        late=bool(started) if late is None else late,
    )
    if late is None:
        for rnd in started:
            match = Match.objects.create(round=rnd, outcome=Outcome.LOSS, why="late entry")
            MatchSeat.objects.create(match=match, round=rnd, registration=reg, seat=1)
    audit_log(
        event=event,
        by=by,
        action="registration.add",
        obj=reg,
        new={"name": name, "player_id": player_id, "late": reg.late},
    )
    return reg


def division_by_birth_year(event: Event, birth_year: int | None, line: int) -> Division:
    """The event's division for a birth year (P-AGE-1, season from the event date).

    An event with one division takes everyone (P-AGE-6). Raises InvalidInput naming the
    line when the year is missing or its division is not part of the event.
    """
    divisions = {d.code: d for d in event.divisions.all()}
    if len(divisions) == 1:
        return next(iter(divisions.values()))
    if birth_year is None:
        raise InvalidInput(f"Line {line}: a birth year is needed to choose the age division.")
    season = season_end_year(event.date or timezone.localdate())
    code = division_for(birth_year, season)
    if code not in divisions:
        raise InvalidInput(
            f"Line {line}: born {birth_year} is {code}, not a division of this event."
        )
    return divisions[code]


@transaction.atomic
def registrations_add_csv(*, event: Event, text: str, by: Any) -> list[Registration]:
    """Register every line of pasted CSV text, all or nothing (see ``parse_player_lines``);
    each player goes to the age division of their birth year."""
    lines = parse_player_lines(text)
    ids = [line.player_id for line in lines if line.player_id]
    if len(ids) != len(set(ids)):
        raise InvalidInput("The same player id appears twice in the pasted lines.")
    divisions = [division_by_birth_year(event, ln.birth_year, n) for n, ln in enumerate(lines, 1)]
    return [
        registration_add(
            event=event,
            name=line.name,
            player_id=line.player_id,
            birth_year=line.birth_year,
            division=division,
            by=by,
        )
        for line, division in zip(lines, divisions, strict=True)
    ]


@transaction.atomic
def registration_drop(*, registration: Registration, by: Any, reason: str = "") -> Registration:
    """Drop a player (P-SW-6): they finish the round they are seated in, if any, and are
    never paired again. ``dropped_after_round`` = the last round they are seated in (0 if
    none). Dropping twice is refused.
    """
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.dropped_after_round is not None:
        raise InvalidInput(
            f"{reg.player.name} already dropped after round {reg.dropped_after_round}."
        )
    last = MatchSeat.objects.filter(registration=reg).aggregate(n=Max("round__number"))["n"]
    reg.dropped_after_round = last or 0
    reg.save(update_fields=["dropped_after_round"])
    audit_log(
        event=reg.event,
        by=by,
        action="registration.drop",
        obj=reg,
        old={"dropped_after_round": None},
        new={"dropped_after_round": reg.dropped_after_round},
        reason=reason,
    )
    return reg
