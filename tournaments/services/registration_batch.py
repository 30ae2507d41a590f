"""Registering a batch of players in a fixed number of queries, whatever its size.

``registration_add`` (one player) and ``registrations_add_csv`` (a pasted list) both come
here, so a player added by hand and one pasted among 5,000 are saved alike: every check
first, then one bulk insert per table.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext

from pairings.engine.flights import late_flight

from .. import live
from ..actors import Actor, acting_user
from ..errors import InvalidInput
from ..groups import flight_group, swiss_group
from ..models import (
    AuditEvent,
    Division,
    Event,
    Match,
    MatchSeat,
    Outcome,
    PairingGroup,
    Phase,
    Player,
    Registration,
    Round,
    RoundStatus,
    match_kind,
)
from ..procedures import standalone_bracket
from ..text import clean_name
from .audit import actor_fields
from .rounds import round_discard

#: A Swiss round in these states makes a new player of its pairing group late (P-LATE-1); a bracket
#: whose round 1 is in them is closed to new players (P-SE-4).
UNDER_WAY = (RoundStatus.STARTED, RoundStatus.COMPLETE)

#: P-LATE-1: in a Championship Points event, entering after this many rounds needs an override.
CP_LATE_ROUNDS = 2


@dataclass(frozen=True)
class NewPlayer:
    """One player to register. ``line``: their pasted line, None when added one at a time;
    ``external_id``: None for a generated ``p<n>``."""

    name: str
    player_id: str
    birth_year: int | None
    division: Division
    line: int | None = None
    external_id: str | None = None


def players_register(
    *, event: Event, entries: list[NewPlayer], by: Actor, late: bool | None, override: bool
) -> list[Registration]:
    """Register ``entries`` in order, inside the caller's transaction: every check first
    (a player id already registered, P-LATE-1, P-SE-4), then one bulk insert each for the
    players, the registrations, the late-entry losses and the audit rows (one
    ``registration.add`` row per player). Each player joins a flight as P-FL-4 says.

    ``late`` None: late when a Swiss round of their pairing group has started, with a loss for each
    (P-LATE-1, I-5), refused after round 2 of a Championship Points event unless
    ``override``; True/False: as given, no losses. Returns the registrations in the
    order of ``entries``. Raises InvalidInput, naming the pasted line where there is one.

    A player added once check-in is closed is present (``checked_in_at``: they are at
    the desk), so the check-in counts and the age plan include them.

    Names go through the one text rule for names (``tournaments.text.clean_name``, issue
    21 item 3) and are saved normalised; a refused name raises ``TextRefused`` (an
    InvalidInput) naming the line ("Line 3, name: …") or the field ("Name: …").
    """
    entries = [replace(e, name=clean_name(e.name, _name_field(e))) for e in entries]
    # The event row serialises registrations: generated ids and flight sizes are counted
    # from what is already saved.
    locked = Event.objects.select_for_update().only("pk", "checkin_closed_at").get(pk=event.pk)
    _refuse_registered(event, entries)
    draws = _flight_draws([e.division for e in entries])
    started = _started_rounds(event)
    groups = _entry_groups(
        [(e.division, flight) for e, (flight, _) in zip(entries, draws, strict=True)]
    )
    behind = [started.get(group.pk, []) for group in groups]
    if late is None:
        for rounds in behind:
            _check_late_entry(event, len(rounds), override)
    if standalone_bracket(event):
        _se_late_entry(event, {g.pk for g in groups}, by)
    regs = _insert(event, entries, [flight for flight, _ in draws], behind, late)
    if locked.checkin_closed_at is not None:
        _present(regs, by)
    if late is None:
        _late_entry_losses(regs, behind)
    _audit_added(event, regs, [draw for _, draw in draws], by)
    return regs


def _name_field(entry: NewPlayer) -> str:
    """How a message names the player's name: its pasted line, else the form's field."""
    if entry.line:
        return gettext("Line %(line)s, name") % {"line": entry.line}
    return gettext("Name")


def _insert(
    event: Event,
    entries: list[NewPlayer],
    flights: list[int | None],
    behind: list[list[Round]],
    late: bool | None,
) -> list[Registration]:
    """The players and their registrations, one insert each (ids come back from
    PostgreSQL and SQLite alike)."""
    ids = iter(_new_external_ids(event, sum(not e.external_id for e in entries)))
    players = Player.objects.bulk_create(
        Player(name=e.name, player_id=e.player_id, birth_year=e.birth_year) for e in entries
    )
    return Registration.objects.bulk_create(
        Registration(
            event=event,
            player=player,
            division=e.division,
            external_id=e.external_id or next(ids),
            late=bool(rounds) if late is None else late,
            flight=flight,
        )
        for e, player, flight, rounds in zip(entries, players, flights, behind, strict=True)
    )


def _present(regs: list[Registration], by: Actor) -> None:
    """Mark ``regs`` checked in now, by ``by`` (a user, or None for the system)."""
    now, user = timezone.now(), acting_user(by)
    Registration.objects.filter(pk__in=[r.pk for r in regs]).update(
        checked_in_at=now, checked_in_by=user
    )
    for r in regs:
        r.checked_in_at, r.checked_in_by = now, user


def _refuse_registered(event: Event, entries: list[NewPlayer]) -> None:
    """InvalidInput for the first player id already registered in the event."""
    ids = {e.player_id for e in entries if e.player_id}
    if not ids:
        return
    found = Registration.objects.filter(event=event, player__player_id__in=ids).order_by()
    registered = set(found.values_list("player__player_id", flat=True))
    for e in entries:
        if e.player_id in registered:
            where = f"Line {e.line}: " if e.line else ""
            raise InvalidInput(
                gettext("%(where)sPlayer id %(player_id)s is already registered in this event.")
                % {"where": where, "player_id": e.player_id}
            )


def _new_external_ids(event: Event, count: int) -> list[str]:
    """``count`` generated ids, the ones adding the players one by one would give: each
    the first free ``p<n>`` above the event's registration count (which grows by one per
    player). Two queries, unless imported ``p<n>`` ids fill the window looked up."""
    if not count:
        return []
    total = Registration.objects.filter(event=event).count()
    ids: list[str] = []
    taken: set[str] = set()
    n = checked = total
    while len(ids) < count:
        n += 1
        if n > checked:
            window = [f"p{m}" for m in range(n, n + 2 * count)]
            found = Registration.objects.filter(event=event, external_id__in=window).order_by()
            taken |= set(found.values_list("external_id", flat=True))
            checked = n + 2 * count - 1
        if f"p{n}" not in taken:
            ids.append(f"p{n}")
    return ids


def _entry_groups(entries: list[tuple[Division, int | None]]) -> list[PairingGroup]:
    """The pairing group each new player is paired in: their flight's (P-FL-4), else
    their division's Swiss group; one query per division and flight."""
    found: dict[tuple[int, int | None], PairingGroup] = {}
    for division, flight in entries:
        if (division.pk, flight) not in found:
            group = flight_group(division, flight) if flight else swiss_group(division)
            found[division.pk, flight] = group
    return [found[d.pk, flight] for d, flight in entries]


