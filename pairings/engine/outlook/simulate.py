"""Running the simulation of a group: the arrays from the players, chunk after chunk
of endings, and the exact finish of small groups."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from standings.engine.day2 import DAY2_POINTS, DAY2_TOP
from standings.engine.types import MatchRecord, Outcome

from . import _arrays, _ending, _rounds
from .model import (
    EXACT_FINISH,
    UNRANKED,
    CutKind,
    GroupOutlook,
    OutlookPlan,
    OutlookPlayer,
    simulations_for,
)
from .tally import CutTally, answer, cut_tallies


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
    top = int((group.packed >> _arrays.POINTS).max(initial=0)) + plan.points_win * (
        plan.rounds_left + plan.day2_rounds
    )
    cuts = cut_tallies(plan, divisions, group.n, top)
    rng = np.random.default_rng(seed)
    ids = [p.id for p in players]
    chunk = max(1, min(simulations, _arrays.CHUNK_CELLS // max(group.n, 1)))
    done = 0
    while done < simulations:
        rows = min(chunk, simulations - done)
        _run_chunk(group, rules, plan, cuts, divisions, ids, rows, rng, top)
        done += rows
    return GroupOutlook(
        cuts=tuple(answer(c, players, plan, simulations) for c in cuts),
        simulations=simulations,
        seed=seed,
        rounds_left=plan.rounds_left,
        draw_rate=plan.draw_rate,
    )


def _group(players: Sequence[OutlookPlayer], plan: OutlookPlan) -> _arrays.Group:
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
        (p.match_points << _arrays.POINTS)
        | (len(p.opponents) << _arrays.MATCHES)
        | (p.counted << _arrays.COUNTED)
        | (_arrays.HAD_BYE if p.had_bye else 0)
        | (p.score << _arrays.SCORE)
        for p in players
    ]
    return _arrays.Group(
        packed=np.array(packed, dtype=np.int32),
        active=np.array([p.active for p in players], dtype=bool),
        late=np.array([p.late for p in players], dtype=bool),
        division=np.array([divisions.index(p.division) for p in players], dtype=np.int16),
        past=past,
        frozen1=np.array(frozen, dtype=np.float64),
        age_modified=plan.age_modified,
    )


def _rules(plan: OutlookPlan) -> _arrays.Rules:
    m = plan.measure or UNRANKED
    by_code = ((0, 0), m.loss, m.tie, m.win, m.bye)  # NONE, LOSS, TIE, WIN, BYE
    gain = (0, 0, plan.points_tie, plan.points_win, plan.points_win)
    matches = (0, 1, 1, 1, 0)
    step = [
        (g << _arrays.POINTS)
        | (k << _arrays.MATCHES)
        | (c << _arrays.COUNTED)
        | (sc << _arrays.SCORE)
        for g, k, (sc, c) in zip(gain, matches, by_code, strict=True)
    ]
    return _arrays.Rules(
        step=np.array(step, dtype=np.int32),
        floor=m.floor,
        cap=m.cap,
        empty1=m.empty,
        second=m.second,
        draw=plan.draw_rate,
        ranked=plan.measure is not None,
    )


def _run_chunk(
    g: _arrays.Group,
    r: _arrays.Rules,
    plan: OutlookPlan,
    cuts: list[CutTally],
    divisions: list[str],
    ids: list[str],
    rows: int,
    rng: np.random.Generator,
    top: int,
) -> None:
    """Play ``rows`` endings and add them to every cut's tally."""
    s = _rounds.start(g, rows, rng)
    start = np.broadcast_to(g.packed >> _arrays.POINTS, (rows, g.n))
    for _ in range(plan.rounds_left):
        _rounds.play_round(g, r, s, rng, top)
    first = _first_points(s, g.n)
    if plan.day2_rounds:
        day2 = next(c for c in cuts if c.kind == CutKind.DAY2)
        ending = _ending.Ending(g, r, s)
        points, active = ending.points, ending.active
        qualified = active & (points >= DAY2_POINTS)
        # The top 32 matter only where fewer than 32 have the points (P-D2-1).
        short = qualified.sum(axis=1) < DAY2_TOP
        if short.any():
            finish = _finish(ending, plan, ids, rng)
            qualified |= _ending.cut(ending, g.late, active & short[:, None], DAY2_TOP, rng, finish)
        day2.tally.add(qualified, active, points, first, start, plan.points_win)
        _rounds.day2(s, qualified)
        for _ in range(plan.day2_rounds):
            _rounds.play_round(g, r, s, rng, top)
        first = first if first is not None else _first_points(s, g.n)
    ending = _ending.Ending(g, r, s)
    finish = _finish(ending, plan, ids, rng) if not plan.day2_rounds else None
    for c in cuts:
        if c.kind == CutKind.TOP_CUT:
            eligible = ending.active & (g.division == divisions.index(c.division or ""))
            made = _ending.cut(ending, g.late, eligible, c.places, rng, finish)
            c.tally.add(made, eligible, ending.points, first, start, plan.points_win)


def _finish(
    ending: _ending.Ending, plan: OutlookPlan, ids: list[str], rng: np.random.Generator
) -> _ending.Finish | None:
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
            if code == _arrays.TIE:
                out.append(MatchRecord(k, pair, Outcome.DRAW))
            else:
                out.append(
                    MatchRecord(k, pair, Outcome.WIN, pair[0] if code == _arrays.WIN else pair[1])
                )
        if bye is not None:
            out.append(MatchRecord(k, (ids[bye],), Outcome.BYE, ids[bye]))
    return out


def _first_points(s: _arrays.State, n: int) -> _arrays.I32 | None:
    """Every player's points after the first simulated round (by player), if any."""
    if s.first is None:
        return None
    packed, player = s.first
    out = np.zeros((packed.shape[0], n), dtype=packed.dtype)
    out.ravel()[player.ravel()] = packed.ravel()
    return out >> _arrays.POINTS
