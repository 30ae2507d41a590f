"""Public selectors: only ever published rounds (P-POST-1) — the current round of each
pairing group, its pairings by table and by name, a player search and the top-cut brackets."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..models import Event, MatchSeat, Registration, Round
from ..search import name_matches, query_words
from .rounds import (
    ELIMINATION_PHASES,
    PUBLIC_STATUSES,
    RoundView,
    TableMarks,
    _round_views,
    match_heading,
)


def current_public_rounds(event: Event) -> list[Round]:
    """The latest published round of every pairing group (never a merely paired one),
    groups and their divisions prefetched; once a division's top cut is posted, its Swiss
    group's last round is no longer current. 3 queries."""
    latest: dict[int, Round] = {}
    rounds = Round.objects.filter(event=event, status__in=PUBLIC_STATUSES).select_related("group")
    for r in rounds.prefetch_related("group__divisions").order_by("number"):
        latest[r.group_id] = r
    cut = {d.pk for r in latest.values() if r.group.is_cut for d in r.group.divisions.all()}
    current = [
        r
        for r in latest.values()
        if r.group.is_cut or not cut & {d.pk for d in r.group.divisions.all()}
    ]
    return sorted(current, key=lambda r: (r.group.is_cut, r.group.key))


def pairings_for_public(event: Event, rounds: Sequence[Round]) -> list[RoundView]:
    """The public pairings of ``rounds`` (from ``current_public_rounds``), with records
    before the round. 3 queries."""
    return _round_views(event, rounds)


@dataclass(frozen=True)
class NameEntry(TableMarks):
    """One line of the "by name" list: where a player sits this round, with the table's
    marks (a fixed seat, a featured match: ``TableMarks``) as the list by table shows
    them."""

    name: str
    table: int | None
    opponent: str
    round_label: str
    note: str
    seat: int = 0  # pods: the seat (turn order) at the table, MP-SEAT-1
    seating: str = ""  # Match.seating of the table
    feature_table: str = ""  # the feature table's name, "" when not featured


def _name_entries(rounds: Iterable[RoundView]) -> Iterator[tuple[int, NameEntry]]:
    """``(registration id, entry)`` for every seat of ``rounds``, in table order."""
    for r in rounds:
        for m in r.matches:
            label = f"{r.group_label} · {match_heading(r, m)}"  # a top cut's "Semi-finals"
            for n, s in enumerate(m.seats, start=1):
                others = ", ".join(o.name for o in m.seats if o is not s)
                note = _("Bye") if m.is_bye else (_("Late-entry loss") if m.is_late_loss else "")
                seat = n if m.is_pod else 0
                yield (
                    s.registration_id,
                    NameEntry(
                        s.name, m.table, others, label, note, seat, m.seating, m.feature_table
                    ),
                )


def names_for_public(rounds: Iterable[RoundView]) -> list[NameEntry]:
    """Every seated player of ``rounds`` in alphabetical order (no query)."""
    entries = [e for _, e in _name_entries(rounds)]
    entries.sort(key=lambda e: (e.name.casefold(), e.round_label))
    return entries


def tables_by_registration(rounds: Iterable[RoundView]) -> dict[int, list[NameEntry]]:
    """Where each seated player of ``rounds`` sits, by registration id (no query): what
    a player's own "my table" answer shows."""
    tables: dict[int, list[NameEntry]] = defaultdict(list)
    for reg_id, entry in _name_entries(rounds):
        tables[reg_id].append(entry)
    return dict(tables)


def pairings_search_for_public(
    event: Event, rounds: Sequence[Round], query: str, limit: int = 20
) -> list[NameEntry]:
    """Players of ``rounds`` (the current published ones) whose name contains ``query``
    (every word, any order, case and accents ignored: ``tournaments.search``), with their
    table and opponent. At most 3 queries (the names of the rounds' seats are read and
    matched in Python: accents cannot be ignored portably in SQL)."""
    words = query_words(query)
    if not words or not rounds:
        return []
    seats = MatchSeat.objects.filter(round__in=rounds).values_list(
        "match_id", "registration__player__name"
    )
    match_ids = [m for m, name in seats if name_matches(name, words)][:limit]
    views = _round_views(event, rounds, records=False, match_ids=match_ids)
    return [e for e in names_for_public(views) if name_matches(e.name, words)]


def seats_for_public(event: Event, rounds: Sequence[Round]) -> list[RoundView]:
    """The tables of ``rounds`` without the records before the round: what "Find my
    table" and a player's own table show. 2 queries."""
    return _round_views(event, rounds, records=False)


def table_for_player(registration: Registration) -> list[NameEntry]:
    """Where ``registration`` sits in the current published rounds (empty: not seated),
    without loading the other tables. 5 queries, whatever the event size; one more in a
    top cut (the stage's size)."""
    rounds = current_public_rounds(registration.event)
    match_ids = list(
        MatchSeat.objects.filter(round__in=rounds, registration=registration).values_list(
            "match_id", flat=True
        )
    )
    views = _round_views(registration.event, rounds, records=False, match_ids=match_ids)
    return tables_by_registration(views).get(registration.pk, [])


def bracket_for_public(event: Event) -> list[tuple[str, list[RoundView]]]:
    """The published top-cut / single-elimination rounds, grouped by bracket:
    ``[(label, [round, ...]), ...]``. 3 queries."""
    rounds = list(
        Round.objects.filter(
            event=event, status__in=PUBLIC_STATUSES, phase__in=ELIMINATION_PHASES
        ).order_by("group__key", "number")
    )
    brackets: dict[str, list[RoundView]] = defaultdict(list)
    for view in _round_views(event, rounds, records=False):
        brackets[view.group_label].append(view)
    return list(brackets.items())
