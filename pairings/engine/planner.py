"""The event planner: how long the day takes.

Pure Python (no Django): from the expected attendance per division, the start, the
round length, the break between rounds and the tables available, :func:`plan` reads the
ruleset's round table (P-RT-1 … P-RT-7) per division and lays out a schedule: every
Swiss round (and Day 2 round, P-D2-1) with its start and end, the top cut's rounds, and
the estimated finish. Times are ``datetime`` values; lengths are seconds.

Decisions where the rules are silent:

* Divisions play side by side: a round of the schedule seats every division, so the
  day has as many Swiss rounds as the division that plays most, and as many top-cut
  rounds as the largest cut needs.
* Divisions' structure: the same function closing check-in applies
  (``pairings.engine.ages.age_structure``): the age mode from every
  division's players (one player counts: it makes the event age-modified, P-AGE-3), each
  pairing group's rounds from its largest division (P-AGE-4), age-separated divisions'
  cuts from their own players, age-modified cuts with the same share (P-AGE-5).
* Tables: a match takes one table and a bye none (P-SW-8: 30 players → 15 tables); a
  pod takes one table (MP-POD-1: 22 players → 6 pods, 6 tables). Divisions paired
  together (age-modified) share their byes. When the tables are fewer than a
  round needs, the largest divisions are split into flights (P-FL-1: Swiss plus top cut, a
  division of 64 or more, flights of 32 or more, 2, 4, 8 or 16 of them); flights take
  turns at the tables, so each flight's round is one slot of the schedule, and each
  doubling of flights removes one Swiss round (P-FL-2). When no flight count helps,
  the plan says how many tables are missing.
* Round length: the ruleset's round clock (``Ruleset.round_seconds``; top cut
  ``elimination_seconds``) plus :data:`TURN_SECONDS` for each extra turn played after
  time is called (``Ruleset.extra_turns``, W-TIME-2); 50 minutes for an untimed ruleset.
* A two-day event (P-RT-2) plays Day 2's Swiss rounds and the top cut on the next day,
  from the same start time.
* Once the event runs, the real start and end of the rounds played replace the plan's
  (:class:`Played`); a round still running ends at its planned length or now, whichever
  is later, and every later round moves with it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rulesets.base import Ruleset
from rulesets.i18n import Text, gettext_noop, text
from rulesets.tables import POD_CUT_ROUNDS, POD_SIZE, Recommendation

from .ages import AgeStructure, age_structure
from .errors import PairingImpossible
from .pods import pod_sizes

TURN_SECONDS = 3 * 60  # an extra turn after time is called, both players (W-TIME-2)
UNTIMED_SECONDS = 50 * 60  # a ruleset without a round clock: plan 50 minutes
DEFAULT_BREAK_SECONDS = 10 * 60
FLIGHT_COUNTS = (2, 4, 8, 16)  # P-FL-1
FLIGHT_MIN_DIVISION = 64  # P-FL-1
FLIGHT_MIN_PLAYERS = 32  # P-FL-1


def default_round_seconds(rules: Ruleset, *, elimination: bool = False) -> int:
    """The round length the planner uses unless the organiser changes it, in seconds:
    the ruleset's clock plus its extra turns (Pokémon: 50 minutes + 3 turns = 59
    minutes; top cut 75 + 3 turns = 84; Magic 50)."""
    clock = rules.elimination_seconds if elimination else rules.round_seconds
    if clock is None:
        clock = rules.round_seconds if elimination and rules.round_seconds else UNTIMED_SECONDS
    return clock + rules.extra_turns * TURN_SECONDS


@dataclass(frozen=True)
class DivisionPlan:
    """One division's structure: the table's recommendation, its flights (0 = none),
    Swiss rounds each player plays on Day 1 (after P-FL-2), Day 2 rounds, cut and cut
    rounds."""

    division: str
    players: int
    recommendation: Recommendation
    flights: int
    rounds: int
    day2_rounds: int
    cut: int
    cut_rounds: int

    @property
    def slots(self) -> int:
        """Day 1 Swiss rounds of the schedule this division needs (flights take turns)."""
        return self.rounds * max(self.flights, 1)


@dataclass(frozen=True)
class Slot:
    """One round of the schedule. phase: ``swiss``, ``swiss-day2`` or ``top-cut``;
    number: the round's number (Swiss 1…, then on through the cut); flight: 1, 2 … when
    flights take turns, else 0; day: 1 or 2; actual: the times are the real ones."""

    number: int
    phase: str
    flight: int
    day: int
    start: dt.datetime
    end: dt.datetime
    actual: bool = False


@dataclass(frozen=True)
class Played:
    """A round of the event as it ran (``None``: not yet started / not yet finished)."""

    started_at: dt.datetime | None
    completed_at: dt.datetime | None


@dataclass(frozen=True)
class Plan:
    """The planner's answer: each division's structure, the schedule in order, the
    estimated finish, the tables a round needs at most, and notes for the organiser."""

    divisions: tuple[DivisionPlan, ...]
    slots: tuple[Slot, ...]
    round_seconds: int
    elimination_seconds: int
    break_seconds: int
    tables_needed: int
    notes: tuple[str, ...]

    @property
    def finish(self) -> dt.datetime | None:
        """The end of the last round, or None for an empty plan."""
        return self.slots[-1].end if self.slots else None

    @property
    def days(self) -> int:
        """How many days the schedule spans (2 for a two-day event), 0 when empty."""
        return self.slots[-1].day if self.slots else 0

    @property
    def flights(self) -> int:
        return max((d.flights for d in self.divisions), default=0)


@dataclass(frozen=True)
class Announced:
    """The structure an event announced (S-2), which replaces the table's: Swiss rounds,
    Day 2 rounds, top cut (0 = none), flights per division (``{code: flights}``) and
    each division's own rounds and cut where they differ from the event's
    (``{code: (rounds, cut)}``, ``Division.rounds`` / ``Division.cut``)."""

    rounds: int
    cut: int
    day2_rounds: int = 0
    flights: Mapping[str, int] | None = None
    divisions: Mapping[str, tuple[int, int]] | None = None


def plan(
    rules: Ruleset,
    attendance: Mapping[str, int],
    *,
    start: dt.datetime,
    round_seconds: int | None = None,
    break_seconds: int = DEFAULT_BREAK_SECONDS,
    tables: int | None = None,
    two_day: bool = False,
    announced: Announced | None = None,
    played: Sequence[Played] = (),
    now: dt.datetime | None = None,
    pod_size: int = POD_SIZE,
) -> Plan:
    """The structure and schedule of an event.

    attendance: ``{division code: players}`` (divisions of fewer than 2 are left out).
    start: round 1's start. round_seconds: a Swiss round's length, default
    :func:`default_round_seconds`; top-cut rounds take the ruleset's top-cut length plus
    the same difference. break_seconds: between the end of a round and the next start.
    tables: tables in the hall, None = enough. two_day: the ruleset's two-day table
    (P-RT-2). announced: the event's own structure instead of the table's. played: the
    rounds as they ran, in schedule order; now: the server's time (a round still running
    ends no earlier). pod_size: the standard pod (multiplayer rulesets, MP-POD-1).
    Each division's rounds and cut are :func:`division_structure`'s (what closing
    check-in applies); ``tables_needed`` counts no table for a bye and one per pod.
    Raises ValueError for no division of two or more players, or a negative length.
    """
    if (round_seconds is not None and round_seconds <= 0) or break_seconds < 0:
        raise ValueError(
            text(gettext_noop("Round length must be positive and the break not negative."))
        )
    counts = {code: n for code, n in attendance.items() if n >= 2}
    if not counts:
        raise ValueError(
            text(gettext_noop("Enter the players expected in at least one division (2 or more)."))
        )
    swiss = round_seconds or default_round_seconds(rules)
    # an edited round length moves the top cut's by the same difference (at least 1 min)
    elimination = max(
        60, default_round_seconds(rules, elimination=True) + swiss - default_round_seconds(rules)
    )
    present = {code: n for code, n in attendance.items() if n >= 1}
    divisions, notes, needed = _structure(
        rules, present, counts, tables, two_day, announced, pod_size
    )
    slots = _schedule(divisions, start, swiss, elimination, break_seconds)
    slots = _with_played(slots, played, break_seconds, now)
    return Plan(divisions, slots, swiss, elimination, break_seconds, needed, notes)


def division_structure(
    rules: Ruleset, attendance: Mapping[str, int], *, two_day: bool = False
) -> AgeStructure | None:
    """Swiss rounds and top cut per division for ``attendance`` (``{code: players}``,
    divisions of 0 left out) from the ruleset's round table (P-RT-1 … P-RT-7; P-RT-2 when
    ``two_day``) through ``pairings.engine.ages.age_structure``: the function closing
    check-in applies (P-AGE-2 … P-AGE-5), so the planner, the staff pages and check-in
    agree. Pokémon Junior 6, Senior 8, Masters 16 → 3 rounds no cut,
    3 rounds no cut, 5 rounds top 4. None when the codes are not divisions
    ``age_structure`` knows (ValueError there)."""
    present = {code: n for code, n in attendance.items() if n > 0}
    try:
        return age_structure(present, lambda n: rules.recommend(n, two_day=two_day))
    except ValueError:
        return None


def _structure(
    rules: Ruleset,
    present: Mapping[str, int],
    counts: Mapping[str, int],
    tables: int | None,
    two_day: bool,
    announced: Announced | None,
    pod_size: int,
) -> tuple[tuple[DivisionPlan, ...], tuple[str, ...], int]:
    """Each division's plan, the notes, and the tables a round needs (P-FL-1, P-FL-2):
    ``present`` every division with a player (they decide the age mode and share the
    tables), ``counts`` the divisions planned (two or more players)."""
    ages = division_structure(rules, present, two_day=two_day)
    groups = [g.counts for g in ages.groups] if ages else [{c: n} for c, n in present.items()]
    base = {code: _division(rules, code, n, two_day, announced, ages) for code, n in counts.items()}
    notes: list[str] = []
    if announced is not None and announced.flights:
        flights = {c: announced.flights.get(c, 0) for c in base}
    else:
        flights = _flights(rules, base, tables, groups, pod_size)
    plans = tuple(_flighted(d, flights.get(d.division, 0)) for d in base.values())
    needed = _round_tables(rules, groups, {d.division: d.flights for d in plans}, pod_size)
    if tables is not None and needed > tables:
        notes.append(
            text(
                gettext_noop(
                    "Not enough tables: a round needs %(needed)s, the hall has %(tables)s. "
                    "Add tables, or play some matches in a second wave."
                ),
                needed=needed,
                tables=tables,
            )
        )
    for d in plans:
        if d.flights and not (announced and announced.flights):
            notes.append(
                text(
                    gettext_noop(
                        "%(division)s: %(flights)s flights take turns at the tables, "
                        "%(rounds)s Swiss rounds each (P-FL-2)."
                    ),
                    division=Text(d.division.title()),
                    flights=d.flights,
                    rounds=d.rounds,
                )
            )
        notes += [n for n in d.recommendation.notes if n not in notes]
    return plans, tuple(notes), needed


def _division(
    rules: Ruleset,
    code: str,
    players: int,
    two_day: bool,
    announced: Announced | None,
    ages: AgeStructure | None,
) -> DivisionPlan:
    """One division: the announced structure (its own where it has one), else the
    shared structure (:func:`division_structure`), else its own row of the table."""
    rec = rules.recommend(players, two_day=two_day)
    rounds, cut, day2 = rec.rounds, rec.cut, rec.day2_rounds
    if ages is not None:
        group = next(g for g in ages.groups if code in g.counts)
        rec = group.recommendation
        (rounds, cut), day2 = ages.division(code), rec.day2_rounds
    if announced is not None:
        rounds, cut, day2 = announced.rounds, announced.cut, announced.day2_rounds
        rounds, cut = (announced.divisions or {}).get(code, (rounds, cut))
    cut_rounds = rec.elimination_rounds if cut == rec.cut else _cut_rounds(rules, cut)
    if not rounds and not cut:  # single elimination only (P-RT-4 §3.2.2, P-RT-5 4–8)
        cut_rounds = rec.elimination_rounds or (players - 1).bit_length()
    return DivisionPlan(code, players, rec, 0, rounds, day2, cut, cut_rounds)


def _cut_rounds(rules: Ruleset, cut: int) -> int:
    """Single-elimination rounds of an announced cut (pods: MP-SE-1, else P-TC-1)."""
    if not cut:
        return 0
    return POD_CUT_ROUNDS.get(cut, 3) if rules.uses_pods else cut.bit_length() - 1


def tables_for(rules: Ruleset, players: int, *, pod_size: int = POD_SIZE) -> int:
    """Tables one round of ``players`` paired together takes: a match per two players
    and no table for the bye (P-SW-8: 30 → 15, 31 → 15); pods: one table per pod
    (MP-POD-1: 22 → 4×4 + 2×3 = 6). 0 for fewer than 2 players."""
    if players < 2:
        return 0
    if rules.uses_pods:
        try:
            return len(pod_sizes(players, standard=pod_size))
        except (PairingImpossible, ValueError):
            return 1
    return players // 2


def _round_tables(
    rules: Ruleset,
    groups: Sequence[Mapping[str, int]],
    flights: Mapping[str, int],
    pod_size: int,
) -> int:
    """Tables a round of the schedule needs: every pairing group seated at once, a
    flighted division one flight (its largest) at a time."""
    total = 0
    for group in groups:
        count = max((flights.get(code, 0) for code in group), default=0)
        players = sum(group.values())
        total += tables_for(rules, -(-players // max(count, 1)), pod_size=pod_size)
    return total


def _flights(
    rules: Ruleset,
    divisions: Mapping[str, DivisionPlan],
    tables: int | None,
    groups: Sequence[Mapping[str, int]],
    pod_size: int,
) -> dict[str, int]:
    """Flights per division when the tables are too few (P-FL-1): the fewest flights of
    the largest flightable divisions that seat a round, or none when nothing helps."""
    if tables is None or not rules.features.flights:
        return {}
    if _round_tables(rules, groups, {}, pod_size) <= tables:
        return {}
    allowed = [
        d
        for d in sorted(divisions.values(), key=lambda d: -d.players)
        if d.cut and d.rounds and d.players >= FLIGHT_MIN_DIVISION
    ]
    for count in FLIGHT_COUNTS:
        chosen = {d.division: count for d in allowed if d.players // count >= FLIGHT_MIN_PLAYERS}
        seats = _round_tables(rules, groups, chosen, pod_size)
        if chosen and seats <= tables:
            return chosen
    return {}


def _flighted(d: DivisionPlan, flights: int) -> DivisionPlan:
    """P-FL-2: each doubling of flights removes one Swiss round."""
    if not flights:
        return d
    rounds = max(d.rounds - (flights.bit_length() - 1), 1)
    return DivisionPlan(
        d.division, d.players, d.recommendation, flights, rounds, d.day2_rounds, d.cut,
        d.cut_rounds,
    )  # fmt: skip


def _schedule(
    divisions: Sequence[DivisionPlan],
    start: dt.datetime,
    swiss: int,
    elimination: int,
    pause: int,
) -> tuple[Slot, ...]:
    """The rounds in order with planned times: Day 1 Swiss (flights taking turns),
    Day 2 Swiss, then the top cut (on Day 2 for a two-day event)."""
    flights = max((d.flights for d in divisions), default=0)
    day1 = max((d.slots for d in divisions), default=0)
    day2 = max((d.day2_rounds for d in divisions), default=0)
    cut = max((d.cut_rounds for d in divisions), default=0)
    per = max(flights, 1)
    kinds = [("swiss", 1, s // per + 1, s % per + 1 if flights else 0) for s in range(day1)]
    kinds += [("swiss-day2", 2, -(-day1 // per) + i + 1, 0) for i in range(day2)]
    first_cut = -(-day1 // per) + day2 + 1
    kinds += [("top-cut", 2 if day2 else 1, first_cut + i, 0) for i in range(cut)]
    slots: list[Slot] = []
    at, day = start, 1
    for phase, slot_day, number, flight in kinds:
        if slot_day != day:
            at, day = start + dt.timedelta(days=slot_day - 1), slot_day
        length = elimination if phase == "top-cut" else swiss
        end = at + dt.timedelta(seconds=length)
        slots.append(Slot(number, phase, flight, day, at, end))
        at = end + dt.timedelta(seconds=pause)
    return tuple(slots)


def _with_played(
    slots: tuple[Slot, ...],
    played: Sequence[Played],
    pause: int,
    now: dt.datetime | None,
) -> tuple[Slot, ...]:
    """Replace the planned times by the real ones and move every later round: a round
    starts at its real start, else after the previous round of its day and the break;
    it ends at its real end, else after its length (never before ``now`` once started)."""
    out: list[Slot] = []
    for i, slot in enumerate(slots):
        real = played[i] if i < len(played) else Played(None, None)
        length = slot.end - slot.start
        start = real.started_at or slot.start
        if real.started_at is None and out and out[-1].day == slot.day:
            start = out[-1].end + dt.timedelta(seconds=pause)
        end = real.completed_at or start + length
        if real.completed_at is None and real.started_at is not None and now is not None:
            end = max(end, now)
        actual = real.started_at is not None
        out.append(Slot(slot.number, slot.phase, slot.flight, slot.day, start, end, actual))
    return tuple(out)
