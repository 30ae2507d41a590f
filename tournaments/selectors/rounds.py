"""Rounds and their tables as the pages show them: each player's record before the
round, the result so far, the pairing's "why". Shared by the staff and public selectors."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from ..clock import minutes_text
from ..groups import group_label
from ..models import (
    Event,
    Match,
    MatchKind,
    MatchSeat,
    Outcome,
    Phase,
    Round,
    RoundStatus,
    Seating,
)
from ..multiplayer import match_points_rule
from .names import seat_name, seat_twin

PUBLIC_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.STARTED, RoundStatus.COMPLETE)
LIVE_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.STARTED)
ELIMINATION_PHASES = (Phase.TOP_CUT, Phase.SINGLE_ELIMINATION)


@dataclass(frozen=True)
class SeatView:
    """A player at a table: record and match points *before* this round."""

    registration_id: int
    name: str
    record: str
    points: int
    dropped: bool


class TableMarks:
    """A table's marks as ``_table_marks.html`` shows them, from ``seating``
    (``Match.seating``: "" / "fixed" / "fixed-not-top") and ``feature_table`` (the
    feature table's name, "" when not featured): shared by every view of a table (the
    pairings by table and by name, the printed lists and slips, the projector)."""

    seating: str
    feature_table: str

    @property
    def fixed_seat(self) -> bool:
        """The table is a player's fixed seat."""
        return bool(self.seating)

    @property
    def not_top(self) -> bool:
        """A fixed seat numbered lower than its bracket place: not a top table."""
        return self.seating == Seating.FIXED_NOT_TOP


def result_games(games: Sequence[int] | None, winner_seat: int | None) -> str:
    """A match's game record as its result is worded (M-MATCH-1): ``games`` is stored in
    seat order ``(wins of seat 1, wins of seat 2, drawn games)``; ``winner_seat`` the
    winner's index among the two seats (0 or 1), whose games come first, so a winner's
    score never reads as a loss: ``([1, 2, 0], 1)`` → ``"2-1-0"``. None (a drawn match,
    a double loss) keeps the order as recorded: ``([1, 1, 1], None)`` → ``"1-1-1"``.
    No record → ``""``. Only for words: files keep the seat order."""
    if not games:
        return ""
    first, second, *drawn = games
    if winner_seat == 1:
        first, second = second, first
    return "-".join(map(str, (first, second, *drawn)))


@dataclass(frozen=True)
class MatchView(TableMarks):
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
    games: tuple[int, ...] | None = None  # best-of-3 game record, seat order (M-MATCH-1)
    conceded: frozenset[int] = frozenset()  # pods: seats with no share of a draw (MP-PTS-1)
    extra_seconds: int = 0  # a judge's time extension for this table (tournaments.clock)
    draw_word: str = "Draw"  # the ruleset's word for a drawn match ("Tie", "Draw")
    seating: str = ""  # "fixed" / "fixed-not-top" (Match.seating)
    feature_table: str = ""  # the feature table's name, "" when not featured
    third_place: bool = False  # the 3rd/4th place playoff beside a final (P-TC-4, P-SE-6)

    @property
    def extension_text(self) -> str:
        """The table's time extension as staff say it (``"+3 min"``), or ``""``."""
        return minutes_text(self.extra_seconds) if self.extra_seconds else ""

    @property
    def is_pod(self) -> bool:
        """A multiplayer pod (3–5 seats, MP-POD-1): takes a pod slip."""
        return len(self.seats) > 2

    @property
    def score(self) -> str:
        """The game record as on the slip ("2-1-0"), or ""."""
        return "-".join(map(str, self.games)) if self.games else ""

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
        """The result in words, a game record with the winner's games first ("Alice
        Moreno wins 2-1-0" when Alice sits second and won 2-1: M-MATCH-1); a drawn match's
        record as recorded ("Draw 1-1-1"); "Not reported"."""
        if self.outcome == Outcome.WIN:
            order = [s.registration_id for s in self.seats]
            seat = order.index(self.winner_id) if self.winner_id in order else None
            winner = self.seats[seat].name if seat is not None else ""
            games = result_games(self.games, seat)
            return _("%(name)s wins") % {"name": winner} + (f" {games}" if games else "")
        words: dict[str, str] = {Outcome.DRAW: self.draw_word, Outcome.PENDING: _("Not reported")}
        return words.get(self.outcome, str(Outcome(self.outcome).label)) + (
            f" {self.score}" if self.games and self.outcome == Outcome.DRAW else ""
        )