def _started_rounds(event: Event) -> dict[int, list[Round]]:
    """The event's Swiss rounds already started, by pairing group (its pk), in round
    order (P-LATE-1)."""
    by_group: dict[int, list[Round]] = {}
    rounds = Round.objects.filter(event=event, phase=Phase.SWISS, status__in=UNDER_WAY)
    for rnd in rounds.order_by("number"):
        by_group.setdefault(rnd.group_id, []).append(rnd)
    return by_group


def _check_late_entry(event: Event, started: int, override: bool) -> None:
    if event.awards_championship_points and started > CP_LATE_ROUNDS and not override:
        raise InvalidInput(
            gettext(
                "This event awards Championship Points and %(started)s rounds have started: adding a player after round 2 needs the explicit override."
            )
            % {"started": started}
        )


def _se_late_entry(event: Event, groups: set[int], by: Actor) -> None:
    """P-SE-4: nobody joins a bracket once round 1 has started; before that, new players
    break round 1, which is discarded to be paired again with them. ``groups``: the pks
    of the brackets they join."""
    firsts = list(
        Round.objects.filter(event=event, group__in=groups, number=1).order_by("group__key")
    )
    if any(first.status in UNDER_WAY for first in firsts):
        raise InvalidInput(
            gettext("Single elimination: players cannot join once round 1 has started.")
        )
    for first in firsts:
        round_discard(round=first, by=by, reason="late player added: pair round 1 again")


