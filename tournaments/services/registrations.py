"""Registering, importing and dropping players."""

from __future__ import annotations

import csv
import io
import random
import secrets
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from ..ages import division_for
from ..errors import InvalidInput
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
    Structure,
)
from ..pods import flight_pod
from ..seasons import event_season
from .audit import audit_log
from .rounds import round_complete_if_reported, round_discard


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
    override_late_entry: bool = False,
) -> Registration:
    """Register one player. After a Swiss round of their pod has started the player is
    late: flagged tardy and given a loss for every started round (P-LATE-1, I-5).

    Raises InvalidInput for an empty name, a player id already registered, or a late
    entry after round 2 of an event that awards Championship Points without
    ``override_late_entry`` (P-LATE-1).
    """
    name = name.strip()
    if not name:
        raise InvalidInput("The player needs a name.")
    if player_id and event.registrations.filter(player__player_id=player_id).exists():
        raise InvalidInput(f"Player id {player_id} is already registered in this event.")
    division = division or _default_division(event)
    flight, flight_draw = _flight_for_new_player(division)
    started = Round.objects.filter(
        event=event,
        pod=flight_pod(division.pod, flight) if flight else division.pod,
        phase=Phase.SWISS,
        status__in=[RoundStatus.STARTED, RoundStatus.COMPLETE],
    ).order_by("number")
    if late is None:
        _check_late_entry(event, len(started), override_late_entry)
    if event.structure == Structure.SINGLE_ELIMINATION:
        _se_late_entry(event, division.pod, by)
    player = Player.objects.create(name=name, player_id=player_id, birth_year=birth_year)
    reg = Registration.objects.create(
        event=event,
        player=player,
        division=division,
        external_id=external_id or _next_external_id(event),
        late=bool(started) if late is None else late,
        flight=flight,
    )
    if late is None:
        _late_entry_losses(reg, list(started))
    audit_log(
        event=event,
        by=by,
        action="registration.add",
        obj=reg,
        new={"name": name, "player_id": player_id, "late": reg.late, "flight": flight}
        | flight_draw,
    )
    return reg


#: P-LATE-1: in a Championship Points event, entering after this many rounds needs an override.
CP_LATE_ROUNDS = 2


def late_losses(event: Event, division: Division | None = None) -> int:
    """How many automatic losses a player added now would receive (P-LATE-1): the Swiss
    rounds of their pod already started (the event's first division by default)."""
    division = division or event.divisions.order_by("code").first()
    if division is None:
        return 0
    pods = Q(pod=division.pod) | Q(pod__startswith=flight_pod(division.pod, 0)[:-1])
    started = Round.objects.filter(
        pods,
        event=event,
        phase=Phase.SWISS,
        status__in=[RoundStatus.STARTED, RoundStatus.COMPLETE],
    )
    return started.values("number").distinct().count()  # flights play the same rounds


def _late_entry_losses(reg: Registration, started: list[Round]) -> None:
    """P-LATE-1, I-5: a loss for every round of the player's pod already started."""
    for rnd in started:
        match = Match.objects.create(round=rnd, outcome=Outcome.LOSS, why="late entry")
        MatchSeat.objects.create(match=match, round=rnd, registration=reg, seat=1)


def _flight_for_new_player(division: Division) -> tuple[int | None, dict[str, Any]]:
    """P-FL-4, P-LATE-2: a player added to a flighted division joins the flight that
    started smaller (starting size plus players added since, never minus drops), a random
    one of the smallest. The draw is ``random.Random(seed).choice`` over the smallest, as
    ``pairings.engine.flights.late_flight(sizes, rng=random.Random(seed))`` (I-1): the
    seed and the sizes go in the audit row (``flight_seed``, ``flight_sizes``) so the
    choice can be replayed. ``(None, {})`` when the division has no flights."""
    if not division.flights:
        return None, {}
    counts = Counter(division.registrations.values_list("flight", flat=True))
    sizes = [counts.get(n, 0) for n in range(1, division.flights + 1)]
    smallest = [n for n, size in enumerate(sizes, start=1) if size == min(sizes)]
    seed = secrets.randbits(48)
    return random.Random(seed).choice(smallest), {"flight_seed": seed, "flight_sizes": sizes}


def _check_late_entry(event: Event, started: int, override: bool) -> None:
    if event.awards_championship_points and started > CP_LATE_ROUNDS and not override:
        raise InvalidInput(
            f"This event awards Championship Points and {started} rounds have started: "
            "adding a player after round 2 needs the explicit override."
        )


def _se_late_entry(event: Event, pod: str, by: Any) -> None:
    """P-SE-4: nobody joins a bracket once round 1 has started; before that, a new
    player breaks round 1, which is discarded to be paired again with them."""
    first = Round.objects.filter(event=event, pod=pod, number=1).first()
    if first is None:
        return
    if first.status in (RoundStatus.STARTED, RoundStatus.COMPLETE):
        raise InvalidInput("Single elimination: players cannot join once round 1 has started.")
    round_discard(round=first, by=by, reason="late player added: pair round 1 again")


def division_by_birth_year(event: Event, birth_year: int | None, line: int) -> Division:
    """The event's division for a birth year (P-AGE-1, the event's season, ``event_season``).

    An event with one division takes everyone (P-AGE-6). Raises InvalidInput naming the
    line when the year is missing or its division is not part of the event.
    """
    divisions = {d.code: d for d in event.divisions.all()}
    if len(divisions) == 1:
        return next(iter(divisions.values()))
    if birth_year is None:
        raise InvalidInput(f"Line {line}: a birth year is needed to choose the age division.")
    code = division_for(birth_year, event_season(event))
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
def registration_set_division(
    *, registration: Registration, division: Division, by: Any, reason: str = ""
) -> Registration:
    """Move a player to another age division of the event, overriding the division of
    their birth year (P-AGE-1). Allowed only before round 1 is paired: the divisions fix
    the pods and the age mode (P-AGE-2, P-AGE-3). Raises InvalidInput otherwise."""
    reg = (
        Registration.objects.select_for_update().select_related("division").get(pk=registration.pk)
    )
    if division.event_id != reg.event_id:
        raise InvalidInput("That division belongs to another event.")
    if Round.objects.filter(event_id=reg.event_id).exists():
        raise InvalidInput("Divisions are fixed once round 1 is paired.")
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
        raise InvalidInput("Give the reason for the disqualification.")
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.disqualified:
        raise InvalidInput(f"{reg.player.name} is already disqualified.")
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
