"""The cut-line outlook: after every standings snapshot, simulate the
rest of each Swiss pairing group and store what it says (``standings.CutOutlook``).

It lives in the pairing layer because the simulation is the Swiss pairing procedure
played forward (``pairings.engine.outlook``); the standings layer, which may not import
pairings, sends its task by name after each snapshot (``standings.services.outlook_send``)
and shows the stored result.

What is simulated, per pairing group (``group_outlook``):

* a group in Day 1 with rounds left: the rest of Day 1, then — for a two-day event —
  the Day 2 cut (P-D2-1) and the Day 2 rounds; each division's top cut (a flight's share
  for a flight, P-FL-5);
* a group in Day 2 (Day 1 over): the rest of Day 2 for the Day 2 players, then the top
  cut;
* a flight of a two-day event as the event plays it (``pairings.procedures.day2``): the
  flight's own Day 2 cut (19 points or the top 32 of the flight, P-D2-1 on the flight's
  standings, ``day2_qualified``), its Day 2 rounds, then its share of the merged top cut
  (P-FL-5) — each flight apart, as nothing crosses flights before the top cut;
* a Swiss of multiplayer pods with a pod top cut: the rest of the pod Swiss
  (``pod_outlook``: the pod pairing engine played forward, ranked on match points,
  MP-POD-1, MP-PAIR-1, MP-PTS-1, MP-SE-1);
* nothing for a group whose Swiss is over (the standings show the cut), a standalone
  bracket, and a division without a top cut (and no Day 2 ahead).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, transaction

from rulesets import Context, get_ruleset
from rulesets.mtg_multiplayer import win_points
from standings import adapters as standings_adapters
from standings.day2_standings import day2_qualified
from standings.engine.day2 import day2_entrants, day2_matches
from standings.engine.flights import FlightsRefused, per_flight_cut
from standings.engine.types import Entrant, MatchRecord
from standings.models import CutOutlook, StandingsSnapshot
from standings.services import group_standings
from standings.swiss_standings import swiss_standings
from tournaments.models import (
    Event,
    GroupPhase,
    PairingGroup,
    Phase,
    Registration,
    RoundStatus,
)
from tournaments.multiplayer import pod_size
from tournaments.procedures import Stage, group_stages
from tournaments.public_pages import public_pages_changed

from .engine.outlook import (
    Chance,
    GroupOutlook,
    OutlookPlan,
    OutlookPlayer,
    PodRules,
    Ranker,
    draw_rate,
    measure_for,
    outlook,
    outlook_players,
    pod_outlook,
)
from .engine.outlook import (
    CutOutlook as EngineCut,
)
from .procedures import event_groups

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class GroupInput:
    """What the engine needs for one group, and how to name its players back."""

    group: PairingGroup
    players: list[OutlookPlayer]
    plan: OutlookPlan
    seed: int
    external: dict[str, str]  # registration id (engine id) → the player's id in files
    flight: int | None
    pods: PodRules | None = None  # a Swiss of multiplayer pods (``pod_outlook``)


def _simulate(i: GroupInput) -> GroupOutlook:
    if i.pods is not None:
        return pod_outlook(i.players, i.plan, i.pods, seed=i.seed)
    return outlook(i.players, i.plan, seed=i.seed)


def outlook_compute(snapshot_id: int) -> CutOutlook | None:
    """Body of the task: compute and store the outlook of snapshot ``snapshot_id``.

    Does nothing (returns None) when the snapshot is gone, is no longer the event's
    latest (a newer one has its own task), already has an outlook (the task ran twice),
    is final, or no group of the event has anything left to simulate. Otherwise stores
    one :class:`~standings.models.CutOutlook` and has the public pages rebuilt."""
    snapshot = StandingsSnapshot.objects.select_related("event").filter(pk=snapshot_id).first()
    if snapshot is None or snapshot.final or CutOutlook.objects.filter(snapshot=snapshot).exists():
        return None
    event = snapshot.event
    latest = event.standings.order_by("-computed_at", "-id").values_list("pk", flat=True).first()
    if latest != snapshot.pk:
        return None
    started = time.perf_counter()
    inputs = [i for g in event_groups(event) if (i := group_input(event, g)) is not None]
    if not inputs:
        return None
    results = [(i, _simulate(i)) for i in inputs]
    data = outlook_json(results)
    try:
        with transaction.atomic():
            stored = CutOutlook.objects.create(
                event=event,
                snapshot=snapshot,
                rounds_complete=snapshot.rounds_complete,
                seed=inputs[0].seed,
                simulations=min(g.simulations for _, g in results),
                seconds=round(time.perf_counter() - started, 3),
                data=data,
            )
            public_pages_changed(event.pk, pairings=False)
    except IntegrityError:  # the same snapshot's task, run twice at once
        return None
    return stored


def outlook_latest(event: Event) -> CutOutlook | None:
    """The outlook of the event's latest standings snapshot, or None (not computed yet,
    or nothing to simulate). 1 query."""
    return (
        CutOutlook.objects.filter(event=event)
        .order_by("-snapshot__computed_at", "-snapshot_id")
        .first()
    )


def group_input(event: Event, group: PairingGroup) -> GroupInput | None:
    """The engine's input for ``group``, or None when it has nothing to simulate (see
    the module notes). A few queries: the group's standings and matches."""
    stages = group_stages(event, group)
    if group.phase != GroupPhase.SWISS or not {Stage.SWISS, Stage.POD_SWISS} & set(stages):
        return None
    divisions = sorted(group.divisions.all(), key=lambda d: d.code)
    if Stage.POD_SWISS in stages:
        return _pods_input(event, group, divisions)
    day1_total = max((d.rounds for d in divisions), default=0)
    day2_total = event.day2_rounds if Stage.DAY2 in stages else 0
    cuts = _cuts(divisions, group)
    if not cuts and not day2_total:
        return None
    done = {
        phase: group.rounds.filter(phase=phase, status=RoundStatus.COMPLETE).count()
        for phase in (Phase.SWISS, Phase.SWISS_DAY2)
    }
    if not done[Phase.SWISS]:
        return None
    if done[Phase.SWISS] < day1_total:
        return _day1_input(event, group, cuts, day1_total, day2_total, done[Phase.SWISS])
    if day2_total and done[Phase.SWISS_DAY2] < day2_total:
        return _day2_input(event, group, cuts, day1_total, day2_total, done[Phase.SWISS_DAY2])
    return None


