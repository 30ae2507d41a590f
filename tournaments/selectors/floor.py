"""The judges' floor: the calls a board shows, the end-of-round board, the
players with a repeated infraction, and a player's own call.

``floor_for_staff`` reads a whole board in a fixed number of queries, whatever the
number of calls or tables; ``call_for_player`` adds one query to a player's page.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rulesets.penalties import infraction_named, repeated_infractions

from ..clock import clock_text
from ..models import Event, JudgeCall, JudgeCallStatus, MatchSeat, PenaltyNote
from .names import shown_names
from .timer import RoundClock, timer_for_public

RESOLVED_SHOWN = 10  # the latest resolved calls a board lists


@dataclass(frozen=True)
class Repeated:
    """A player with one infraction noted ``count`` (2 or more) times at the event
    (``rulesets.penalties.repeated_infractions``). ``name``: the player as shown;
    ``infraction``: the name as noted (translated where shown, ``|translated``)."""

    registration_id: int
    name: str
    infraction: str
    count: int


@dataclass(frozen=True)
class CallView:
    """One judge call as a board shows it: the call, the names of the table's players
    (caller first), whether the viewer claimed it, and the repeated infractions of the
    table's players."""

    call: JudgeCall
    caller: str
    players: tuple[str, ...]
    mine: bool
    repeated: tuple[Repeated, ...]
    waited: int = 0  # seconds since the call, at the board's "now"

    @property
    def waited_text(self) -> str:
        """``"4:12"``: how long the call has waited (the page's script counts on)."""
        return clock_text(self.waited)

    @property
    def created_ms(self) -> int:
        """When the call was made, milliseconds since the epoch (the waiting clock)."""
        return int(self.call.created_at.timestamp() * 1000)

    @property
    def escalated(self) -> bool:
        return self.call.escalated_at is not None


@dataclass(frozen=True)
class FloorBoard:
    """The floor board: ``calls`` not resolved (for the head judge first, then waiting
    longest first, then claimed), the latest ``resolved``, every started round's clock
    with its tables (``clocks``: the end-of-round board) and ``repeated`` infractions."""

    calls: tuple[CallView, ...]
    resolved: tuple[CallView, ...]
    clocks: list[RoundClock]
    repeated: tuple[Repeated, ...]

    @property
    def waiting(self) -> int:
        """Calls nobody has claimed yet."""
        return sum(1 for c in self.calls if c.call.status == JudgeCallStatus.OPEN)


def _repeated_notes(event: Event) -> dict[int, dict[str, int]]:
    """``rulesets.penalties.repeated_infractions`` over the event's penalty notes. 1 query."""
    notes = PenaltyNote.objects.filter(event=event).order_by("at", "id")
    return repeated_infractions(notes.values_list("registration_id", "infraction"))


def repeated_for_event(
    event: Event,
    names: dict[int, str] | None = None,
    found: dict[int, dict[str, int]] | None = None,
) -> list[Repeated]:
    """Every player of ``event`` with a repeated infraction, by name then infraction. The
    penalty notes' infractions compare by spelling (``rulesets.penalties``), shown as the
    ruleset names them when it does. 2 queries (none for what is given: ``names``, the
    shown names; ``found``, the repeated notes)."""
    if found is None:
        found = _repeated_notes(event)
    if names is None:
        names = shown_names(event.pk, found)
    listed = event.rules.infractions
    out = [
        Repeated(reg, names.get(reg, ""), _named(listed, infraction), count)
        for reg, counts in found.items()
        for infraction, count in counts.items()
    ]
    return sorted(out, key=lambda r: (r.name.casefold(), r.infraction))


def _named(listed: Any, infraction: str) -> str:
    known = infraction_named(listed, infraction)
    return known.name if known else infraction


def _order(view: CallView) -> tuple[Any, ...]:
    call = view.call
    rank = 0 if view.escalated and call.status == JudgeCallStatus.OPEN else 1
    rank += 1 if call.status == JudgeCallStatus.CLAIMED else 0
    return (rank, call.created_at, call.pk)


def floor_for_staff(event: Event, now: dt.datetime, user: Any) -> FloorBoard:
    """The floor board of ``event`` for ``user`` at the server's ``now``. 8 queries."""
    related = ("claimed_by", "resolved_by", "escalated_by")
    calls = list(
        JudgeCall.objects.filter(event=event)
        .exclude(status=JudgeCallStatus.RESOLVED)
        .select_related(*related)
    )
    done = list(
        JudgeCall.objects.filter(event=event, status=JudgeCallStatus.RESOLVED)
        .select_related(*related)
        .order_by("-resolved_at", "-id")[:RESOLVED_SHOWN]
    )
    seats = _seats(c.match_id for c in [*calls, *done] if c.match_id)
    found = _repeated_notes(event)
    wanted = {*found, *(c.registration_id for c in [*calls, *done])}
    names = shown_names(event.pk, wanted | {r for regs in seats.values() for r in regs})
    repeated = repeated_for_event(event, names, found)
    by_player: dict[int, list[Repeated]] = defaultdict(list)
    for r in repeated:
        by_player[r.registration_id].append(r)

    def view(call: JudgeCall) -> CallView:
        at_table = seats.get(call.match_id or 0, [call.registration_id])
        ordered = [call.registration_id, *(r for r in at_table if r != call.registration_id)]
        return CallView(
            call=call,
            caller=names.get(call.registration_id, ""),
            players=tuple(names.get(r, "") for r in ordered),
            mine=call.claimed_by_id is not None and call.claimed_by_id == user.pk,
            repeated=tuple(x for r in ordered for x in by_player.get(r, ())),
            waited=max(0, int((now - call.created_at).total_seconds())),
        )

    return FloorBoard(
        calls=tuple(sorted((view(c) for c in calls), key=_order)),
        resolved=tuple(view(c) for c in done),
        clocks=timer_for_public(event, now),
        repeated=tuple(repeated),
    )


def _seats(match_ids: Iterable[int]) -> dict[int, list[int]]:
    """``{match id: [registration ids in seat order]}``. 1 query."""
    out: dict[int, list[int]] = defaultdict(list)
    rows = MatchSeat.objects.filter(match_id__in=set(match_ids)).order_by("match_id", "seat")
    for match_id, reg in rows.values_list("match_id", "registration_id"):
        out[match_id].append(reg)
    return out


def call_for_player(match_id: int | None) -> JudgeCall | None:
    """The latest judge call of the player's table in this round (theirs or an
    opponent's), any status, with who claimed and resolved it; None before any. 1 query
    (none without a table)."""
    if not match_id:
        return None
    return (
        JudgeCall.objects.filter(match_id=match_id)
        .select_related("claimed_by", "resolved_by")
        .order_by("-created_at", "-id")
        .first()
    )


def repeated_for_player(event: Event, registration_id: int) -> dict[str, int]:
    """``{infraction: count}`` of the infractions noted two or more times for one player
    (the player's staff page). 1 query."""
    notes = PenaltyNote.objects.filter(event=event, registration_id=registration_id)
    rows = notes.order_by("at", "id").values_list("registration_id", "infraction")
    found = repeated_infractions(rows)
    listed = event.rules.infractions
    return {_named(listed, k): v for k, v in found.get(registration_id, {}).items()}
