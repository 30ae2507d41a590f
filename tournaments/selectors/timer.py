"""The round clock as pages show it: each started round of the event, how long it has
left by the server's clock (pauses, added time), the tables still playing and the
tables a judge gave a time extension, each table on its own clock (the end-of-round
board). The limits come from the event's ruleset
(``tournaments.clock``; pods: MP-TIME-1)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from django.utils.translation import gettext

from rulesets import Ruleset

from ..clock import Clock, RoundTimes, clock_text, minutes_text, round_clock
from ..groups import group_label
from ..models import Event, Match, Outcome, Round, RoundStatus
from .rounds import ELIMINATION_PHASES, TableMarks

# (table, outcome, intentional draw noted at, extension in seconds, seating, feature table)
MatchRow = tuple[int | None, str, dt.datetime | None, int, str, str]


@dataclass(frozen=True)
class TableTime:
    """A table still playing with a time extension (seconds)."""

    table: int
    extra_seconds: int

    @property
    def text(self) -> str:
        """``"Table 4: +3 min"``, in the visitor's language."""
        return gettext("Table %(table)s: %(time)s") % {
            "table": self.table,
            "time": minutes_text(self.extra_seconds),
        }


@dataclass(frozen=True)
class TableClock(TableMarks):
    """One table still playing, on its own clock (the end-of-round
    board): the round's clock with this table's extension (``extra_seconds``) added.

    ``clock.elapsed`` is the time the table has used, ``clock.limit`` the time it is
    allowed (None: untimed); ``over``: its time is up and its result is still missing.
    ``seating`` and ``feature_table``: the table's marks (a fixed seat, a featured
    match: ``TableMarks``), as the pairings show them.
    """

    table: int
    extra_seconds: int
    clock: Clock
    seating: str = ""  # Match.seating
    feature_table: str = ""  # the feature table's name, "" when not featured

    @property
    def over(self) -> bool:
        return self.clock.phase == "over"

    @property
    def used_text(self) -> str:
        """The time used, ``"52:10"``."""
        return clock_text(self.clock.elapsed)

    @property
    def limit_text(self) -> str:
        """The time allowed, ``"53:00"``, or ``""`` when untimed."""
        return clock_text(self.clock.limit) if self.clock.limit is not None else ""

    @property
    def extension_text(self) -> str:
        """``"+3 min"`` or ``""``."""
        return minutes_text(self.extra_seconds) if self.extra_seconds else ""


@dataclass(frozen=True)
class RoundClock:
    """One started round's clock: the clock, its text, the tables still playing and
    those with an extension. ``started_ms`` (the start, milliseconds since the epoch)
    and ``paused_s`` (the ended pauses, seconds) let the page's script count on in step
    with the server: elapsed = server now − start − paused (it never trusts the device's
    own clock); while ``clock.paused`` it does not count."""

    round: Round
    label: str
    clock: Clock
    text: str
    note: str
    playing: tuple[int, ...]
    extensions: tuple[TableTime, ...]
    started_ms: int
    paused_s: int
    final: bool
    parts: tuple[tuple[Round, str], ...] = ()  # (round, label) of merged rounds (projector)
    # the round is complete; the clock stays at the moment its last
    # result came in and the page's script does not count it on.
    complete: bool = False
    # every table still playing on its own clock, in table order.
    tables: tuple[TableClock, ...] = ()

    @property
    def time_called(self) -> bool:
        """The round's own time is up (or, pods, in the last turn): the end of the round,
        when the end-of-round board lists its tables."""
        return self.clock.limit is not None and self.clock.phase != "playing"

    @property
    def results_missing(self) -> tuple[TableClock, ...]:
        """Tables whose own time (extension included) is up and whose result is missing."""
        return tuple(t for t in self.tables if t.over)

    @property
    def missing_tables(self) -> tuple[int, ...]:
        """The numbers of :attr:`results_missing`."""
        return tuple(t.table for t in self.results_missing)

    @property
    def marked(self) -> tuple[TableClock, ...]:
        """The tables still playing that carry a mark (a fixed seat, a featured match),
        in table order: what the projector lists beside the tables still playing."""
        return tuple(t for t in self.tables if t.fixed_seat or t.feature_table)

    @property
    def still_playing(self) -> tuple[TableClock, ...]:
        """Tables still within their own time (an extension keeps them playing)."""
        return tuple(t for t in self.tables if not t.over)

    @property
    def controls(self) -> tuple[tuple[Round, str], ...]:
        """``(round, label)`` of every round under this clock, whose controls it links to."""
        return self.parts or ((self.round, self.label),)

    @property
    def added_text(self) -> str:
        """The time staff added to the round (``"+5 min"``), or ``""``."""
        added = self.round.clock_added_seconds
        return minutes_text(added) if added else ""


def round_times(rnd: Round, now: dt.datetime) -> RoundTimes:
    """The stored clock of ``rnd`` (a round not started yet counts from ``now``)."""
    return RoundTimes(
        started_at=rnd.started_at or now,
        paused_at=rnd.clock_paused_at,
        paused_seconds=rnd.clock_paused_seconds,
        added_seconds=rnd.clock_added_seconds,
    )


