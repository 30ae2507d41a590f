"""The cut-line outlook's players from the standings engine's own inputs (entrants and
match records), and the draw rate seen so far."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from standings.engine.types import Entrant, MatchRecord, Outcome

from .model import UNRANKED, OutlookPlayer, WinMeasure


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
    m = measure or UNRANKED
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
