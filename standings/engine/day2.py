"""Day 2 of a two-day Swiss: who makes it, and the final Swiss order after it (P-D2-1,
P-D2-2, R-3).

After the Day 1 Swiss, every player with at least 19 match points, or the top 32,
whichever is the larger group, plays the Day 2 Swiss rounds (P-D2-1, :func:`day2_cut`).
Match points carry over.

Day 2 OWP and OOWP are computed over the Day 2 rounds only (P-D2-2, R-3): rank the Day 2
matches with ``standings.engine.ranking.pokemon_standings`` after renumbering them from 1
(:func:`day2_matches`, ``rounds`` = Day 2 rounds; :func:`day2_entrants` renumbers the drops
the same way, so a Day 2 drop is frozen as a Day 1 drop is, R-2), then put
the carried match points back with :func:`day2_order`. Pairing the Day 2 rounds is
``pairings.engine.day2``'s.

Decision where the rules are silent: dropped players are passed over by the cut (they do
not play Day 2), as the top cut does; they do not make room for the 33rd.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Protocol, TypeVar

DAY2_POINTS = 19
DAY2_TOP = 32


class CutRow(Protocol):
    """What the cut reads from a standings row (``StandingRow`` fits)."""

    @property
    def player(self) -> str: ...
    @property
    def match_points(self) -> int: ...
    @property
    def dropped(self) -> bool: ...


class Day2Row(CutRow, Protocol):
    """A row of the Day-2-only standings (``StandingRow`` fits)."""

    @property
    def late(self) -> bool: ...
    @property
    def owp(self) -> Fraction: ...
    @property
    def oowp(self) -> Fraction: ...


class _Numbered(Protocol):
    @property
    def round(self) -> int: ...  # read-only: a frozen dataclass's field fits


M = TypeVar("M", bound=_Numbered)


def day2_cut(standings: Sequence[CutRow] | Sequence[tuple[str, int]]) -> tuple[str, ...]:
    """Ids of the players who make Day 2, in standings order (P-D2-1).

    standings: the Day 1 standings best first, as rows (``player``, ``match_points``,
    ``dropped``) or ``(id, match_points)`` pairs. Everyone with ≥ 19 match points, or the
    first 32, whichever group is larger; dropped players are passed over. Raises
    ValueError when the standings are not ordered by match points.
    """
    rows = [_cut_entry(x) for x in standings]
    points = [pts for _, pts, _ in rows]
    if points != sorted(points, reverse=True):
        raise ValueError("The standings must be ordered by match points, best first.")
    active = [(pid, pts) for pid, pts, dropped in rows if not dropped]
    qualified = sum(pts >= DAY2_POINTS for _, pts in active)
    return tuple(pid for pid, _ in active[: max(qualified, DAY2_TOP)])


def _cut_entry(x: CutRow | tuple[str, int]) -> tuple[str, int, bool]:
    if isinstance(x, tuple):
        return x[0], x[1], False
    return x.player, x.match_points, x.dropped


def day2_matches(matches: Iterable[M], day1_rounds: int) -> tuple[M, ...]:
    """The Day 2 matches renumbered from round 1 (P-D2-2): those after ``day1_rounds``,
    each ``round`` reduced by ``day1_rounds``; works on any frozen dataclass with a
    ``round`` field (``MatchRecord``)."""
    return tuple(
        replace(m, round=m.round - day1_rounds)  # type: ignore[type-var]
        for m in matches
        if m.round > day1_rounds
    )


class _Dropping(Protocol):
    @property
    def dropped_after_round(self) -> int | None: ...


E = TypeVar("E", bound=_Dropping)


def day2_entrants(entrants: Iterable[E], day1_rounds: int) -> tuple[E, ...]:
    """The Day 2 players with their drops renumbered as :func:`day2_matches` renumbers the
    rounds (R-2 with R-3): a player who dropped after round ``d`` of the event
    (``dropped_after_round``) dropped after Day 2 round ``d - day1_rounds``, so their Day 2
    win %, OWP and OOWP are frozen as of that Day 2 round, over the Day 2 rounds played
    until then. A drop at or before the last Day 1 round becomes 0 (before Day 2 round 1);
    players who never dropped are unchanged. Works on any frozen dataclass with a
    ``dropped_after_round`` field (``Entrant``).

    Without it a Day 2 drop (an event round above the Day 2 round count) would look like
    no drop at all, and the player's Day 2 OWP and OOWP would use their opponents' final
    win percentages.
    """
    return tuple(
        e if (d := e.dropped_after_round) is None else _dropped_after(e, max(d - day1_rounds, 0))
        for e in entrants
    )


def _dropped_after(entrant: E, round_: int) -> E:
    return replace(entrant, dropped_after_round=round_)  # type: ignore[type-var]


def day2_order(day2_rows: Sequence[Day2Row], carried: Mapping[str, int]) -> tuple[str, ...]:
    """Day 2 final Swiss order (P-D2-2, R-3): total match points (``carried`` Day 1 points
    plus the rows' Day 2 points), then on time before late (P-TB-1), Day 2 OWP, Day 2
    OOWP. Players tied on all of that keep their order in ``day2_rows`` (the Day-2-only
    standings, which applied head to head, last opponent and I-6 over Day 2): exact
    whenever such players also have equal Day 2 points. Raises KeyError for a player
    without carried points."""
    keyed = [
        ((-(carried[r.player] + r.match_points), r.late, -r.owp, -r.oowp, k), r.player)
        for k, r in enumerate(day2_rows)
    ]
    return tuple(pid for _, pid in sorted(keyed))
