"""Registering, importing and dropping players."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from ..ages import division_for
from ..errors import InvalidInput
from ..groups import swiss_group
from ..models import (
    Division,
    Event,
    EventStatus,
    Match,
    MatchSeat,
    Outcome,
    Phase,
    Registration,
    Round,
)
from ..seasons import event_season
from .audit import audit_log
from .registration_batch import UNDER_WAY, NewPlayer, players_register
from .rounds import round_complete_if_reported


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
            raise InvalidInput(
                gettext("Line %(n)s: expected 'name,player id,birth year', got %(row)r.")
                % {"n": n, "row": row}
            )
        year: int | None = None
        if len(cells) == 3 and cells[2]:
            if not cells[2].isdigit() or not 1900 <= int(cells[2]) <= 2100:
                raise InvalidInput(
                    gettext("Line %(n)s: birth year %(cells)r is not a year.")
                    % {"n": n, "cells": cells[2]}
                )
            year = int(cells[2])
        lines.append(PlayerLine(cells[0], cells[1] if len(cells) > 1 else "", year))
    if not lines:
        raise InvalidInput(
            gettext("No players found: paste one 'name,player id,birth year' per line.")
        )
    return lines


def _default_division(event: Event) -> Division:
    division = event.divisions.order_by("code").first()
    if division is None:
        raise InvalidInput(gettext("This event has no division to register players in."))
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
    override_late_entry: bool = False,
) -> Registration:
    """Register one player. After a Swiss round of their pairing group has started the player is
    late: flagged tardy and given a loss for every started round (P-LATE-1, I-5); in a
    flighted division they join the smaller flight (P-FL-4). See ``players_register``.

    Raises InvalidInput for an empty name, a player id already registered, or a late
    entry after round 2 of an event that awards Championship Points without
    ``override_late_entry`` (P-LATE-1).
    """
    name = name.strip()
    if not name:
        raise InvalidInput(gettext("The player needs a name."))
    division = division or _default_division(event)
    entry = NewPlayer(name, player_id, birth_year, division, external_id=external_id)
    (reg,) = players_register(
        event=event, entries=[entry], by=by, late=late, override=override_late_entry
    )
    return reg


def late_losses(event: Event, division: Division | None = None) -> int:
    """How many automatic losses a player added now would receive (P-LATE-1): the Swiss
    rounds of their pairing group (or its flights) already started (the event's first division by default)."""
    division = division or event.divisions.order_by("code").first()
    if division is None:
        return 0
    root = swiss_group(division)
    groups = Q(group=root) | Q(group__parent=root, group__flight__isnull=False)
    started = Round.objects.filter(groups, event=event, phase=Phase.SWISS, status__in=UNDER_WAY)
    return started.values("number").distinct().count()  # flights play the same rounds


def division_by_birth_year(
    divisions: dict[str, Division], season: int, birth_year: int | None, line: int
) -> Division:
    """The division for a birth year in the event's season (P-AGE-1, ``event_season``),
    from ``divisions``, the event's by code.

    An event with one division takes everyone (P-AGE-6). Raises InvalidInput naming the
    line when the year is missing or its division is not part of the event.
    """
    if len(divisions) == 1:
        return next(iter(divisions.values()))
    if birth_year is None:
        raise InvalidInput(
            gettext("Line %(line)s: a birth year is needed to choose the age division.")
            % {"line": line}
        )
    code = division_for(birth_year, season)
    if code not in divisions:
        raise InvalidInput(
            gettext("Line %(line)s: born %(birth_year)s is %(code)s, not a division of this event.")
            % {"line": line, "birth_year": birth_year, "code": code}
        )
    return divisions[code]


@transaction.atomic
def registrations_add_csv(*, event: Event, text: str, by: Any) -> list[Registration]:
    """Register every line of pasted CSV text, all or nothing: every line is checked
    first (``parse_player_lines``, player ids unique and not yet registered, the age
    division of the birth year P-AGE-1, P-LATE-1, P-SE-4), then all are saved as
    ``registration_add`` saves one (flight P-FL-4, late-entry losses, an audit row each)
    with bulk inserts: a fixed number of queries whatever the number of lines.

    Returns the registrations in line order. Raises InvalidInput naming the line.
    """
    lines = parse_player_lines(text)
    ids = [line.player_id for line in lines if line.player_id]
    if len(ids) != len(set(ids)):
        raise InvalidInput(gettext("The same player id appears twice in the pasted lines."))
    divisions = {d.code: d for d in event.divisions.all()}
    season = event_season(event)
    entries = [
        NewPlayer(
            ln.name,
            ln.player_id,
            ln.birth_year,
            division_by_birth_year(divisions, season, ln.birth_year, n),
            line=n,
        )
        for n, ln in enumerate(lines, start=1)
    ]
    return players_register(event=event, entries=entries, by=by, late=None, override=False)


@transaction.atomic
def registration_drop(*, registration: Registration, by: Any, reason: str = "") -> Registration:
    """Drop a player (P-SW-6): they finish the round they are seated in, if any, and are
    never paired again. ``dropped_after_round`` = the last round they are seated in (0 if
    none). Dropping twice is refused, and so is dropping once the event is finished.
    """
    reg = Registration.objects.select_for_update().select_related("event").get(pk=registration.pk)
    if reg.event.status == EventStatus.FINISHED:
        raise InvalidInput(gettext("The event is finished."))
    if reg.dropped_after_round is not None:
        raise InvalidInput(
            gettext("%(name)s already dropped after round %(dropped_after_round)s.")
            % {"name": reg.player.name, "dropped_after_round": reg.dropped_after_round}
        )
    last = MatchSeat.objects.filter(registration=reg).aggregate(n=Max("round__number"))["n"]
    reg.dropped_after_round = last or 0
    reg.save(update_fields=["dropped_after_round"])
    match_forfeit(registration=reg, by=by)
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


@transaction.atomic
def registration_reinstate(
    *, registration: Registration, by: Any, reason: str = ""
) -> Registration:
    """Undo a drop (issue 20: a no-show dropped by mistake, a player who changed their
    mind): the player is paired again from their next round. Allowed only while that round
    is not yet paired in their division's groups (once it is, they missed it: drops are
    final from then on, P-SW-6), never for a disqualified player, a finished event, or a
    player whose single-elimination match the drop forfeited (P-SE-3: that loss stands).
    Audited with the reason. Raises InvalidInput otherwise."""
    reg = (
        Registration.objects.select_for_update()
        .select_related("player", "event", "division")
        .get(pk=registration.pk)
    )
    name = reg.player.name
    if reg.dropped_after_round is None:
        raise InvalidInput(gettext("%(name)s has not dropped.") % {"name": name})
    if reg.disqualified:
        raise InvalidInput(
            gettext("%(name)s is disqualified: a disqualification stands.") % {"name": name}
        )
    if reg.event.status == EventStatus.FINISHED:
        raise InvalidInput(gettext("The event is finished."))
    later = (
        Round.objects.filter(
            event_id=reg.event_id,
            group__divisions=reg.division_id,
            number__gt=reg.dropped_after_round,
        )
        .order_by("number")
        .first()
    )
    if later is not None:
        raise InvalidInput(
            gettext("%(name)s cannot come back: round %(number)s is already paired without them.")
            % {"name": name, "number": later.number}
        )
    if (
        MatchSeat.objects.filter(
            registration=reg, round__phase=Phase.SINGLE_ELIMINATION, match__winner__isnull=False
        )
        .exclude(match__winner=reg)
        .exists()
    ):
        raise InvalidInput(
            gettext("%(name)s lost their single-elimination match: they are out of the bracket.")
            % {"name": name}
        )
    was = reg.dropped_after_round
    reg.dropped_after_round = None
    reg.save(update_fields=["dropped_after_round"])
    audit_log(
        event=reg.event,
        by=by,
        action="registration.reinstate",
        obj=reg,
        old={"dropped_after_round": was},
        new={"dropped_after_round": None},
        reason=reason,
    )
    return reg


@transaction.atomic
def registration_set_division(
    *, registration: Registration, division: Division, by: Any, reason: str = ""
) -> Registration:
    """Move a player to another age division of the event, overriding the division of
    their birth year (P-AGE-1). Allowed only before round 1 is paired: the divisions fix
    the pairing groups and the age mode (P-AGE-2, P-AGE-3). Raises InvalidInput otherwise."""
    reg = (
        Registration.objects.select_for_update().select_related("division").get(pk=registration.pk)
    )
    if division.event_id != reg.event_id:
        raise InvalidInput(gettext("That division belongs to another event."))
    if Round.objects.filter(event_id=reg.event_id).exists():
        raise InvalidInput(gettext("Divisions are fixed once round 1 is paired."))
    old = reg.division.code
    reg.division = division
    reg.save(update_fields=["division"])
    audit_log(
        event=reg.event,
        by=by,
        action="registration.division",
        obj=reg,
        old={"division": old},
        new={"division": division.code},
        reason=reason,
    )
    return reg


@transaction.atomic
def match_forfeit(*, registration: Registration, by: Any) -> Match | None:
    """P-SE-3: in single elimination a player who drops (or is disqualified) loses the
    current match whatever its state: their pending single-elimination match is recorded
    as a win for the opponent, audited. Returns that match, or None when there is none."""
    seat = (
        MatchSeat.objects.filter(
            registration=registration,
            match__outcome=Outcome.PENDING,
            round__phase=Phase.SINGLE_ELIMINATION,
        )
        .select_related("round")
        .first()
    )
    match = Match.objects.select_for_update().get(pk=seat.match_id) if seat else None
    opponent = match.seats.exclude(registration=registration).first() if match else None
    if seat is None or match is None or opponent is None:
        return None
    match.outcome, match.winner = Outcome.WIN, opponent.registration
    match.version += 1
    match.reported_at = timezone.now()
    match.reported_by = by if getattr(by, "is_authenticated", False) else None
    match.save(update_fields=["outcome", "winner", "version", "reported_at", "reported_by"])
    audit_log(
        event=registration.event,
        by=by,
        action="match.forfeit",
        obj=match,
        round_number=seat.round.number,
        old={"outcome": Outcome.PENDING},
        new={"outcome": Outcome.WIN, "winner": opponent.registration.external_id},
        reason=f"{registration.player.name} left single elimination",
    )
    round_complete_if_reported(seat.round, by=by)
    return match


@transaction.atomic
def registration_disqualify(*, registration: Registration, by: Any, reason: str) -> Registration:
    """Disqualify a player: never paired again, their results still count for their
    opponents, no place in the standings (INTERFACES.md); in single elimination they lose
    the current match at once (P-SE-3). The reason is required and audited."""
    if not reason.strip():
        raise InvalidInput(gettext("Give the reason for the disqualification."))
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.disqualified:
        raise InvalidInput(gettext("%(name)s is already disqualified.") % {"name": reg.player.name})
    reg.disqualified = True
    reg.save(update_fields=["disqualified"])
    audit_log(
        event=reg.event,
        by=by,
        action="registration.disqualify",
        obj=reg,
        old={"disqualified": False},
        new={"disqualified": True},
        reason=reason,
    )
    match_forfeit(registration=reg, by=by)
    return reg
