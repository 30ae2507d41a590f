"""Featured matches as the public event page lists them, and the event's fixed seats as
the staff players page lists them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..groups import group_label
from ..models import Event, MatchSeat, Registration, Round
from .names import seat_name, seat_twin


@dataclass(frozen=True)
class FeaturedMatch:
    """One featured match: its feature table's name, its table in the hall, its round
    (and the round's pairing group when several play) and its players in seat order."""

    feature_table: str
    table: int | None
    round_number: int
    group_label: str
    players: tuple[str, ...]


def featured_for_public(event: Event, rounds: Sequence[Round]) -> list[FeaturedMatch]:
    """The featured matches of ``rounds`` (the current published ones,
    ``current_public_rounds``: groups and divisions prefetched), by round then feature
    table name; players told apart as on the pairings (``names``). One query."""
    if not rounds:
        return []
    by_round = {r.pk: r for r in rounds}
    seats = (
        MatchSeat.objects.filter(round__in=rounds)
        .exclude(match__feature_table="")
        .select_related("match", "registration__player")
        .annotate(**seat_twin(event.pk))
        .order_by("match_id", "seat")
    )
    players: dict[int, list[str]] = {}
    matches = {}
    for s in seats:
        players.setdefault(s.match_id, []).append(seat_name(s))
        matches[s.match_id] = s.match
    found = [
        FeaturedMatch(
            m.feature_table,
            m.table,
            by_round[m.round_id].number,
            group_label(by_round[m.round_id].group),
            tuple(players[pk]),
        )
        for pk, m in matches.items()
    ]
    return sorted(found, key=lambda f: (f.group_label, f.round_number, f.feature_table.casefold()))


@dataclass(frozen=True)
class FixedSeatLine:
    """One fixed seat (``services.seating``) as staff see it: the table, the player (id
    and name), the private reason ("" when none was given) and whether the table is
    reserved now (``reserved``: the player is still paired; False once they dropped or
    were disqualified, when pairing uses the table again but the seat must be removed
    before the table is given to someone else)."""

    table: int
    registration_id: int
    name: str
    reason: str
    reserved: bool


def fixed_seats_for_staff(registrations: Iterable[Registration]) -> list[FixedSeatLine]:
    """The fixed seats among ``registrations`` (the players page's list,
    ``registrations_for_staff``: player loaded), by table. No query. Staff only: the
    reason is private."""
    return sorted(
        (
            FixedSeatLine(
                r.fixed_table,
                r.pk,
                r.player.name,
                r.fixed_table_reason,
                not (r.dropped or r.disqualified),
            )
            for r in registrations
            if r.fixed_table is not None
        ),
        key=lambda line: line.table,
    )
