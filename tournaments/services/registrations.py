"""Registering, importing and dropping players."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from ..actors import Actor, acting_user
from ..ages import division_for
from ..errors import DivisionUnconfirmed, InvalidInput
from ..groups import swiss_group
from ..models import (
    Division,
    DivisionCode,
    Event,
    EventStatus,
    Match,
    MatchSeat,
    Outcome,
    Phase,
    Registration,
    Round,
)
from ..player_sheet import turn_name
from ..public_pages import public_pages_changed
from ..seasons import event_season
from ..text import clean_name
from .audit import audit_log
from .registration_batch import UNDER_WAY, NewPlayer, players_register
from .rounds import round_complete_if_reported

#: What a pasted line may hold around its cells: spaces, tabs and line breaks.
SEPARATORS = " \t\r\n"


@dataclass(frozen=True)
class PlayerLine:
    """One parsed CSV line ``name,player id,birth year``."""

    name: str
    player_id: str
    birth_year: int | None


def parse_player_lines(text: str) -> list[PlayerLine]:
    """Parse pasted CSV lines ``name,player id,birth year`` (id and year optional); text
    with a tab is read as tab-separated (a spreadsheet copied to the clipboard).

    A tab or a line break is a separator, never part of a cell; every other control
    character stays in its cell, for the text rule to refuse.
    Raises InvalidInput naming the first bad line (1-based); returns nothing partial.
    """
    lines: list[PlayerLine] = []
    delimiter = "\t" if "\t" in text else ","
    rows = csv.reader(io.StringIO(text.strip(SEPARATORS)), delimiter=delimiter)
    for n, row in enumerate(rows, start=1):
        cells = [c.strip(SEPARATORS) for c in row]
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


def _age_divisions(event: Event) -> dict[str, Division]:
    """The event's divisions by code when its ruleset has age divisions and it has more
    than one (P-AGE-1, P-AGE-6); else empty: the birth year chooses nothing."""
    if not event.rules.features.age_divisions:
        return {}
    divisions = {d.code: d for d in event.divisions.all()}
    return divisions if len(divisions) > 1 else {}


def division_mismatch(event: Event, birth_year: int | None, division: Division) -> str:
    """(P-AGE-1): ``""`` when ``division`` is the one ``birth_year`` gives
    by the season's cut-offs (``seasons.event_season``), or there is nothing to compare
    (no birth year, no age divisions); else the question staff confirm, e.g. "Born 1993:
    Masters by the season's cut-offs. Put in Junior anyway?"."""
    if birth_year is None or not _age_divisions(event):
        return ""
    code = division_for(birth_year, event_season(event))
    if code == division.code:
        return ""
    names = dict(DivisionCode.choices)
    return gettext(
        "Born %(year)s: %(by_year)s by the season's cut-offs. Put in %(division)s anyway?"
    ) % {"year": birth_year, "by_year": names[code], "division": names[division.code]}


def division_of_birth_year(event: Event, birth_year: int | None) -> Division:
    """The division a player added without one joins: the one of their
    birth year by the season's cut-offs (P-AGE-1) in an event with age divisions, else
    the event's only (or first) division. Raises InvalidInput when the birth year is
    missing but needed, or gives a division the event does not have."""
    divisions = _age_divisions(event)
    if not divisions:
        return _default_division(event)
    if birth_year is None:
        raise InvalidInput(gettext("Give the birth year or choose the division."))
    code = division_for(birth_year, event_season(event))
    if code not in divisions:
        raise InvalidInput(
            gettext("Born %(year)s is %(title)s, not a division of this event.")
            % {"year": birth_year, "title": dict(DivisionCode.choices)[code]}
        )
    return divisions[code]