def _late_entry_losses(regs: list[Registration], started: list[list[Round]]) -> None:
    """P-LATE-1, I-5: a loss for every round of the player's pairing group already started, each a
    one-seat match (two inserts for the whole batch)."""
    losses = [(reg, rnd) for reg, rounds in zip(regs, started, strict=True) for rnd in rounds]
    if not losses:
        return
    matches = Match.objects.bulk_create(
        Match(
            round=rnd,
            kind=match_kind(rnd.phase, Outcome.LOSS),
            outcome=Outcome.LOSS,
            why="late entry",
        )
        for _, rnd in losses
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, round=rnd, registration=reg, seat=1)
        for match, (reg, rnd) in zip(matches, losses, strict=True)
    )


def _flight_draws(divisions: list[Division]) -> list[tuple[int | None, dict[str, Any]]]:
    """P-FL-4, P-LATE-2: each player added to a flighted division joins the flight that
    started smaller (starting size plus players added since, earlier ones of the batch
    included, never minus drops), a random one of the smallest (``_flight_draw``).
    ``(None, {})`` for a division without flights. One query, none without flights."""
    flighted = {d.pk for d in divisions if d.flights}
    sizes: Counter[tuple[int, int | None]] = Counter()
    if flighted:
        rows = (
            Registration.objects.filter(division__in=flighted)
            .order_by()
            .values_list("division", "flight")
            .annotate(n=Count("pk"))
        )
        sizes.update({(division, flight): n for division, flight, n in rows})
    draws: list[tuple[int | None, dict[str, Any]]] = []
    for d in divisions:
        if not d.flights:
            draws.append((None, {}))
            continue
        flight, draw = _flight_draw([sizes[d.pk, n] for n in range(1, d.flights + 1)])
        sizes[d.pk, flight] += 1
        draws.append((flight, draw))
    return draws


def _flight_draw(sizes: list[int]) -> tuple[int, dict[str, Any]]:
    """The flight (1 first) a late player joins: the engine's ``late_flight`` (P-FL-4,
    P-LATE-2) from a fresh stored seed (I-1). The seed and the sizes go in the audit row
    (``flight_seed``, ``flight_sizes``) so the choice can be replayed."""
    seed = secrets.randbits(48)
    flight = late_flight(sizes, rng=random.Random(seed)) + 1
    return flight, {"flight_seed": seed, "flight_sizes": sizes}


def _audit_added(
    event: Event, regs: list[Registration], draws: list[dict[str, Any]], by: Actor
) -> None:
    """One ``registration.add`` row per player, as ``audit_log`` writes it, in one insert
    (and one notice for the live staff pages)."""
    live.changed(event.pk)
    actor = actor_fields(by)
    AuditEvent.objects.bulk_create(
        AuditEvent(
            event=event,
            action="registration.add",
            object_type="registration",
            object_id=str(reg.pk),
            new={
                "name": reg.player.name,
                "player_id": reg.player.player_id,
                "late": reg.late,
                "flight": reg.flight,
            }
            | draw,
            **actor,
        )
        for reg, draw in zip(regs, draws, strict=True)
    )
