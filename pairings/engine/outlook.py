"""The cut-line outlook of one pairing group: after a Swiss round,
each player's chance of making the top cut (and Day 2, P-D2-1), which final records are
in, out or depend on the rest, and what a win next round would change.

Two kinds of answer, never mixed:

* **Proven** (``standings.engine.cutline``): "in" and "out" on match points alone, true
  for any pairing and any result. Only these are shown as "in" / "out".
* **Estimated**: ``simulations`` endings of the remaining Swiss rounds, played with the
  pairing rules of ``swiss.pair_swiss`` in compact form (``_outlook_sim``: score
  brackets, pair-downs, the bye, division over record, rematches avoided in groups of up
  to 63 players) and the event's own state: its byes, its drops so far (nobody else
  drops), the draw rate seen so far, results otherwise even. Each ending is ranked as
  the standings rank: match points, on time before late (P-TB-1), the ruleset's first
  tiebreaker (Pokémon OWP, Magic OMW) and, where the ruleset has it, the second (OOWP),
  then at random (head to head and the last opponent's standing, P-TB-4 and P-TB-6, are
  left to the random draw). A two-day event still in Day 1 plays the Day 2 cut (19
  points or the top 32, P-D2-1) and the Day 2 rounds with Day 2 tiebreakers (R-3).

The simulations are seeded (``seed``) and reproducible: the same group, plan, seed and
count give the same figures. Probabilities are floats 0–1: they are estimates, not
tiebreakers, so no exact arithmetic is owed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from standings.engine.cutline import (
    Contender,
    Cut,
    Field,
    Verdict,
    player_verdict,
    record_verdict,
)
from standings.engine.day2 import DAY2_POINTS, DAY2_TOP
from standings.engine.types import Entrant, MatchRecord, Outcome

from . import _outlook_sim as sim

#: The fewest simulated endings of any group: 800 players take about 1.6 s (bench/outlook.py).
SIMULATIONS = 10_000
#: Smaller groups play more endings for the same work (players × endings ≈ this), up to
#: :data:`MOST_SIMULATIONS`: an 8-player estimate's standard error falls from 0.5 to
#: 0.22 percentage points, where a tiebreaker often decides.
WORK = 4_000_000
MOST_SIMULATIONS = 50_000
#: Groups up to this size rank an ending still level at the last place after the
#: simulated tiebreakers with the ruleset's own standings (``OutlookPlan.rank``).
EXACT_FINISH = 64

#: (the simulated matches of one ending, a seed for the I-6 draw) → every player id
#: in the ruleset's standings order, the matches played before included.
Ranker = Callable[[Sequence[MatchRecord], int], Sequence[str]]


class CutKind(StrEnum):
    """Which cut an outlook is about."""

    TOP_CUT = "top-cut"  # P-TC-1 (a flight's share: P-FL-5)
    DAY2 = "day2"  # P-D2-1


@dataclass(frozen=True, slots=True)
class OutlookPlayer:
    """One player of the pairing group.

    match_points: so far (both days in Day 2). score / counted: the numerator and
    denominator of the player's own win measure over the tiebreaker phase (Day 2 only
    once in Day 2, R-3), as :class:`WinMeasure` counts them (Pokémon: 2·wins + ties over
    twice the rounds counted, byes left out). active: still playing (False once dropped or
    disqualified: they play no more and take no place). late: tardy (P-TB-1). had_bye:
    P-SW-5. opponents: ids met in the tiebreaker phase, one per match, byes left out.
    first_tiebreaker: for a player no longer active, their first tiebreaker as the
    standings froze it (R-2), 0–1; None otherwise.
    """

    id: str
    division: str = "open"
    match_points: int = 0
    score: int = 0
    counted: int = 0
    active: bool = True
    late: bool = False
    had_bye: bool = False
    opponents: tuple[str, ...] = ()
    first_tiebreaker: float | None = None


@dataclass(frozen=True, slots=True)
class WinMeasure:
    """A ruleset's own win measure and the tiebreakers averaged from it.

    win / tie / loss / bye: what one result adds to (numerator, denominator); the
    measure is numerator ÷ denominator (each at most 127 and 255 over the event). floor:
    every value's minimum; cap: the maximum of a player who dropped (R-2). empty: the
    first tiebreaker of a player without opponents. second: the second tiebreaker is the
    opponents' mean of the first (OOWP, P-TB-3).
    """

    win: tuple[int, int]
    tie: tuple[int, int]
    loss: tuple[int, int]
    bye: tuple[int, int]
    floor: float
    cap: float = 1.0
    empty: float = 0.0
    second: bool = False


#: P-TB-2, P-TB-3, R-1, R-2: (wins + ½ ties) ÷ rounds counted, byes out, ¼ … ¾
#: (counted in halves: 2 per win, 1 per tie, over 2 per round).
POKEMON = WinMeasure(
    win=(2, 2), tie=(1, 2), loss=(0, 2), bye=(0, 0), floor=0.25, cap=0.75, second=True
)


def magic(floor: float) -> WinMeasure:
    """M-TB-1, M-TB-3: match points ÷ (3 × rounds played, byes included), floored."""
    return WinMeasure(win=(3, 3), tie=(1, 3), loss=(0, 3), bye=(3, 3), floor=floor, empty=floor)


#: The first tiebreaker column a ruleset ranks by → its measure (options → measure).
#: Rulesets whose first column is not here are ranked at random after match points.
MEASURES: dict[str, Callable[[Mapping[str, Any]], WinMeasure]] = {
    "owp": lambda options: POKEMON,
    "omw": lambda options: magic(mwp_floor(options)),
}


def mwp_floor(options: Mapping[str, Any]) -> float:
    """The MW% floor of a Magic event (R-7): 0.33, or 1/3 when the option says so."""
    return 1 / 3 if str(options.get("mwp_floor", "0.33")) == "1/3" else 0.33


_UNRANKED = WinMeasure(win=(0, 0), tie=(0, 0), loss=(0, 0), bye=(0, 0), floor=0.0)


def measure_for(columns: Sequence[str], options: Mapping[str, Any]) -> WinMeasure | None:
    """The :class:`WinMeasure` of a ruleset whose tiebreaker columns are ``columns``
    (keys, in order), or None when its first tiebreaker is not simulated."""
    make = MEASURES.get(columns[0]) if columns else None
    return make(options) if make else None


def outlook_players(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    *,
    measure: WinMeasure | None,
    points_win: int,
    points_tie: int,
    divisions: Mapping[str, str] | None = None,
    carried: Mapping[str, int] | None = None,
    first_tiebreakers: Mapping[str, float] | None = None,
) -> list[OutlookPlayer]:
    """The :class:`OutlookPlayer` of every entrant from the matches of the tiebreaker
    phase (the standings engine's own inputs; pending matches ignored).

    Match points: ``points_win`` per win or bye, ``points_tie`` per tie, plus
    ``carried`` (Day 1's points once in Day 2, R-3). The win measure counts every
    result as ``measure`` says (a double loss and a late-entry loss as losses, I-5,
    R-6). ``divisions``: id → division code (default ``open``). ``first_tiebreakers``:
    the standings' first tiebreaker of every player (frozen for those who dropped,
    R-2). Raises ValueError for a match naming an unknown player."""
    m = measure or _UNRANKED
    known = {e.id for e in entrants}
    tally: dict[str, list[int]] = {e.id: [0, 0, 0] for e in entrants}  # points, score, counted
    met: dict[str, list[str]] = {e.id: [] for e in entrants}
    byes: set[str] = set()

    def add(pid: str, points: int, step: tuple[int, int]) -> None:
        if pid not in known:
            raise ValueError(f"round {match.round}: {pid!r} is not an entrant")
        t = tally[pid]
        t[0], t[1], t[2] = t[0] + points, t[1] + step[0], t[2] + step[1]

    for match in matches:
        players, oc = match.players, match.outcome
        if oc == Outcome.PENDING:
            continue
        if oc == Outcome.BYE:
            add(players[0], points_win, m.bye)
            byes.add(players[0])
        elif oc == Outcome.LATE_LOSS:
            add(players[0], 0, m.loss)
        elif len(players) == 2:
            for me, other in (players, players[::-1]):
                if oc == Outcome.DRAW:
                    add(me, points_tie, m.tie)
                elif oc == Outcome.WIN and match.winner == me:
                    add(me, points_win, m.win)
                else:
                    add(me, 0, m.loss)
                met[me].append(other)
    carry, tiebreak, division = carried or {}, first_tiebreakers or {}, divisions or {}
    return [
        OutlookPlayer(
            id=e.id,
            division=division.get(e.id, "open"),
            match_points=tally[e.id][0] + carry.get(e.id, 0),
            score=tally[e.id][1],
            counted=tally[e.id][2],
            active=e.dropped_after_round is None and not e.disqualified,
            late=e.late,
            had_bye=e.id in byes,
            opponents=tuple(met[e.id]),
            first_tiebreaker=tiebreak.get(e.id),
        )
        for e in entrants
    ]


def draw_rate(matches: Sequence[MatchRecord]) -> float:
    """The share of decided two-player matches that were drawn, 0–1 (0 with none)."""
    decided = [m for m in matches if m.outcome in (Outcome.WIN, Outcome.DRAW)]
    drawn = sum(m.outcome == Outcome.DRAW for m in decided)
    return drawn / len(decided) if decided else 0.0


@dataclass(frozen=True)
class OutlookPlan:
    """What is left of the group's Swiss and what is cut.

    rounds_left: Swiss rounds still to play in the current phase. cuts: top-cut places
    per division (0 or absent: no cut; a flight's share for a flight, P-FL-5).
    day2_rounds: Day 2 rounds still to come after this phase (a two-day event in Day 1;
    the Day 2 cut, P-D2-1, is then simulated too), else 0. points_win / points_tie: the
    ruleset's match points. draw_rate: share of matches drawn so far, 0–1.
    age_modified: the group pairs several divisions, division over record (P-AGE-3).
    rounds_total: Swiss rounds a player has played when the current phase ends (record
    labels); day2_total: both days, for the top cut after Day 2. played: the rounds
    played so far in the tiebreaker phase (simulated rounds are numbered after them).
    rank: the ruleset's own standings (:data:`Ranker`), for groups of up to
    :data:`EXACT_FINISH` players whose ending is still level at the last place after
    the simulated tiebreakers (head to head, last opponent, P-TB-4, P-TB-6); None: at
    random.
    """

    rounds_left: int
    cuts: Mapping[str, int]
    day2_rounds: int = 0
    points_win: int = 3
    points_tie: int = 1
    draw_rate: float = 0.0
    age_modified: bool = False
    measure: WinMeasure | None = POKEMON
    rounds_total: int = 0
    day2_total: int = 0
    played: int = 0
    rank: Ranker | None = None


@dataclass(frozen=True, slots=True)
class Chance:
    """One player's outlook for one cut.

    verdict: IN / OUT when proven, else OPEN. share: simulated endings in which they
    made it, 0–1. if_win / if_loss: the same among the endings where they win (a bye
    counts) / lose the next round; None when no such ending was simulated.
    if_win_verdict: IN when a win next round proves it, else OPEN.
    """

    verdict: Verdict
    share: float
    if_win: float | None = None
    if_loss: float | None = None
    if_win_verdict: Verdict = Verdict.OPEN


@dataclass(frozen=True, slots=True)
class RecordChance:
    """A final number of match points in one cut's division.

    record: the usual record for them (``"6-2-1"``: most wins, then ties). verdict: IN,
    OUT or DEPENDS (proven, ``cutline.record_verdict``). finishes: players finishing
    with them per simulated ending, on average. share: of those, the part that made the
    cut (None when nobody finished with them).
    """

    points: int
    record: str
    verdict: Verdict
    finishes: float
    share: float | None


@dataclass(frozen=True)
class CutOutlook:
    """The outlook of one cut: a division's top cut, or a group's Day 2 (``division``
    None: every division of the group)."""

    kind: CutKind
    division: str | None
    places: int
    qualify: int | None
    records: tuple[RecordChance, ...]
    players: Mapping[str, Chance]


@dataclass(frozen=True)
class GroupOutlook:
    """Every cut's outlook for the group, with the simulation's parameters."""

    cuts: tuple[CutOutlook, ...]
    simulations: int
    seed: int
    rounds_left: int
    draw_rate: float


@dataclass
class _Tally:
    """Counts summed over every chunk of simulations for one cut."""

    made: np.ndarray[Any, np.dtype[np.int64]]
    won: np.ndarray[Any, np.dtype[np.int64]]
    won_made: np.ndarray[Any, np.dtype[np.int64]]
    lost: np.ndarray[Any, np.dtype[np.int64]]
    lost_made: np.ndarray[Any, np.dtype[np.int64]]
    finishes: np.ndarray[Any, np.dtype[np.int64]]
    finishes_made: np.ndarray[Any, np.dtype[np.int64]]

    @classmethod
    def empty(cls, n: int, top: int) -> _Tally:
        players = [np.zeros(n, dtype=np.int64) for _ in range(5)]
        points = [np.zeros(top + 1, dtype=np.int64) for _ in range(2)]
        return cls(*players, *points)

    def add(
        self,
        made: sim.Bool,
        eligible: sim.Bool,
        points: sim.I32,
        first: sim.I32 | None,
        start: sim.I32,
        gain: int,
    ) -> None:
        """Add one chunk: who made it, who could, everyone's points (by player), their
        points after the next round (None: no round left) and before it."""
        self.made += made.sum(axis=0)
        if first is not None:
            won = first - start == gain
            lost = first == start
            self.won += won.sum(axis=0)
            self.won_made += (won & made).sum(axis=0)
            self.lost += lost.sum(axis=0)
            self.lost_made += (lost & made).sum(axis=0)
        size = self.finishes.size
        self.finishes += np.bincount(points[eligible], minlength=size)[:size]
        self.finishes_made += np.bincount(points[made & eligible], minlength=size)[:size]


@dataclass
class _Cut:
    """One cut to tally: its kind, division (None: the group), places and threshold."""

    kind: CutKind
    division: str | None
    places: int
    qualify: int | None
    tally: _Tally


def simulations_for(players: int) -> int:
    """How many endings to simulate for a group of ``players``: at least
    :data:`SIMULATIONS`, more for small groups (:data:`WORK`, :data:`MOST_SIMULATIONS`)."""
    return max(SIMULATIONS, min(MOST_SIMULATIONS, WORK // max(players, 1)))


def outlook(
    players: Sequence[OutlookPlayer],
    plan: OutlookPlan,
    *,
    seed: int,
    simulations: int | None = None,
) -> GroupOutlook:
    """Simulate the rest of the group's Swiss ``simulations`` times (default
    :func:`simulations_for` the group's size; module notes) and prove what match points
    prove.

    players: every player of the pairing group, active or not (the inactive ones still
    count in their opponents' tiebreakers). Returns a :class:`GroupOutlook` with one
    :class:`CutOutlook` per division with a cut (``plan.cuts``) and, for a two-day event
    in Day 1, one for Day 2. Raises ValueError for an unknown opponent id, a player
    listed twice or fewer than 1 simulation. Implements P-TC-1, P-D2-1, P-FL-5 (the
    flight's share comes in ``plan.cuts``), with P-SW-2…5 and P-AGE-3 in the simulation.
    """
    if simulations is None:
        simulations = simulations_for(len(players))
    if simulations < 1:
        raise ValueError("at least one simulation is needed")
    group = _group(players, plan)
    rules = _rules(plan)
    divisions = sorted({p.division for p in players})
    top = int((group.packed >> sim.POINTS).max(initial=0)) + plan.points_win * (
        plan.rounds_left + plan.day2_rounds
    )
    cuts = _cuts(plan, divisions, group.n, top)
    rng = np.random.default_rng(seed)
    ids = [p.id for p in players]
    chunk = max(1, min(simulations, sim.CHUNK_CELLS // max(group.n, 1)))
    done = 0
    while done < simulations:
        rows = min(chunk, simulations - done)
        _run_chunk(group, rules, plan, cuts, divisions, ids, rows, rng, top)
        done += rows
    return GroupOutlook(
        cuts=tuple(_answer(c, players, plan, simulations) for c in cuts),
        simulations=simulations,
        seed=seed,
        rounds_left=plan.rounds_left,
        draw_rate=plan.draw_rate,
    )


def _group(players: Sequence[OutlookPlayer], plan: OutlookPlan) -> sim.Group:
    index = {p.id: i for i, p in enumerate(players)}
    if len(index) != len(players):
        raise ValueError("a player is listed twice")
    n = len(players)
    width = max((len(p.opponents) for p in players), default=0)
    past = np.full((n, width), n, dtype=np.intp)
    for i, p in enumerate(players):
        for k, o in enumerate(p.opponents):
            if o not in index:
                raise ValueError(f"unknown opponent {o!r} of {p.id!r}")
            past[i, k] = index[o]
    divisions = sorted({p.division for p in players})
    frozen = [
        np.nan if p.active or p.first_tiebreaker is None else p.first_tiebreaker for p in players
    ]
    packed = [
        (p.match_points << sim.POINTS)
        | (len(p.opponents) << sim.MATCHES)
        | (p.counted << sim.COUNTED)
        | (sim.HAD_BYE if p.had_bye else 0)
        | (p.score << sim.SCORE)
        for p in players
    ]
    return sim.Group(
        packed=np.array(packed, dtype=np.int32),
        active=np.array([p.active for p in players], dtype=bool),
        late=np.array([p.late for p in players], dtype=bool),
        division=np.array([divisions.index(p.division) for p in players], dtype=np.int16),
        past=past,
        frozen1=np.array(frozen, dtype=np.float64),
        age_modified=plan.age_modified,
    )


def _rules(plan: OutlookPlan) -> sim.Rules:
    m = plan.measure or _UNRANKED
    by_code = ((0, 0), m.loss, m.tie, m.win, m.bye)  # NONE, LOSS, TIE, WIN, BYE
    gain = (0, 0, plan.points_tie, plan.points_win, plan.points_win)
    matches = (0, 1, 1, 1, 0)
    step = [
        (g << sim.POINTS) | (k << sim.MATCHES) | (c << sim.COUNTED) | (sc << sim.SCORE)
        for g, k, (sc, c) in zip(gain, matches, by_code, strict=True)
    ]
    return sim.Rules(
        step=np.array(step, dtype=np.int32),
        floor=m.floor,
        cap=m.cap,
        empty1=m.empty,
        second=m.second,
        draw=plan.draw_rate,
        ranked=plan.measure is not None,
    )


def _cuts(plan: OutlookPlan, divisions: list[str], n: int, top: int) -> list[_Cut]:
    out: list[_Cut] = []
    if plan.day2_rounds:
        out.append(_Cut(CutKind.DAY2, None, DAY2_TOP, DAY2_POINTS, _Tally.empty(n, top)))
    for d in divisions:
        if plan.cuts.get(d, 0) > 0:
            out.append(_Cut(CutKind.TOP_CUT, d, plan.cuts[d], None, _Tally.empty(n, top)))
    return out


def _run_chunk(
    g: sim.Group,
    r: sim.Rules,
    plan: OutlookPlan,
    cuts: list[_Cut],
    divisions: list[str],
    ids: list[str],
    rows: int,
    rng: np.random.Generator,
    top: int,
) -> None:
    """Play ``rows`` endings and add them to every cut's tally."""
    s = sim.start(g, rows, rng)
    start = np.broadcast_to(g.packed >> sim.POINTS, (rows, g.n))
    for _ in range(plan.rounds_left):
        sim.play_round(g, r, s, rng, top)
    first = _first_points(s, g.n)
    if plan.day2_rounds:
        day2 = next(c for c in cuts if c.kind == CutKind.DAY2)
        ending = sim.Ending(g, r, s)
        points, active = ending.points, ending.active
        qualified = active & (points >= DAY2_POINTS)
        # The top 32 matter only where fewer than 32 have the points (P-D2-1).
        short = qualified.sum(axis=1) < DAY2_TOP
        if short.any():
            finish = _finish(ending, plan, ids, rng)
            qualified |= sim.cut(ending, g.late, active & short[:, None], DAY2_TOP, rng, finish)
        day2.tally.add(qualified, active, points, first, start, plan.points_win)
        sim.day2(s, qualified)
        for _ in range(plan.day2_rounds):
            sim.play_round(g, r, s, rng, top)
        first = first if first is not None else _first_points(s, g.n)
    ending = sim.Ending(g, r, s)
    finish = _finish(ending, plan, ids, rng) if not plan.day2_rounds else None
    for c in cuts:
        if c.kind == CutKind.TOP_CUT:
            eligible = ending.active & (g.division == divisions.index(c.division or ""))
            made = sim.cut(ending, g.late, eligible, c.places, rng, finish)
            c.tally.add(made, eligible, ending.points, first, start, plan.points_win)


def _finish(
    ending: sim.Ending, plan: OutlookPlan, ids: list[str], rng: np.random.Generator
) -> sim.Finish | None:
    """The exact finish of a small group's endings (:data:`EXACT_FINISH`), else None."""
    rank = plan.rank
    if rank is None or ending.g.n > EXACT_FINISH:
        return None
    index = {pid: i for i, pid in enumerate(ids)}

    def finish(row: int, entries: list[int]) -> list[int]:
        matches = _simulated_matches(ending.tables(row), ids, plan.played)
        order = rank(matches, int(rng.integers(1 << 31)))
        place = {index[pid]: k for k, pid in enumerate(order)}
        return sorted(entries, key=place.__getitem__)

    return finish


def _simulated_matches(
    rounds: list[tuple[list[tuple[int, int, int]], int | None]], ids: list[str], played: int
) -> list[MatchRecord]:
    """One ending's simulated rounds as MatchRecords, numbered after ``played``."""
    out: list[MatchRecord] = []
    for k, (tables, bye) in enumerate(rounds, start=played + 1):
        for a, b, code in tables:
            pair = (ids[a], ids[b])
            if code == sim.TIE:
                out.append(MatchRecord(k, pair, Outcome.DRAW))
            else:
                out.append(
                    MatchRecord(k, pair, Outcome.WIN, pair[0] if code == sim.WIN else pair[1])
                )
        if bye is not None:
            out.append(MatchRecord(k, (ids[bye],), Outcome.BYE, ids[bye]))
    return out


def _first_points(s: sim.State, n: int) -> sim.I32 | None:
    """Every player's points after the first simulated round (by player), if any."""
    if s.first is None:
        return None
    packed, player = s.first
    out = np.zeros((packed.shape[0], n), dtype=packed.dtype)
    out.ravel()[player.ravel()] = packed.ravel()
    return out >> sim.POINTS


def record_label(points: int, rounds: int, points_win: int, points_tie: int) -> str:
    """The usual record for ``points`` after ``rounds``: most wins, then ties
    (``19`` in 9 rounds at 3/1/0 → ``"6-2-1"``)."""
    wins = points // points_win if points_win else 0
    rest = points - wins * points_win
    ties = rest // points_tie if points_tie else 0
    losses = max(rounds - wins - ties, 0)
    return f"{wins}-{losses}-{ties}"


def _contenders(players: Sequence[OutlookPlayer], rounds_left: int) -> list[Contender]:
    return [
        Contender(p.id, p.match_points, rounds_left if p.active else 0, p.active) for p in players
    ]


def _answer(
    c: _Cut, players: Sequence[OutlookPlayer], plan: OutlookPlan, simulations: int
) -> CutOutlook:
    """The :class:`CutOutlook` of one cut: proofs from ``cutline``, shares from the tally."""
    day1_only = c.kind == CutKind.DAY2
    left = plan.rounds_left + (0 if day1_only else plan.day2_rounds)
    active = sum(p.active for p in players)
    fld = Field(plan.points_win, plan.points_tie, active, left)
    pool = [p for p in players if c.division is None or p.division == c.division]
    everyone = _contenders(pool, left)
    rule = Cut(c.places, c.qualify)
    t = c.tally
    # Players with equal points are interchangeable for the proofs: one proof each.
    proofs: dict[int, tuple[Verdict, Verdict]] = {}
    chances: dict[str, Chance] = {}
    for i, p in enumerate(players):
        if not p.active or (c.division is not None and p.division != c.division):
            continue
        if p.match_points not in proofs:
            proofs[p.match_points] = _proofs(p, everyone, rule, fld, plan.points_win)
        verdict, win_verdict = proofs[p.match_points]
        chances[p.id] = Chance(
            verdict=verdict,
            share=float(t.made[i]) / simulations,
            if_win=_share(t.won_made[i], t.won[i]),
            if_loss=_share(t.lost_made[i], t.lost[i]),
            if_win_verdict=win_verdict,
        )
    rounds = plan.rounds_total if day1_only or not plan.day2_rounds else plan.day2_total
    records = [
        RecordChance(
            points=pts,
            record=record_label(pts, rounds, plan.points_win, plan.points_tie),
            verdict=record_verdict(pts, everyone, rule, fld),
            finishes=float(t.finishes[pts]) / simulations,
            share=_share(t.finishes_made[pts], t.finishes[pts]),
        )
        for pts in range(t.finishes.size - 1, -1, -1)
        if t.finishes[pts]
    ]
    return CutOutlook(c.kind, c.division, c.places, c.qualify, tuple(records), chances)


def _proofs(
    p: OutlookPlayer, everyone: list[Contender], rule: Cut, fld: Field, points_win: int
) -> tuple[Verdict, Verdict]:
    """The player's verdict, and IN when a win next round would prove it (else OPEN)."""
    left = fld.rounds_left
    others = list(everyone)
    others.remove(next(x for x in everyone if x.id == p.id))
    verdict = player_verdict(Contender(p.id, p.match_points, left), others, rule, fld)
    if not left:
        return verdict, Verdict.OPEN
    after = Contender(p.id, p.match_points + points_win, left - 1)
    won = player_verdict(after, others, rule, fld)
    return verdict, Verdict.IN if won == Verdict.IN else Verdict.OPEN


def _share(part: Any, whole: Any) -> float | None:
    return float(part) / float(whole) if whole else None