@transaction.atomic
def registration_add(
    *,
    event: Event,
    name: str,
    by: Actor,
    player_id: str = "",
    birth_year: int | None = None,
    division: Division | None = None,
    external_id: str | None = None,
    late: bool | None = None,
    override_late_entry: bool = False,
    confirm_division: bool = False,
) -> Registration:
    """Register one player. After a Swiss round of their pairing group has started the player is
    late: flagged tardy and given a loss for every started round (P-LATE-1, I-5); in a
    flighted division they join the smaller flight (P-FL-4). See ``players_register``.

    A name written "Last, First" is turned round as a pasted sheet's is
    (``tournaments.player_sheet.turn_name``); without ``division`` the birth year chooses it
    by the season's cut-offs (``division_of_birth_year``, P-AGE-1); a ``division`` the
    birth year does not give needs ``confirm_division``.

    Raises InvalidInput for an empty name, a missing birth year where it chooses the
    division, a player id already registered, or a late entry after round 2 of an event
    that awards Championship Points without ``override_late_entry`` (P-LATE-1);
    DivisionUnconfirmed (an InvalidInput) for an unconfirmed division against the birth
    year. Nothing is saved when it raises.
    """
    if name.strip():  # the text rule sees the name as typed
        name = clean_name(name, gettext("Name"))
    name = " ".join(turn_name(name.strip())[0].split())
    if not name:
        raise InvalidInput(gettext("The player needs a name."))
    if division is None:
        division = division_of_birth_year(event, birth_year)
    elif not confirm_division and (question := division_mismatch(event, birth_year, division)):
        raise DivisionUnconfirmed(question)
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
def registrations_add_csv(*, event: Event, text: str, by: Actor) -> list[Registration]:
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
def registration_drop(*, registration: Registration, by: Actor, reason: str = "") -> Registration:
    """Drop a player (P-SW-6): they finish the round they are seated in, if any, and are
    never paired again. ``dropped_after_round`` = the last round they are seated in (0 if
    none). Dropping twice is refused, and so is dropping once the event is finished.
    The public standings are rebuilt: their cut-line outlook says "dropped" at once
    (``selectors.outlook.withdrawn_view``); the player's own page follows by its topic.
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
    public_pages_changed(reg.event_id, pairings=False)  # the outlook cell says "dropped"
    return reg


@transaction.atomic
def registration_reinstate(
    *, registration: Registration, by: Actor, reason: str = ""
) -> Registration:
    """Undo a drop (a no-show dropped by mistake, a player who changed their
    mind): the player is paired again from their next round. Allowed only while that round
    is not yet paired in their division's groups (once it is, they missed it: drops are
    final from then on, P-SW-6), never for a disqualified player, a finished event, or a
    player whose single-elimination match the drop forfeited (P-SE-3: that loss stands).
    Audited with the reason; the public standings are rebuilt (the outlook's figure
    comes back). Raises InvalidInput otherwise."""
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
    public_pages_changed(reg.event_id, pairings=False)  # the outlook's figure again
    return reg


@transaction.atomic
def registration_set_division(
    *,
    registration: Registration,
    division: Division,
    by: Actor,
    reason: str = "",
    confirm: bool = False,
) -> Registration:
    """Move a player to another age division of the event, overriding the division of
    their birth year (P-AGE-1). Allowed only before round 1 is paired: the divisions fix
    the pairing groups and the age mode (P-AGE-2, P-AGE-3). Raises InvalidInput otherwise,
    and DivisionUnconfirmed (an InvalidInput) for a move against the player's birth year
    by the season's cut-offs without ``confirm``."""
    reg = (
        Registration.objects.select_for_update()
        .select_related("division", "player", "event")
        .get(pk=registration.pk)
    )
    if division.event_id != reg.event_id:
        raise InvalidInput(gettext("That division belongs to another event."))
    if Round.objects.filter(event_id=reg.event_id).exists():
        raise InvalidInput(gettext("Divisions are fixed once round 1 is paired."))
    question = division_mismatch(reg.event, reg.player.birth_year, division)
    if question and division.pk != reg.division_id and not confirm:
        raise DivisionUnconfirmed(question)
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
def match_forfeit(*, registration: Registration, by: Actor) -> Match | None:
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
    match.reported_by = acting_user(by)
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
def registration_disqualify(*, registration: Registration, by: Actor, reason: str) -> Registration:
    """Disqualify a player: never paired again, their results still count for their
    opponents, no place in the standings (docs/interfaces.md); in single elimination they lose
    the current match at once (P-SE-3). The reason is required and audited; the public
    standings are rebuilt (the outlook cell says "disqualified")."""
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
    public_pages_changed(reg.event_id, pairings=False)
    return reg