@dataclass(frozen=True)
class BracketSize:
    """An elimination round's size, counted over all of its tables whichever of them a
    page read (a player's page reads only their own), the 3rd/4th place playoff left out
    (P-TC-4, P-SE-6: it is played beside the final): ``tables`` (byes included),
    ``seated`` players (byes included), head-to-head ``matches`` (no bye, no pod) and
    ``pods`` (3–5 seats, MP-SE-1)."""

    tables: int = 0
    seated: int = 0
    matches: int = 0
    pods: int = 0


def _bracket_sizes(seats: Iterable[tuple[int, int]]) -> dict[int, BracketSize]:
    """``{round id: BracketSize}`` from ``(round id, match id)`` per seated player of
    the rounds' bracket tables (3rd/4th place playoffs already left out)."""
    per_match: dict[tuple[int, int], int] = defaultdict(int)
    for round_id, match_id in seats:
        per_match[(round_id, match_id)] += 1
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for (round_id, _match), n in per_match.items():
        c = counts[round_id]
        c[0] += 1
        c[1] += n
        c[2] += n == 2
        c[3] += n > 2
    return {r: BracketSize(*c) for r, c in counts.items()}


@dataclass(frozen=True)
class RoundView:
    """A round with its tables in table order (byes, then late-entry losses, last)."""

    id: int
    group: str  # the pairing group's key
    group_label: str
    number: int
    phase: str
    phase_label: str
    status: str
    status_label: str
    matches: tuple[MatchView, ...]
    notes: tuple[str, ...] = ()  # the pairing engine's notes for staff (Round.notes)
    bracket: BracketSize = BracketSize()  # an elimination round's size (stage_label)

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
    def featured(self) -> tuple[MatchView, ...]:
        """The featured matches, by feature table name."""
        return tuple(
            sorted((m for m in self.matches if m.feature_table), key=lambda m: m.feature_table)
        )

    @property
    def stage_label(self) -> str:
        """Elimination rounds by size, in the visitor's language: "Final", "Semi-finals",
        "Quarter-finals", "Top 16" (no English left on Spanish pages), from the round's
        ``bracket`` (so a page that read one table names the stage as the bracket does;
        the final beside its 3rd/4th place playoff is the "Final")."""
        size = self.bracket
        if size.pods:  # pod cuts (MP-SE-1): one pod is the final
            final = size.tables == 1  # one pod and no bye (not top 7's first pod)
            return _("Final") if final else _("Top %(size)s") % {"size": size.seated}
        names = {1: _("Final"), 2: _("Semi-finals"), 4: _("Quarter-finals")}
        return names.get(size.matches) or _("Top %(size)s") % {"size": 2 * size.matches}

    @property
    def heading(self) -> str:
        """The round as players call it: its stage in an elimination round ("Semi-finals"),
        else "Round 5"."""
        if self.is_elimination:
            return self.stage_label
        return _("Round %(number)s") % {"number": self.number}