def _cuts(divisions: list[Any], group: PairingGroup) -> dict[str, int]:
    """Top-cut places per division; a flight's share for a flight (P-FL-5)."""
    cuts: dict[str, int] = {}
    for d in divisions:
        if not d.cut:
            continue
        if group.flight is None:
            cuts[d.code] = d.cut
            continue
        try:
            cuts[d.code] = per_flight_cut(d.cut, max(d.flights, 1))
        except FlightsRefused:
            continue
    return cuts


def _seed(group: PairingGroup) -> int:
    """The seed of a group's simulations: its last complete round's pairing seed (I-1)
    and the group, so the same standings always give the same outlook. 0 ≤ seed < 2**63."""
    last = (
        group.rounds.filter(status=RoundStatus.COMPLETE)
        .order_by("-number")
        .values_list("seed", flat=True)
        .first()
    )
    # kept below 2**63: the seed is stored in a bigint column (CutOutlook.seed)
    return (abs(int(last or 0)) * 1_000_003 + group.pk) % 2**63


def _first_tiebreakers(lines: Any, column: str | None) -> dict[str, float]:
    if column is None:
        return {}
    return {line.player: float(Fraction(line.tiebreakers.get(column, 0))) for line in lines}


def _ranker(event: Event, entrants: list[Entrant], past: list[MatchRecord], rounds: int) -> Ranker:
    """The ruleset's own standings of a simulated ending (``OutlookPlan.rank``)."""
    ruleset = get_ruleset(event.ruleset)

    def rank(simulated: Any, seed: int) -> list[str]:
        if ruleset.game_record:  # a simulated match is won 2-1 in games, a draw 1-1-1
            simulated = [_with_games(m) for m in simulated]
        ctx = Context(rounds=rounds, seed=seed, options=event.options)
        return [line.player for line in ruleset.standings(entrants, [*past, *simulated], ctx)]

    return rank


