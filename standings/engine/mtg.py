"""Magic: The Gathering head-to-head Swiss standings (M-PTS, M-TB, R-7, R-8).

Order of comparison (M-TB): match points; opponents' match-win % (OMW); game-win % (GW);
opponents' game-win % (OGW); then a random order drawn from ``random.Random(seed)`` (I-1).

* **Match points** (M-PTS-1): 3 per win, 1 per draw, 0 per loss; a bye is a 2-0 win
  (3 match points, 6 game points over 2 games). Double and late-entry losses score 0; a
  late-entry loss is recorded 0-2 in games, like a match loss.
* **Best-of-1** (``best_of=1``): a bye is a 1-0 win (3 game points over
  1 game), as melee.gg publishes it; a late-entry loss 0-1.
* **MW%** (M-TB-1): match points ÷ (3 × rounds played, byes included), floor ``mwp_floor``.
* **GW%** (M-TB-2): game points ÷ (3 × games played), floor ``mwp_floor``; game points
  (M-PTS-2) 3 per game won, 1 per drawn game.
* **OMW / OGW** (M-TB-3, M-TB-4): mean MW% / GW% of the opponents met, each floored; bye
  rounds have no opponent. A player without opponents has OMW = OGW = the floor.
* **Floor** (R-7): 0.33 as in the MTR and Wizards Event Reporter (the default); melee.gg
  uses exactly 1/3 (``mwp_floor=Fraction(1, 3)``).
* **Playoffs** (R-8): the single-elimination matches count in the records used for the
  tiebreakers only when ``playoffs_in_tiebreakers`` (Wizards Event Reporter); by default
  (melee.gg) they do not. Match points and W-L-D stay those of the Swiss rounds either way.
* **melee ranking**: melee.gg ranks by the player's own GW% *without* the floor (and
  publishes it unfloored as GWP), while OMW and OGW use floored values. Reproduced on both
  published melee events in ``tests/data/mtg`` (OMWP, GWP, OGWP to 6 decimals).

The rows are the Swiss standings; final places after a top cut come from
:func:`standings.engine.placement.top_cut_places` with this order (P-TC, R-4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from . import draw
from .errors import StandingsError
from .games import BYE_GAMES, GameRecord, GameRecordError, game_points, recorded_verdict
from .types import Entrant, MatchRecord, Outcome

#: The MTR / Wizards Event Reporter floor for MW%, GW%, OMW and OGW (M-TB-1, R-7).
MTR_FLOOR = Fraction(33, 100)
#: melee.gg's floor (R-7).
MELEE_FLOOR = Fraction(1, 3)


def bye_games(best_of: int = 3) -> GameRecord:
    """The games a bye counts as: the wins a match needs, none lost (M-PTS-1: 2-0 in a
    best-of-3, 6 game points over 2 games; 1-0 in a best-of-1, as melee.gg counts it)."""
    return BYE_GAMES if best_of == 3 else GameRecord(best_of // 2 + 1, 0, 0)


def late_loss_games(best_of: int = 3) -> GameRecord:
    """The games a late-entry loss counts as: a match loss, 0-2 (best-of-1: 0-1)."""
    return GameRecord(0, best_of // 2 + 1, 0)


@dataclass(frozen=True, slots=True)
class MtgStandingRow:
    """One line of the MTG Swiss standings, in order.

    place: 1-based, or None for a disqualified entrant (listed last).
    match_points / wins / losses / draws: Swiss rounds only, a bye counted as a win.
    mw, gw: the player's own match-win % and game-win %, floored (M-TB-1, M-TB-2);
    gw_unfloored: GW% without the floor (melee.gg's GWP); omw, ogw: M-TB-3, M-TB-4.
    All percentages are exact Fractions 0..1. game_points / games: the GW% numerator
    (game points) and games played, over the records used for the tiebreakers.
    unrecorded: of those records, the matches counted without a game record (an imported
    match result only): their games are in neither GW% part.
    """

    place: int | None
    player: str
    match_points: int
    wins: int
    losses: int
    draws: int
    mw: Fraction
    omw: Fraction
    gw: Fraction
    ogw: Fraction
    gw_unfloored: Fraction
    game_points: int
    games: int
    dropped: bool = False
    unrecorded: int = 0

    @property
    def record(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"


@dataclass(slots=True)
class _Tally:
    """Running totals of one player (private, mutable while the matches are read)."""

    points: int = 0
    rounds: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    game_points: int = 0
    games: int = 0
    opponents: list[str] = field(default_factory=list)
    unrecorded: int = 0  # matches without a game record

    def add(self, points: int, result: int, games: GameRecord, opponent: str | None) -> None:
        """One round: ``result`` 1 win, 0 draw, -1 loss; ``games`` seen from this player."""
        self.points += points
        self.rounds += 1
        self.wins += result == 1
        self.draws += result == 0
        self.losses += result == -1
        self.game_points += game_points(games)[0]
        self.games += games.games
        if opponent is not None:
            self.opponents.append(opponent)


def match_win_pct(points: int, rounds: int, *, floor: Fraction = MTR_FLOOR) -> Fraction:
    """MW% = match points ÷ (3 × rounds played), at least ``floor`` (M-TB-1).

    5-2-1 in 8 rounds → 16/24; 1-3-0 then withdrew → 3/12 → 0.33; 3-2-0 with a bye →
    9/15. No round played → the floor. Raises ValueError for negative counts.
    """
    if points < 0 or rounds < 0 or points > 3 * rounds:
        raise ValueError(f"impossible record: {points} match points in {rounds} rounds")
    return max(Fraction(points, 3 * rounds), floor) if rounds else floor


def game_win_pct(points: int, games: int, *, floor: Fraction | None = MTR_FLOOR) -> Fraction:
    """GW% = game points ÷ (3 × games played), at least ``floor`` unless None (M-TB-2).

    2-0, 2-1, 1-2, 2-0 → 21/30; 1-2, 1-2, 0-2, 1-2 → 9/33 → 0.33. No game played →
    the floor (0 without one). Raises ValueError for negative or impossible counts.
    """
    if points < 0 or games < 0 or points > 3 * games:
        raise ValueError(f"impossible record: {points} game points in {games} games")
    value = Fraction(points, 3 * games) if games else Fraction(0)
    return value if floor is None else max(value, floor)


def opponents_average(values: Iterable[Fraction], *, default: Fraction) -> Fraction:
    """Mean of the opponents' (already floored) percentages; ``default`` without any
    opponent (M-TB-3, M-TB-4)."""
    found = list(values)
    return sum(found, Fraction(0)) / len(found) if found else default


def mtg_standings(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    *,
    rounds: int,
    mwp_floor: Fraction = MTR_FLOOR,
    playoffs: Sequence[MatchRecord] = (),
    playoffs_in_tiebreakers: bool = False,
    melee_ranking: bool = False,
    best_of: int = 3,
    seed: int = 0,
) -> tuple[MtgStandingRow, ...]:
    """The MTG Swiss standings after round ``rounds``, best first (see the module docstring).

    entrants: every player; ``dropped_after_round`` only sets ``dropped`` (MW% already
        divides by the rounds played). matches: Swiss results of any rounds; only
        ``1 <= round <= rounds`` count, PENDING ignored. A WIN or DRAW's ``games`` (W-L-D
        for ``players[0]``, M-MATCH-1) must agree with its result; a match without
        ``games`` (an imported result only) counts for match points, MW%
        and OMW, not for GW% (the rows' ``unrecorded``).
    mwp_floor: 0.33 (MTR, WER) or 1/3 (melee.gg), R-7. playoffs: the single-elimination
        matches, used only when ``playoffs_in_tiebreakers`` (R-8); no draws (M-SE-2).
    melee_ranking: rank by the unfloored GW% (melee.gg). best_of: games in a match, 3 or 1
    (the event's match length): a bye counts 2-0 or 1-0 in games, a late-entry loss 0-2
    or 0-1. seed: the final random order (I-1).

    Returns one :class:`MtgStandingRow` per entrant. Raises
    :class:`~standings.engine.errors.StandingsError` for unknown or duplicate players, a
    result that contradicts its games, or an even ``best_of``; a
    record the live rules refuse (an official 3-0) is counted as recorded
    (``games.recorded_verdict``). Implements
    M-MATCH-1, M-PTS-1, M-PTS-2, M-TB, M-TB-1…4, M-SE-2, R-7, R-8.
    """
    ids = [e.id for e in entrants]
    swiss, tb, values = mtg_counting(
        ids,
        matches,
        rounds=rounds,
        mwp_floor=mwp_floor,
        playoffs=playoffs,
        playoffs_in_tiebreakers=playoffs_in_tiebreakers,
        best_of=best_of,
    )
    order = _rank(ids, swiss, values, melee_ranking, seed)
    dq = {e.id for e in entrants if e.disqualified}
    order = [p for p in order if p not in dq] + [p for p in order if p in dq]
    dropped = {
        e.id
        for e in entrants
        if e.dropped_after_round is not None and e.dropped_after_round <= rounds
    }
    return tuple(
        _row(None if p in dq else k, p, swiss[p], tb[p], values[p], p in dropped)
        for k, p in enumerate(order, start=1)
    )


def mtg_counting(
    ids: Sequence[str],
    matches: Sequence[MatchRecord],
    *,
    rounds: int,
    mwp_floor: Fraction = MTR_FLOOR,
    playoffs: Sequence[MatchRecord] = (),
    playoffs_in_tiebreakers: bool = False,
    best_of: int = 3,
) -> tuple[dict[str, _Tally], dict[str, _Tally], dict[str, _Values]]:
    """What the standings and the tiebreaker receipts (``standings.engine.receipts``) both
    read: ``(swiss, tiebreaker, values)``, the players' totals over the Swiss rounds
    ``1..rounds``, the totals the tiebreakers count (the Swiss ones, or with the playoffs
    when ``playoffs_in_tiebreakers``, R-8) and each player's MW%, GW%, OMW and OGW from
    them (M-TB-1…4, floor ``mwp_floor``, R-7). Arguments as :func:`mtg_standings`; raises
    :class:`~standings.engine.errors.StandingsError` as it does."""
    if best_of < 1 or best_of % 2 == 0:
        raise StandingsError(f"best of {best_of}: a match is best of an odd number of games")
    counted = [m for m in matches if 0 < m.round <= rounds]
    swiss = _tallies(ids, counted, elimination=False, best_of=best_of)
    with_playoffs = _tallies(ids, counted, elimination=False, best_of=best_of)
    _read(with_playoffs, playoffs, elimination=True, best_of=best_of)  # checked (M-SE-2)
    tb = with_playoffs if playoffs_in_tiebreakers else swiss
    return swiss, tb, _percentages(tb, mwp_floor)


def _tallies(
    ids: Sequence[str], matches: Sequence[MatchRecord], *, elimination: bool, best_of: int
) -> dict[str, _Tally]:
    tallies = {pid: _Tally() for pid in ids}
    if len(tallies) != len(ids):
        raise StandingsError("two entrants share the same id")
    _read(tallies, matches, elimination=elimination, best_of=best_of)
    return tallies


def _read(
    tallies: dict[str, _Tally],
    matches: Sequence[MatchRecord],
    *,
    elimination: bool,
    best_of: int,
) -> None:
    """Add every decided match to the tallies (M-PTS-1, M-PTS-2, M-MATCH-1, M-SE-2)."""
    for m in matches:
        for pid in m.players:
            if pid not in tallies:
                raise StandingsError(f"round {m.round}: {pid!r} is not an entrant")
        if m.outcome == Outcome.PENDING:
            continue
        if m.outcome in (Outcome.BYE, Outcome.LATE_LOSS):
            _single(tallies, m, best_of)
        elif len(m.players) != 2:
            raise StandingsError(f"round {m.round}: a {m.outcome} needs two players")
        elif m.outcome == Outcome.DOUBLE_LOSS:
            a, b = m.players
            tallies[a].add(0, -1, GameRecord(0, 0), b)
            tallies[b].add(0, -1, GameRecord(0, 0), a)
        else:
            _decided(tallies, m, elimination)


def _single(tallies: dict[str, _Tally], m: MatchRecord, best_of: int) -> None:
    if len(m.players) != 1:
        raise StandingsError(f"round {m.round}: a {m.outcome} has exactly one player")
    if m.outcome == Outcome.BYE:
        tallies[m.players[0]].add(3, 1, bye_games(best_of), None)
    else:
        tallies[m.players[0]].add(0, -1, late_loss_games(best_of), None)


def _decided(tallies: dict[str, _Tally], m: MatchRecord, elimination: bool) -> None:
    """A WIN or DRAW with its game record, checked against the result; without one (an
    imported match result only) :func:`_unrecorded`."""
    a, b = m.players
    where = f"round {m.round}, {a} vs {b}"
    if m.outcome == Outcome.WIN and m.winner not in m.players:
        raise StandingsError(f"{where}: winner {m.winner!r} did not play")
    if m.games is None:
        _unrecorded(tallies, m, elimination, where)
        return
    claimed = None if m.outcome == Outcome.DRAW else m.players.index(m.winner or "")
    record = GameRecord(*m.games)
    try:
        verdict = recorded_verdict(record, elimination=elimination, winner=claimed)
    except GameRecordError as exc:
        raise StandingsError(f"{where}: {exc}") from exc
    if verdict.outcome != m.outcome:
        raise StandingsError(f"{where}: {record} is a won match, not a draw")
    flipped = GameRecord(record.wins_b, record.wins_a, record.draws)
    if verdict.winner is None:
        tallies[a].add(1, 0, record, b)
        tallies[b].add(1, 0, flipped, a)
    else:
        result = 1 if verdict.winner == 0 else -1
        tallies[a].add(3 if result == 1 else 0, result, record, b)
        tallies[b].add(3 if result == -1 else 0, -result, flipped, a)


def _unrecorded(tallies: dict[str, _Tally], m: MatchRecord, elimination: bool, where: str) -> None:
    """A WIN or DRAW recorded without its games: match points, MW% and
    OMW count it exactly (M-PTS-1, M-TB-1, M-TB-3); it adds no game to GW% (M-TB-2), which
    then counts the games known; each player's ``unrecorded`` says how many such matches
    they have. A draw in single elimination is refused (M-SE-2)."""
    a, b = m.players
    if m.outcome == Outcome.DRAW and elimination:
        raise StandingsError(f"{where}: a single-elimination match cannot end in a draw")
    result = 0 if m.outcome == Outcome.DRAW else (1 if m.winner == a else -1)
    points = {1: 3, 0: 1, -1: 0}  # M-PTS-1, seen from the player: won, drawn, lost
    none = GameRecord(0, 0, 0)
    tallies[a].add(points[result], result, none, b)
    tallies[b].add(points[-result], -result, none, a)
    tallies[a].unrecorded += 1
    tallies[b].unrecorded += 1


@dataclass(frozen=True, slots=True)
class _Values:
    mw: Fraction
    gw: Fraction
    gw_unfloored: Fraction
    omw: Fraction
    ogw: Fraction


def _percentages(tb: dict[str, _Tally], floor: Fraction) -> dict[str, _Values]:
    """MW%, GW% per player, then OMW and OGW from the opponents' floored values."""
    mw = {p: match_win_pct(t.points, t.rounds, floor=floor) for p, t in tb.items()}
    raw = {p: game_win_pct(t.game_points, t.games, floor=None) for p, t in tb.items()}
    gw = {p: max(v, floor) for p, v in raw.items()}
    return {
        p: _Values(
            mw=mw[p],
            gw=gw[p],
            gw_unfloored=raw[p],
            omw=opponents_average((mw[o] for o in t.opponents), default=floor),
            ogw=opponents_average((gw[o] for o in t.opponents), default=floor),
        )
        for p, t in tb.items()
    }


def _rank(
    ids: Sequence[str],
    swiss: dict[str, _Tally],
    values: dict[str, _Values],
    melee_ranking: bool,
    seed: int,
) -> list[str]:
    """Ids by match points, OMW, GW (unfloored for melee.gg), OGW, then random (M-TB, I-1)."""
    lot = draw.lot(ids, seed)

    def key(p: str) -> tuple[int, Fraction, Fraction, Fraction, int]:
        v = values[p]
        gw = v.gw_unfloored if melee_ranking else v.gw
        return (-swiss[p].points, -v.omw, -gw, -v.ogw, lot[p])

    return sorted(ids, key=key)


def _row(
    place: int | None, pid: str, swiss: _Tally, tb: _Tally, v: _Values, dropped: bool
) -> MtgStandingRow:
    return MtgStandingRow(
        place=place,
        player=pid,
        match_points=swiss.points,
        wins=swiss.wins,
        losses=swiss.losses,
        draws=swiss.draws,
        mw=v.mw,
        omw=v.omw,
        gw=v.gw,
        ogw=v.ogw,
        gw_unfloored=v.gw_unfloored,
        game_points=tb.game_points,
        games=tb.games,
        dropped=dropped,
        unrecorded=tb.unrecorded,
    )