def _note(rules: Ruleset, clock: Clock, elimination: bool) -> str:
    """One line saying which time rule applies (pods: MP-TIME-1)."""
    if clock.limit is None:
        return gettext("Time since the round started.")
    if rules.uses_pods and elimination:
        return gettext(
            "Pods that made an intentional draw finish within 150 minutes of the round start."
        )
    if rules.uses_pods:
        return gettext(
            "80 minutes, no extra turns; when time is called the active player finishes the "
            "turn, with a hard 30-minute last-turn limit, then the match is a draw."
        )
    base = rules.elimination_seconds if elimination else rules.round_seconds
    return gettext("%(minutes)s-minute rounds.") % {"minutes": (base or 0) // 60}


def _round_clock(
    rnd: Round, rules: Ruleset, rows: Sequence[MatchRow], now: dt.datetime
) -> RoundClock:
    elimination = rnd.phase in ELIMINATION_PHASES
    final = elimination and len(rows) == 1  # one table and no byes: the final
    complete = rnd.status == RoundStatus.COMPLETE
    if complete and rnd.completed_at is not None:
        now = min(now, rnd.completed_at)  # a complete round's clock stopped with it
    times = round_times(rnd, now)
    clock_of = partial(
        round_clock,
        rules=rules,
        times=times,
        now=now,
        elimination=elimination,
        final=final,
        # MP-TIME-1: the first intentional draw noted in a pod (Match.intentional_draw_at)
        intentional_draw=elimination and any(row[2] is not None for row in rows),
    )
    clock = clock_of()
    pending = sorted(
        (t, extra, seating, feature)
        for t, o, _, extra, seating, feature in rows
        if o == Outcome.PENDING and t
    )
    # each table on its own clock (its extension added), for the end of round.
    tables = tuple(
        TableClock(t, extra, clock_of(extra_seconds=extra) if extra else clock, seating, feature)
        for t, extra, seating, feature in pending
    )
    shown = clock.remaining if clock.limit is not None else clock.elapsed
    return RoundClock(
        round=rnd,
        label=f"{group_label(rnd.group)} · " + gettext("Round %(number)s") % {"number": rnd.number},
        clock=clock,
        text=clock_text(shown),
        note=_note(rules, clock, elimination),
        playing=tuple(t.table for t in tables),
        extensions=tuple(TableTime(t.table, t.extra_seconds) for t in tables if t.extra_seconds),
        started_ms=int(times.started_at.timestamp() * 1000),
        paused_s=times.paused_seconds,
        final=final,
        complete=complete,
        tables=tables,
    )


def _match_rows(rounds: Sequence[Round]) -> dict[int, list[MatchRow]]:
    rows: dict[int, list[MatchRow]] = defaultdict(list)
    values = Match.objects.filter(round__in=rounds).values_list(
        "round_id",
        "table",
        "outcome",
        "intentional_draw_at",
        "extra_seconds",
        "seating",
        "feature_table",
    )
    for round_id, table, outcome, drawn_at, extra, seating, feature in values:
        rows[round_id].append((table, outcome, drawn_at, extra, seating, feature))
    return rows


def timer_for_public(event: Event, now: dt.datetime) -> list[RoundClock]:
    """Every started round of the event with its clock at the server's ``now``. 4 queries."""
    rounds = list(
        Round.objects.filter(event=event, status=RoundStatus.STARTED)
        .select_related("group")
        .prefetch_related("group__divisions")
        .order_by("group__key")
    )
    rows = _match_rows(rounds)
    return merged_clocks([_round_clock(r, event.rules, rows[r.pk], now) for r in rounds])


def _same_clock(c: RoundClock) -> tuple[object, ...]:
    """What two rounds share to show one clock: start, pauses, time added, limit."""
    r = c.round
    return (r.started_at, r.clock_paused_at, c.paused_s, r.clock_added_seconds, c.clock.limit)


def merged_clocks(clocks: Sequence[RoundClock]) -> list[RoundClock]:
    """Rounds started together ("Start all") run under one clock, so the
    projector shows them as one: labels joined, each table still playing (and each time
    extension) once, in table order across the groups. Rounds with a clock of their own
    (started apart, paused, time added) stay apart. In order of each clock's first round."""
    merged: dict[tuple[object, ...], list[RoundClock]] = {}
    for c in clocks:
        merged.setdefault(_same_clock(c), []).append(c)
    out = []
    for group in merged.values():
        first = group[0]
        if len(group) == 1:
            out.append(first)
            continue
        extensions = {t.table: t for c in group for t in c.extensions}
        tables = {t.table: t for c in group for t in c.tables}
        out.append(
            replace(
                first,
                label=", ".join(c.label for c in group),
                playing=tuple(sorted({t for c in group for t in c.playing})),
                extensions=tuple(extensions[t] for t in sorted(extensions)),
                tables=tuple(tables[t] for t in sorted(tables)),
                final=all(c.final for c in group),
                parts=tuple((c.round, c.label) for c in group),
            )
        )
    return out


def clock_for_staff(rnd: Round, now: dt.datetime) -> RoundClock | None:
    """The clock of one round for its staff page, or None before it starts. A complete
    round's clock is the one at its ``completed_at``, marked ``complete`` (it no longer counts). 1 query."""
    if rnd.started_at is None:
        return None
    return _round_clock(rnd, rnd.event.rules, _match_rows([rnd])[rnd.pk], now)