def _with_games(m: MatchRecord) -> MatchRecord:
    if len(m.players) != 2:
        return m
    if m.winner is None:
        return replace(m, games=(1, 1, 1))
    return replace(m, games=(2, 1, 0) if m.winner == m.players[0] else (1, 2, 0))


def _day1_input(
    event: Event,
    group: PairingGroup,
    cuts: dict[str, int],
    day1_total: int,
    day2_total: int,
    done: int,
) -> GroupInput:
    ruleset = get_ruleset(event.ruleset)
    ps = swiss_standings(event, group)
    regs = list(ps.registrations.values())
    entrants = standings_adapters.entrants(regs)
    matches = [m for m in standings_adapters.match_records(group) if m.round <= done]
    columns = [c.key for c in ruleset.columns]
    measure = measure_for(columns, event.options)
    players = outlook_players(
        entrants,
        matches,
        measure=measure,
        points_win=ruleset.points_win,
        points_tie=ruleset.points_tie,
        divisions={str(r.pk): r.division.code for r in regs},
        first_tiebreakers=_first_tiebreakers(ps.rows, columns[0] if measure else None),
    )
    plan = OutlookPlan(
        rounds_left=day1_total - done,
        cuts=cuts,
        day2_rounds=day2_total,
        points_win=ruleset.points_win,
        points_tie=ruleset.points_tie,
        draw_rate=draw_rate(matches),
        age_modified=len({r.division_id for r in regs}) > 1,
        measure=measure,
        rounds_total=day1_total,
        day2_total=day1_total + day2_total,
        played=done,
        rank=None if day2_total else _ranker(event, entrants, matches, day1_total),
    )
    return GroupInput(group, players, plan, _seed(group), _external(regs), group.flight)


def _day2_input(
    event: Event,
    group: PairingGroup,
    cuts: dict[str, int],
    day1_total: int,
    day2_total: int,
    done: int,
) -> GroupInput:
    """Day 2 (R-3): the Day 2 players, points of both days, Day 2 tiebreakers."""
    ruleset = get_ruleset(event.ruleset)
    day1 = swiss_standings(event, group)
    qualified = set(day2_qualified(event, group, day1))
    regs = [r for pk, r in day1.registrations.items() if pk in qualified]
    carried = {line.player: line.match_points for line in day1.rows if line.player in qualified}
    both = group_standings(event, group)
    entrants = list(day2_entrants(standings_adapters.entrants(regs), day1.rounds))
    played = [
        m
        for m in standings_adapters.match_records(group, phases=(Phase.SWISS_DAY2,))
        if m.round <= day1.rounds + done
    ]
    matches = list(day2_matches(played, day1.rounds))
    seen = [m for m in standings_adapters.match_records(group) if m.round <= day1.rounds]
    columns = [c.key for c in ruleset.columns]
    measure = measure_for(columns, event.options)
    lines = [line for line in both.rows if line.player in qualified]
    players = outlook_players(
        entrants,
        matches,
        measure=measure,
        points_win=ruleset.points_win,
        points_tie=ruleset.points_tie,
        divisions={str(r.pk): r.division.code for r in regs},
        carried=carried,
        first_tiebreakers=_first_tiebreakers(lines, columns[0] if measure else None),
    )
    plan = OutlookPlan(
        rounds_left=day2_total - done,
        cuts=cuts,
        points_win=ruleset.points_win,
        points_tie=ruleset.points_tie,
        draw_rate=draw_rate([*seen, *matches]),
        age_modified=len({r.division_id for r in regs}) > 1,
        measure=measure,
        rounds_total=day1_total + day2_total,
        day2_total=day1_total + day2_total,
        played=done,
    )
    return GroupInput(group, players, plan, _seed(group), _external(regs), group.flight)


