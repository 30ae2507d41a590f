"""Read-only queries for the pages (STYLE.md §2: ``<thing>_for_<audience>``).

Each selector returns plain frozen dataclasses holding what one screen needs, in a fixed
number of queries whatever the size of the event. Public selectors only ever look at
published rounds: a round in status "paired" is invisible to players (P-POST-1).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Count, F, Prefetch, Q

from .models import (
    Division,
    DivisionCode,
    Event,
    EventStaff,
    Match,
    MatchSeat,
    Outcome,
    Phase,
    Registration,
    Round,
    RoundStatus,
)
from .rulesets import get_ruleset

PUBLIC_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.STARTED, RoundStatus.COMPLETE)
LIVE_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.STARTED)
ELIMINATION_PHASES = (Phase.TOP_CUT, Phase.SINGLE_ELIMINATION)
CUT_SUFFIX = "-top-cut"

# P-RT-1: (most players in the division, Swiss rounds, top cut); 410+ → 10 rounds, top 8.
P_RT_1 = (
    (8, 3, 0),
    (12, 4, 4),
    (20, 5, 4),
    (32, 5, 8),
    (64, 6, 8),
    (128, 7, 8),
    (226, 8, 8),
    (409, 9, 8),
)


def recommended_structure(players: int) -> tuple[int, int]:
    """Recommended ``(Swiss rounds, top cut size)`` for a division of ``players`` (P-RT-1).

    8 → 3, no cut · 9–12 → 4, top 4 · 13–20 → 5, top 4 · 21–32 → 5, top 8 · 33–64 → 6,
    top 8 · 65–128 → 7 · 129–226 → 8 · 227–409 → 9 · 410+ → 10, all top 8. The table
    starts at 8 players; for fewer we recommend 3 rounds and no cut as for 8 (our
    decision: a smaller event still plays a short Swiss, and a cut of half the field or
    more is not a cut). Age-modified events use the largest division (P-AGE-4).
    """
    for most, rounds, cut in P_RT_1:
        if players <= most:
            return rounds, cut
    return 10, 8


def pod_label(pod: str) -> str:
    """``junior+senior`` → "Junior + Senior"; ``masters-top-cut`` → "Masters top cut"."""
    if pod.endswith(CUT_SUFFIX):
        return f"{pod_label(pod.removesuffix(CUT_SUFFIX))} top cut"
    names = dict(DivisionCode.choices)
    return " + ".join(names.get(part, part.title()) for part in pod.split("+"))


def percent(value: float | str | None) -> str:
    """A 0–1 fraction as a percentage with two decimals, half up (P-TB-8): 0.6125 → 61.25 %."""
    if value is None:
        return ""
    quantum = (Decimal(str(value)) * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{quantum}%"


# --- rounds and matches ---------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    """A player at a table: record and match points *before* this round."""

    registration_id: int
    name: str
    record: str
    points: int
    dropped: bool


@dataclass(frozen=True)
class MatchView:
    """One table of a round as the pages show it."""

    id: int
    table: int | None
    seats: tuple[SeatView, ...]
    outcome: str
    winner_id: int | None
    version: int
    why: str
    pair_down: bool
    rematch: bool

    @property
    def is_bye(self) -> bool:
        return self.outcome == Outcome.BYE

    @property
    def is_late_loss(self) -> bool:
        return self.outcome == Outcome.LOSS

    @property
    def is_slip(self) -> bool:
        """A head-to-head match that takes a match slip."""
        return len(self.seats) == 2

    @property
    def reported(self) -> bool:
        return self.outcome != Outcome.PENDING

    @property
    def p1(self) -> SeatView:
        return self.seats[0]

    @property
    def p2(self) -> SeatView | None:
        return self.seats[1] if len(self.seats) > 1 else None

    @property
    def result_key(self) -> str:
        """The slip button matching the stored result: p1, p2, draw, double-loss or ''."""
        if self.outcome == Outcome.WIN:
            return "p1" if self.winner_id == self.p1.registration_id else "p2"
        return self.outcome if self.outcome in (Outcome.DRAW, Outcome.DOUBLE_LOSS) else ""

    @property
    def result_text(self) -> str:
        if self.outcome == Outcome.WIN:
            winner = next(s.name for s in self.seats if s.registration_id == self.winner_id)
            return f"{winner} wins"
        return {Outcome.DRAW: "Tie", Outcome.PENDING: "Not reported"}.get(
            self.outcome, Outcome(self.outcome).label
        )


@dataclass(frozen=True)
class RoundView:
    """A round with its tables in table order (byes, then late-entry losses, last)."""

    id: int
    pod: str
    pod_label: str
    number: int
    phase: str
    phase_label: str
    status: str
    status_label: str
    matches: tuple[MatchView, ...]

    @property
    def results_missing(self) -> int:
        return sum(1 for m in self.matches if m.outcome == Outcome.PENDING)

    @property
    def is_elimination(self) -> bool:
        return self.phase in ELIMINATION_PHASES

    @property
    def tables(self) -> tuple[MatchView, ...]:
        return tuple(m for m in self.matches if not m.is_late_loss)

    @property
    def stage_label(self) -> str:
        """Elimination rounds by size: "Final", "Semi-finals", "Quarter-finals", "Top 16"."""
        n = sum(1 for m in self.matches if m.is_slip)
        return {1: "Final", 2: "Semi-finals", 4: "Quarter-finals"}.get(n, f"Top {2 * n}")


def _records(
    event: Event, before: dict[str, int], registrations: Iterable[int] | None = None
) -> dict[int, tuple[int, int, int]]:
    """``{registration id: (wins, losses, ties)}`` over each pod's rounds numbered below
    ``before[pod]`` (byes count as wins; double and late-entry losses as losses), for
    every player or only ``registrations``. One query."""
    if not before:
        return {}
    where = Q()
    for pod, number in before.items():
        where |= Q(round__pod=pod, round__number__lt=number)
    if registrations is not None:
        where &= Q(registration_id__in=list(registrations))
    rows = MatchSeat.objects.filter(where, round__event=event).values_list(
        "registration_id", "match__outcome", "match__winner_id"
    )
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for reg_id, outcome, winner_id in rows:
        if outcome == Outcome.BYE or (outcome == Outcome.WIN and winner_id == reg_id):
            counts[reg_id][0] += 1
        elif outcome in (Outcome.WIN, Outcome.LOSS, Outcome.DOUBLE_LOSS):
            counts[reg_id][1] += 1
        elif outcome == Outcome.DRAW:
            counts[reg_id][2] += 1
    return {k: (w, lo, t) for k, (w, lo, t) in counts.items()}


def _seat_prefetch() -> Prefetch:
    return Prefetch(
        "seats", queryset=MatchSeat.objects.select_related("registration__player").order_by("seat")
    )


Records = dict[int, tuple[int, int, int]]


def _match_view(m: Match, history: Records, points: Callable[[int, int], int]) -> MatchView:
    """A MatchView of a match whose seats (with registration and player) are prefetched."""

    def seat(s: MatchSeat) -> SeatView:
        w, lo, t = history.get(s.registration_id, (0, 0, 0))
        reg = s.registration
        return SeatView(reg.pk, reg.player.name, f"{w}-{lo}-{t}", points(w, t), reg.dropped)

    return MatchView(
        m.pk,
        m.table,
        tuple(seat(s) for s in m.seats.all()),
        m.outcome,
        m.winner_id,
        m.version,
        m.why,
        m.pair_down,
        m.rematch,
    )


def _table_order(m: Match) -> tuple[bool, bool, int]:
    return (m.outcome == Outcome.LOSS, m.table is None, m.table or 0)


def _round_views(
    event: Event,
    rounds: Sequence[Round],
    *,
    records: bool = True,
    match_ids: Sequence[int] | None = None,
) -> list[RoundView]:
    """RoundViews for ``rounds`` of one event (only ``match_ids`` when given): two queries
    for the tables, one for the records before each round."""
    if not rounds:
        return []
    matches = Match.objects.filter(round__in=rounds).prefetch_related(_seat_prefetch())
    if match_ids is not None:
        matches = matches.filter(pk__in=match_ids)
    by_round: dict[int, list[Match]] = defaultdict(list)
    for m in matches:
        by_round[m.round_id].append(m)
    history = _records(event, {r.pod: r.number for r in rounds}) if records else {}
    points = get_ruleset(event.ruleset).match_points
    return [
        RoundView(
            r.pk,
            r.pod,
            pod_label(r.pod),
            r.number,
            r.phase,
            r.get_phase_display(),
            r.status,
            r.get_status_display(),
            tuple(
                _match_view(m, history, points) for m in sorted(by_round[r.pk], key=_table_order)
            ),
        )
        for r in rounds
    ]


def round_for_staff(rnd: Round) -> RoundView:
    """One round with every table, each player's record before it and the pairing's
    "why" (for review before publishing, P-POST-1), and the results so far. 3 queries."""
    return _round_views(rnd.event, [rnd])[0]


def match_for_staff(match_id: int) -> tuple[MatchView, int]:
    """One table (to redraw its row after a slip) and how many results its round still
    misses. 4 queries."""
    m = (
        Match.objects.select_related("round__event")
        .prefetch_related(_seat_prefetch())
        .get(pk=match_id)
    )
    rnd = m.round
    ids = [s.registration_id for s in m.seats.all()]
    history = _records(rnd.event, {rnd.pod: rnd.number}, registrations=ids)
    missing = Match.objects.filter(round=rnd, outcome=Outcome.PENDING).count()
    return _match_view(m, history, get_ruleset(rnd.event.ruleset).match_points), missing


def current_public_rounds(event: Event) -> list[Round]:
    """The latest published round of every pod (never a merely paired one); once a
    division's top cut is posted, its Swiss pod's last round is no longer current. 1 query."""
    latest: dict[str, Round] = {}
    for r in Round.objects.filter(event=event, status__in=PUBLIC_STATUSES).order_by("number"):
        latest[r.pod] = r
    cut = {p.removesuffix(CUT_SUFFIX) for p in latest if p.endswith(CUT_SUFFIX)}
    current = [
        r for p, r in latest.items() if p.endswith(CUT_SUFFIX) or not cut & set(p.split("+"))
    ]
    return sorted(current, key=lambda r: (r.pod.endswith(CUT_SUFFIX), r.pod))


def pairings_for_public(event: Event, rounds: Sequence[Round]) -> list[RoundView]:
    """The public pairings of ``rounds`` (from ``current_public_rounds``), with records
    before the round. 3 queries."""
    return _round_views(event, rounds)


@dataclass(frozen=True)
class NameEntry:
    """One line of the "by name" list: where a player sits this round."""

    name: str
    table: int | None
    opponent: str
    round_label: str
    note: str


def names_for_public(rounds: Iterable[RoundView]) -> list[NameEntry]:
    """Every seated player of ``rounds`` in alphabetical order (no query)."""
    entries = []
    for r in rounds:
        label = f"{r.pod_label} · Round {r.number}"
        for m in r.matches:
            for s in m.seats:
                others = ", ".join(o.name for o in m.seats if o is not s)
                note = "Bye" if m.is_bye else ("Late-entry loss" if m.is_late_loss else "")
                entries.append(NameEntry(s.name, m.table, others, label, note))
    entries.sort(key=lambda e: (e.name.casefold(), e.round_label))
    return entries


def pairings_search_for_public(
    event: Event, rounds: Sequence[Round], query: str, limit: int = 20
) -> list[NameEntry]:
    """Players of ``rounds`` (the current published ones) whose name contains ``query``
    (case-insensitive), with their table and opponent. At most 3 queries."""
    query = query.strip()
    if not query or not rounds:
        return []
    match_ids = list(
        MatchSeat.objects.filter(
            round__in=rounds, registration__player__name__icontains=query
        ).values_list("match_id", flat=True)[:limit]
    )
    views = _round_views(event, rounds, records=False, match_ids=match_ids)
    needle = query.casefold()
    return [e for e in names_for_public(views) if needle in e.name.casefold()]


def bracket_for_public(event: Event) -> list[tuple[str, list[RoundView]]]:
    """The published top-cut / single-elimination rounds, grouped by bracket:
    ``[(label, [round, ...]), ...]``. 3 queries."""
    rounds = list(
        Round.objects.filter(
            event=event, status__in=PUBLIC_STATUSES, phase__in=ELIMINATION_PHASES
        ).order_by("pod", "number")
    )
    brackets: dict[str, list[RoundView]] = defaultdict(list)
    for view in _round_views(event, rounds, records=False):
        brackets[view.pod_label].append(view)
    return list(brackets.items())


# --- event pages ----------------------------------------------------------------------


@dataclass(frozen=True)
class DivisionSummary:
    code: str
    label: str
    pod: str
    players: int
    active: int
    rounds: int
    cut: int
    recommended: tuple[int, int]


def divisions_for_event(event: Event) -> list[DivisionSummary]:
    """Each division with its player counts and announced and recommended structure
    (P-RT-1 by the active players of the division). 1 query."""
    rows = (
        Division.objects.filter(event=event)
        .annotate(
            n=Count("registrations", filter=Q(registrations__disqualified=False)),
            active=Count(
                "registrations",
                filter=Q(
                    registrations__disqualified=False,
                    registrations__dropped_after_round__isnull=True,
                ),
            ),
        )
        .select_related("event")
    )
    return [
        DivisionSummary(
            d.code,
            d.get_code_display(),
            d.pod,
            d.n,
            d.active,
            d.rounds,
            d.cut,
            recommended_structure(d.active),
        )
        for d in rows
    ]


def events_for_home(user: Any, limit: int = 30) -> tuple[list[Event], list[Event]]:
    """``(recent events, events the user is staff of)`` for the home page. 2 queries."""
    recent = list(Event.objects.order_by(F("date").desc(nulls_last=True), "-created_at")[:limit])
    mine: list[Event] = []
    if getattr(user, "is_authenticated", False):
        ids = EventStaff.objects.filter(user=user).values("event_id")
        mine = list(Event.objects.filter(pk__in=ids).order_by("-created_at")[:limit])
    return recent, mine


def registrations_for_staff(event: Event) -> list[Registration]:
    """Every registration with player and division, alphabetical. 1 query."""
    return list(
        Registration.objects.filter(event=event)
        .select_related("player", "division")
        .order_by("player__name", "pk")
    )


def rounds_for_staff(event: Event) -> list[tuple[str, Round]]:
    """Every round of the event with its pod's label, by number and pod. 1 query."""
    return [
        (pod_label(r.pod), r) for r in Round.objects.filter(event=event).order_by("number", "pod")
    ]


# --- standings ------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    place: int | None
    name: str
    record: str
    match_points: int
    owp: str
    oowp: str
    dropped: bool
    top_cut: bool


def standings_for_public(data: dict[str, Any]) -> list[tuple[str, list[StandingLine]]]:
    """The Standings JSON (INTERFACES.md) as ``[(division label, lines)]`` with OWP and
    OOWP as percentages with two decimals (P-TB-8). No query."""
    labels = dict(DivisionCode.choices)
    out = []
    for code, rows in data.get("divisions", {}).items():
        lines = [
            StandingLine(
                row.get("place"),
                row.get("name", row.get("player", "")),
                row.get("record", ""),
                row.get("match_points", 0),
                percent(row.get("tiebreakers", {}).get("owp")),
                percent(row.get("tiebreakers", {}).get("oowp")),
                bool(row.get("dropped")),
                bool(row.get("top_cut")),
            )
            for row in rows
        ]
        out.append((labels.get(code, code.title()), lines))
    return out
