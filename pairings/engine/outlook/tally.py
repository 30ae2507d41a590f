"""What the simulated endings add up to, and the proofs beside them: each cut's tally
and its answer (``standings.engine.cutline`` for "in" and "out")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from standings.engine.cutline import Contender, Cut, Field, Verdict, player_verdict, record_verdict
from standings.engine.day2 import DAY2_POINTS, DAY2_TOP

from . import _arrays
from .model import Chance, CutKind, CutOutlook, OutlookPlan, OutlookPlayer, RecordChance


@dataclass
class Tally:
    """Counts summed over every chunk of simulations for one cut."""

    made: np.ndarray[Any, np.dtype[np.int64]]
    won: np.ndarray[Any, np.dtype[np.int64]]
    won_made: np.ndarray[Any, np.dtype[np.int64]]
    lost: np.ndarray[Any, np.dtype[np.int64]]
    lost_made: np.ndarray[Any, np.dtype[np.int64]]
    finishes: np.ndarray[Any, np.dtype[np.int64]]
    finishes_made: np.ndarray[Any, np.dtype[np.int64]]

    @classmethod
    def empty(cls, n: int, top: int) -> Tally:
        players = [np.zeros(n, dtype=np.int64) for _ in range(5)]
        points = [np.zeros(top + 1, dtype=np.int64) for _ in range(2)]
        return cls(*players, *points)

    def add(
        self,
        made: _arrays.Bool,
        eligible: _arrays.Bool,
        points: _arrays.I32,
        first: _arrays.I32 | None,
        start: _arrays.I32,
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
class CutTally:
    """One cut to tally: its kind, division (None: the group), places and threshold."""

    kind: CutKind
    division: str | None
    places: int
    qualify: int | None
    tally: Tally


def cut_tallies(plan: OutlookPlan, divisions: list[str], n: int, top: int) -> list[CutTally]:
    out: list[CutTally] = []
    if plan.day2_rounds:
        out.append(CutTally(CutKind.DAY2, None, DAY2_TOP, DAY2_POINTS, Tally.empty(n, top)))
    for d in divisions:
        if plan.cuts.get(d, 0) > 0:
            out.append(CutTally(CutKind.TOP_CUT, d, plan.cuts[d], None, Tally.empty(n, top)))
    return out


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


def answer(
    c: CutTally, players: Sequence[OutlookPlayer], plan: OutlookPlan, simulations: int
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