def _records(
    event: Event, before: dict[int, int], registrations: Iterable[int] | None = None
) -> dict[int, tuple[int, int, int]]:
    """``{registration id: (wins, losses, ties)}`` over each pairing group's rounds
    numbered below ``before[group id]`` (byes count as wins; double and late-entry losses as losses), for
    every player or only ``registrations``. A drawn pod the player conceded counts as
    a loss (no draw point, MP-PTS-1). One query."""
    if not before:
        return {}
    where = Q()
    for group, number in before.items():
        where |= Q(round__group_id=group, round__number__lt=number)
    if registrations is not None:
        where &= Q(registration_id__in=list(registrations))
    rows = MatchSeat.objects.filter(where, round__event=event).values_list(
        "registration_id", "match__outcome", "match__winner_id", "conceded"
    )
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for reg_id, outcome, winner_id, conceded in rows:
        if outcome == Outcome.BYE or (outcome == Outcome.WIN and winner_id == reg_id):
            counts[reg_id][0] += 1
        elif outcome in (Outcome.WIN, Outcome.LOSS, Outcome.DOUBLE_LOSS) or (
            outcome == Outcome.DRAW and conceded
        ):
            counts[reg_id][1] += 1
        elif outcome == Outcome.DRAW:
            counts[reg_id][2] += 1
    return {k: (w, lo, t) for k, (w, lo, t) in counts.items()}


def _seats_in_order() -> QuerySet[MatchSeat]:
    return MatchSeat.objects.select_related("registration__player").order_by("seat")


Records = dict[int, tuple[int, int, int]]


def draw_word(event: Event) -> str:
    """What the event's ruleset calls a drawn match ("Tie", "Draw"); "Draw" for a
    ruleset without drawn matches (an imported record may still hold one)."""
    return gettext(event.rules.draw_word or "Draw")


def _match_view(
    m: Match,
    history: Records,
    points: Callable[[int, int], int],
    draw: str = "Draw",
    seats: Sequence[MatchSeat] | None = None,
) -> MatchView:
    """A MatchView of a match whose seats (with registration and player) are prefetched,
    or given in seat order (``seats``); ``draw`` is the ruleset's word for a drawn match."""
    in_order: Iterable[MatchSeat] = m.seats.all() if seats is None else seats

    def seat(s: MatchSeat) -> SeatView:
        w, lo, t = history.get(s.registration_id, (0, 0, 0))
        reg = s.registration
        return SeatView(reg.pk, seat_name(s), f"{w}-{lo}-{t}", points(w, t), reg.dropped)

    return MatchView(
        m.pk,
        m.table,
        tuple(seat(s) for s in in_order),
        m.outcome,
        m.winner_id,
        m.version,
        m.why,
        m.pair_down,
        m.rematch,
        tuple(m.games) if m.games else None,
        conceded=frozenset(s.registration_id for s in in_order if s.conceded),
        extra_seconds=m.extra_seconds,
        draw_word=draw,
        seating=m.seating,
        feature_table=m.feature_table,
        third_place=m.kind == MatchKind.THIRD_PLACE,
    )


