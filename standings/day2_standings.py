"""Swiss standings of a two-day event after Day 2 (P-D2-2, R-3).

Who makes Day 2 is :func:`day2_qualified` (P-D2-1: ``standings.engine.day2.day2_cut`` over
the Day 1 standings; once Day 2 has started, the players seated in its first round).
Day 2 players are ordered by total match points (Day 1 carried + Day 2), then tardiness,
then OWP and OOWP computed over the Day 2 rounds only (``standings.engine.day2``); the
players who did not make Day 2 follow in their Day 1 order, which never changes (as
P-TC-2 for a top cut). A Day 2 player's line shows the record of both days and the Day 2
tiebreakers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesets import Context, Line, get_ruleset
from tournaments.models import Event, MatchSeat, PairingGroup, Phase, RoundStatus

from . import adapters
from .engine.day2 import day2_cut, day2_entrants, day2_matches, day2_order
from .swiss_standings import GroupStandings, Source, dropped_below, swiss_standings


@dataclass(frozen=True)
class _Row:
    """A Day-2-only standings line as ``day2_order`` reads it."""

    player: str
    match_points: int
    dropped: bool
    late: bool
    owp: Fraction
    oowp: Fraction


def day2_qualified(
    event: Event, group: PairingGroup, day1: GroupStandings | None = None
) -> list[str]:
    """Registration ids (as strings) of the players in Day 2 of ``group``, in Day 1
    standing order for the cut (P-D2-1): 19+ match points or the top 32, dropped and
    disqualified players passed over. Once Day 2 has started: those seated in its first
    round. ``day1``: the group's Day 1 standings when the caller has them (else computed)."""
    first = group.rounds.filter(phase=Phase.SWISS_DAY2).order_by("number").first()
    if first is not None:
        seats = MatchSeat.objects.filter(round=first).values_list("registration_id", flat=True)
        return [str(r) for r in seats]
    ps = day1 if day1 is not None else swiss_standings(event, group, lean=True)
    regs = ps.registrations
    rows = [
        (row.player, row.match_points)
        for row in ps.rows
        if not regs[row.player].dropped and not regs[row.player].disqualified
    ]
    return list(day2_cut(rows))


def _day2_lines(
    event: Event, ps: GroupStandings, qualified: list[str], done: list[Any]
) -> tuple[list[Line], Source]:
    """The Day-2-only standings of the Day 2 players (rounds and drops renumbered from 1,
    P-D2-2): a player who dropped during Day 2 keeps the Day 2 OWP and OOWP of the round
    they dropped (R-2 with R-3); with the call's inputs (the receipts count from them)."""
    matches = [
        m
        for m in adapters.match_records(ps.group, phases=(Phase.SWISS_DAY2,))
        if m.round <= done[-1].number
    ]
    ctx = Context(rounds=len(done), seed=done[-1].seed, options=event.options)
    entrants = adapters.entrants([ps.registrations[p] for p in qualified])
    source = Source(
        day2_entrants(entrants, ps.rounds),
        day2_matches(matches, ps.rounds),
        ctx,
        offset=ps.rounds,
        day2=True,
    )
    return source.lines(get_ruleset(event.ruleset)), source


def _both_days_records(
    event: Event, ps: GroupStandings, qualified: list[str], done: list[Any]
) -> dict[str, str]:
    """``{player: record}`` of the Day 2 players over both days, as the ruleset writes a
    record (counted from the matches, never by adding record texts)."""
    matches = [
        m
        for m in adapters.match_records(ps.group, phases=(Phase.SWISS, Phase.SWISS_DAY2))
        if m.round <= done[-1].number
    ]
    ctx = Context(rounds=ps.rounds + len(done), seed=done[-1].seed, options=event.options)
    entrants = adapters.entrants(list(ps.registrations.values()))  # Day 1 opponents too
    lines = get_ruleset(event.ruleset).standings(entrants, matches, ctx)
    wanted = set(qualified)
    return {line.player: line.record for line in lines if line.player in wanted}


def _row(line: Line, ps: GroupStandings) -> _Row:
    reg = ps.registrations[line.player]
    owp, oowp = line.tiebreakers.get("owp", 0), line.tiebreakers.get("oowp", 0)
    return _Row(
        line.player, line.match_points, reg.dropped, reg.late, Fraction(owp), Fraction(oowp)
    )


def with_day2(event: Event, ps: GroupStandings) -> GroupStandings:
    """``ps`` (Day 1 standings) re-ordered after the complete Day 2 rounds, if any."""
    done = ps.group.rounds.filter(phase=Phase.SWISS_DAY2, status=RoundStatus.COMPLETE)
    day2_done = list(done.order_by("number"))
    if not day2_done:
        return ps
    qualified = day2_qualified(event, ps.group, ps)
    lines, source = _day2_lines(event, ps, qualified, day2_done)
    day1 = {row.player: row for row in ps.rows}
    carried = {p: day1[p].match_points for p in qualified}
    by_id = {line.player: line for line in lines}
    records = _both_days_records(event, ps, qualified, day2_done)
    merged = [
        Line(
            p,
            carried[p] + by_id[p].match_points,
            records[p],
            by_id[p].tiebreakers,
        )
        for p in day2_order([_row(line, ps) for line in lines], carried)
    ]
    rounds = ps.rounds + len(day2_done)
    merged = list(dropped_below(event, merged, ps.registrations, rounds))
    rest = [row for row in ps.rows if row.player not in carried]
    sources = {**ps.sources, **{p: (*ps.sources.get(p, ()), source) for p in qualified}}
    return GroupStandings(ps.group, rounds, (*merged, *rest), ps.registrations, sources)