def _pods_input(event: Event, group: PairingGroup, divisions: list[Any]) -> GroupInput | None:
    """A Swiss of multiplayer pods (``pod_outlook``): each player's match points (the
    pod standings'), pod-mates and smaller pods so far, the share of pods drawn, and the
    pod top cut of each division (MP-SE-1)."""
    cuts = {d.code: d.cut for d in divisions if d.cut}
    total = max((d.rounds for d in divisions), default=0)
    done = group.rounds.filter(phase=Phase.SWISS, status=RoundStatus.COMPLETE).count()
    if not cuts or not done or done >= total:
        return None
    ruleset = get_ruleset(event.ruleset)
    standard = pod_size(event)
    ps = swiss_standings(event, group)
    regs = list(ps.registrations.values())
    matches = [m for m in standings_adapters.match_records(group) if m.round <= done]
    mates: dict[str, set[str]] = {str(r.pk): set() for r in regs}
    small: dict[str, int] = {}
    for m in matches:
        if len(m.players) < 2:
            continue
        for pid in m.players:
            mates.setdefault(pid, set()).update(q for q in m.players if q != pid)
            if len(m.players) < standard:
                small[pid] = small.get(pid, 0) + 1
    points = {line.player: line.match_points for line in ps.rows}
    players = [
        OutlookPlayer(
            id=e.id,
            division=str(r.division.code),
            match_points=points.get(e.id, 0),
            active=e.dropped_after_round is None and not e.disqualified,
            late=e.late,
            opponents=tuple(sorted(mates.get(e.id, ()))),
        )
        for r, e in zip(regs, standings_adapters.entrants(regs), strict=True)
    ]
    plan = OutlookPlan(
        rounds_left=total - done,
        cuts=cuts,
        points_win=win_points(event.options),
        points_tie=ruleset.points_tie,
        draw_rate=draw_rate(matches),
        measure=None,
        rounds_total=total,
        played=done,
    )
    return GroupInput(
        group, players, plan, _seed(group), _external(regs), None, PodRules(standard, small)
    )


def _external(regs: list[Registration]) -> dict[str, str]:
    return {str(r.pk): r.external_id for r in regs}


def _chance(c: Chance, places: int, flight: int | None) -> dict[str, Any]:
    return {
        "places": places,
        "flight": flight,
        "verdict": str(c.verdict),
        "share": round(c.share, 4),
        "if_win": None if c.if_win is None else round(c.if_win, 4),
        "if_loss": None if c.if_loss is None else round(c.if_loss, 4),
        "if_win_verdict": str(c.if_win_verdict),
    }


def _cut_json(i: GroupInput, g: GroupOutlook, cut: EngineCut) -> dict[str, Any]:
    return {
        "kind": str(cut.kind),
        "division": cut.division,
        "divisions": sorted({p.division for p in i.players}),
        "flight": i.flight,
        "places": cut.places,
        "qualify": cut.qualify,
        "rounds_left": g.rounds_left + (i.plan.day2_rounds if cut.kind == "top-cut" else 0),
        "draw_rate": round(g.draw_rate, 4),
        "seed": g.seed,
        "simulations": g.simulations,
        "records": [
            {
                "points": r.points,
                "record": r.record,
                "verdict": str(r.verdict),
                "finishes": round(r.finishes, 3),
                "share": None if r.share is None else round(r.share, 4),
            }
            for r in cut.records
        ],
    }


def outlook_json(results: list[tuple[GroupInput, GroupOutlook]]) -> dict[str, Any]:
    """The stored form of the outlooks (``CutOutlook.data``): ``cuts``, one per cut
    (kind ``top-cut`` or ``day2``, its division or divisions, flight, places, rounds
    left, the draw rate, seed and number of simulated endings used, and its final
    records: points, usual record,
    verdict, finishes per ending, share that made it), and ``players``: by the player's
    id in files, ``{"top-cut": chance, "day2": chance}`` with each chance's verdict
    (``in`` / ``out`` / ``open``), share 0–1, the shares after a win or a loss next
    round, whether a win next round proves it (``if_win_verdict``), and the cut's places
    and flight. Shares are rounded to 4 decimals."""
    cuts: list[dict[str, Any]] = []
    players: dict[str, dict[str, Any]] = {}
    for i, g in results:
        for cut in g.cuts:
            cuts.append(_cut_json(i, g, cut))
            for pid, chance in cut.players.items():
                chances = players.setdefault(i.external[pid], {})
                chances[str(cut.kind)] = _chance(chance, cut.places, i.flight)
    return {"cuts": cuts, "players": players}