def match_heading(rnd: RoundView, match: MatchView | None) -> str:
    """A table's round as its players call it: "Round 5", a top cut's stage
    ("Semi-finals", "Final"), and beside the final the "3rd/4th place playoff"."""
    if match is not None and match.third_place:
        return str(MatchKind.THIRD_PLACE.label)
    return rnd.heading


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
    for the tables, one for the records before each round, and with ``match_ids`` one
    for the size of the elimination rounds among them (``RoundView.stage_label``)."""
    if not rounds:
        return []
    matches = Match.objects.filter(round__in=rounds)
    seats = (
        MatchSeat.objects.filter(round__in=rounds)
        .select_related("registration__player")
        .annotate(**seat_twin(event.pk))  # players with the same name told apart (names)
    )
    if match_ids is not None:
        matches = matches.filter(pk__in=match_ids)
        seats = seats.filter(match_id__in=match_ids)
    by_round: dict[int, list[Match]] = defaultdict(list)
    for m in matches:
        by_round[m.round_id].append(m)
    # Seats grouped by hand, not prefetch_related: a prefetch builds a queryset per
    # match, a third of the time at 1,000 tables (public pages).
    by_match: dict[int, list[MatchSeat]] = defaultdict(list)
    for s in seats.order_by("match_id", "seat"):
        by_match[s.match_id].append(s)
    history = _records(event, {r.group_id: r.number for r in rounds}) if records else {}
    read = [m for ms in by_round.values() for m in ms] if match_ids is None else None
    sizes = _round_sizes(rounds, read, by_match)
    prefetch_related_objects(rounds, "group__divisions")
    points = match_points_rule(event)  # MP-PTS-1: 2n − 1 per win in pod events
    draw = draw_word(event)
    return [
        RoundView(
            r.pk,
            r.group.key,
            group_label(r.group),
            r.number,
            r.phase,
            r.get_phase_display(),
            r.status,
            r.get_status_display(),
            tuple(
                _match_view(m, history, points, draw, by_match[m.pk])
                for m in sorted(by_round[r.pk], key=_table_order)
            ),
            tuple(r.notes or ()),
            sizes.get(r.pk, BracketSize()),
        )
        for r in rounds
    ]


def _round_sizes(
    rounds: Sequence[Round],
    matches: Iterable[Match] | None,
    by_match: dict[int, list[MatchSeat]],
) -> dict[int, BracketSize]:
    """The size of each elimination round of ``rounds``: from ``matches`` (every table of
    the rounds, read already: no query) or, when only some tables were read (None), one
    query over the rounds' seats. No query when no round is an elimination round."""
    elimination = [r for r in rounds if r.phase in ELIMINATION_PHASES]
    if not elimination:
        return {}
    if matches is not None:
        ids = {r.pk for r in elimination}
        return _bracket_sizes(
            (m.round_id, m.pk)
            for m in matches
            if m.round_id in ids and m.kind != MatchKind.THIRD_PLACE
            for _seat in by_match[m.pk]
        )
    seats = MatchSeat.objects.filter(round__in=elimination).exclude(
        match__kind=MatchKind.THIRD_PLACE
    )
    return _bracket_sizes(seats.values_list("round_id", "match_id"))


def views_in_language(
    event: Event, rounds: Sequence[Round], views: Sequence[RoundView]
) -> list[RoundView]:
    """``views`` (``_round_views(event, rounds)``, read in any language) with their words
    — group, phase and status labels, the ruleset's draw word — in the active language, as
    ``_round_views`` words them, so one read of the tables serves the pages of every
    language (``public_pages``, ``public_cache``). No query."""
    draw = draw_word(event)
    by_id = {r.pk: r for r in rounds}
    return [
        replace(
            v,
            group_label=group_label(by_id[v.id].group),
            phase_label=by_id[v.id].get_phase_display(),
            status_label=by_id[v.id].get_status_display(),
            matches=tuple(replace(m, draw_word=draw) for m in v.matches),
        )
        for v in views
    ]


def round_for_staff(rnd: Round) -> RoundView:
    """One round with every table, each player's record before it and the pairing's
    "why" (for review before publishing, P-POST-1), and the results so far. 3 queries."""
    return _round_views(rnd.event, [rnd])[0]


def match_for_staff(match_id: int) -> tuple[MatchView, int]:
    """One table (to redraw its row after a slip) and how many results its round still
    misses. 4 queries."""
    m = Match.objects.select_related("round__event").get(pk=match_id)
    rnd = m.round
    # the seats as the full render reads them: same-name players told apart (names)
    seats = _seats_in_order().annotate(**seat_twin(rnd.event_id))
    prefetch_related_objects([m], Prefetch("seats", queryset=seats))
    ids = [s.registration_id for s in m.seats.all()]
    history = _records(rnd.event, {rnd.group_id: rnd.number}, registrations=ids)
    missing = Match.objects.filter(round=rnd, outcome=Outcome.PENDING).count()
    return _match_view(m, history, match_points_rule(rnd.event), draw_word(rnd.event)), missing


def rounds_for_staff(event: Event) -> list[tuple[str, Round]]:
    """Every round of the event with its pairing group's label, by number and group.
    3 queries."""
    rounds = Round.objects.filter(event=event).prefetch_related("group__divisions")
    return [(group_label(r.group), r) for r in rounds.order_by("number", "group__key")]
