"""The ``bo3-wins-against`` ruleset (seed 002): standings, event structure, time called.

Standings (W-SW-1, W-TB-1, W-TB-2): 1 point per match win, a bye is a win; no drawn
matches (time is resolved by sudden death, W-TIME-1). Order of comparison:

1. wins (= points), byes included;
2. **wins against** (W-TB-1): for every match won, the final number of wins of the
   opponent beaten (beating someone who ended with 3 wins gives 3); a bye adds 0;
3. game wins in the event (W-TB-2); a bye counts ``bye_game_wins`` (default 2: a bye is
   treated as a 2-0 win — our interpretation, the seed is silent);
4. win percentage (W-TB-2): wins ÷ matches played, byes included (a Fraction 0..1);
5. "the organiser decides": a random order from ``random.Random(seed)`` (I-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from . import draw
from .errors import StandingsError
from .games import GameRecord, GameRecordError, recorded_verdict
from .types import Entrant, MatchRecord, Outcome

#: Turns each player takes in sudden death, the current one included (W-TIME-2).
SUDDEN_DEATH_TURNS = 3


@dataclass(frozen=True, slots=True)
class WinsAgainstRow:
    """One line of the standings, in order. place: 1-based, None if disqualified.

    wins include byes; wins_against: W-TB-1 (a plain integer); game_wins: W-TB-2;
    win_pct: wins ÷ matches played, byes included, exact Fraction 0..1 (0 if none).
    """

    place: int | None
    player: str
    wins: int
    losses: int
    byes: int
    wins_against: int
    game_wins: int
    win_pct: Fraction
    dropped: bool = False

    @property
    def points(self) -> int:
        """1 point per win (the ruleset table: win / – / loss)."""
        return self.wins

    @property
    def record(self) -> str:
        return f"{self.wins}-{self.losses}-0"


@dataclass(slots=True)
class _Tally:
    wins: int = 0
    losses: int = 0
    byes: int = 0
    game_wins: int = 0
    beaten: list[str] = field(default_factory=list)


def wins_against_standings(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    *,
    rounds: int,
    seed: int = 0,
    bye_game_wins: int = 2,
) -> tuple[WinsAgainstRow, ...]:
    """Swiss standings of the ``bo3-wins-against`` ruleset after round ``rounds``.

    entrants: every player (``dropped_after_round`` only sets ``dropped``). matches: any
    rounds, only ``1 <= round <= rounds`` count, PENDING ignored; a WIN needs ``games``
    (W-L for ``players[0]``, best-of-3) in favour of its winner. Double and late-entry
    losses are losses. seed: the organiser's final random order (W-TB-2, I-1).

    Returns one :class:`WinsAgainstRow` per entrant, best first (see the module
    docstring), disqualified entrants last with ``place=None``. Raises
    :class:`~standings.engine.errors.StandingsError` for unknown or duplicate players, a
    draw (this ruleset has none), a missing game record or one that does not fit the
    winner; a record the live rules refuse (an official 3-0) is counted as recorded
    (``games.recorded_verdict``). Implements W-SW-1 (a bye is a win), W-TB-1, W-TB-2.
    """
    ids = [e.id for e in entrants]
    tallies = wins_against_counting(ids, matches, rounds=rounds, bye_game_wins=bye_game_wins)
    against = {p: sum(beaten_wins(tallies, t)) for p, t in tallies.items()}
    order = _rank(ids, tallies, against, seed)
    dq = {e.id for e in entrants if e.disqualified}
    order = [p for p in order if p not in dq] + [p for p in order if p in dq]
    dropped = {
        e.id
        for e in entrants
        if e.dropped_after_round is not None and e.dropped_after_round <= rounds
    }
    return tuple(
        _row(None if p in dq else k, p, tallies[p], against[p], p in dropped)
        for k, p in enumerate(order, start=1)
    )


def wins_against_counting(
    ids: Sequence[str], matches: Sequence[MatchRecord], *, rounds: int, bye_game_wins: int
) -> dict[str, _Tally]:
    """Every player's wins, losses, byes, game wins and the opponents they beat over rounds
    ``1..rounds``: what the standings and the tiebreaker receipts
    (``standings.engine.receipts``) both read. Raises
    :class:`~standings.engine.errors.StandingsError` as the standings do."""
    tallies = {pid: _Tally() for pid in ids}
    if len(tallies) != len(ids):
        raise StandingsError("two entrants share the same id")
    for m in matches:
        if 0 < m.round <= rounds:
            _add(tallies, m, bye_game_wins)
    return tallies


def beaten_wins(tallies: dict[str, _Tally], t: _Tally) -> list[int]:
    """The terms of a player's wins against (W-TB-1): the final wins of each opponent they
    beat, in the order beaten (a bye adds none)."""
    return [tallies[o].wins for o in t.beaten]


def _add(tallies: dict[str, _Tally], m: MatchRecord, bye_game_wins: int) -> None:
    for pid in m.players:
        if pid not in tallies:
            raise StandingsError(f"round {m.round}: {pid!r} is not an entrant")
    if m.outcome == Outcome.PENDING:
        return
    if m.outcome in (Outcome.BYE, Outcome.LATE_LOSS):
        if len(m.players) != 1:
            raise StandingsError(f"round {m.round}: a {m.outcome} has exactly one player")
        t = tallies[m.players[0]]
        if m.outcome == Outcome.BYE:
            t.wins, t.byes, t.game_wins = t.wins + 1, t.byes + 1, t.game_wins + bye_game_wins
        else:
            t.losses += 1
        return
    if len(m.players) != 2:
        raise StandingsError(f"round {m.round}: a {m.outcome} needs two players")
    if m.outcome == Outcome.DRAW:
        raise StandingsError(
            f"round {m.round}: {m.players[0]} vs {m.players[1]}: no drawn matches in this "
            "ruleset, time is resolved by sudden death (W-TIME-1)"
        )
    if m.outcome == Outcome.DOUBLE_LOSS:
        for pid in m.players:
            tallies[pid].losses += 1
        return
    _win(tallies, m)


def _win(tallies: dict[str, _Tally], m: MatchRecord) -> None:
    a, b = m.players
    where = f"round {m.round}, {a} vs {b}"
    if m.winner not in m.players:
        raise StandingsError(f"{where}: winner {m.winner!r} did not play")
    if m.games is None:
        raise StandingsError(f"{where}: the game record (W-L) is missing")
    record = GameRecord(*m.games)
    try:
        recorded_verdict(record, winner=m.players.index(m.winner or ""))
    except GameRecordError as exc:
        raise StandingsError(f"{where}: {exc}") from exc
    winner, loser = (a, b) if m.winner == a else (b, a)
    tallies[winner].wins += 1
    tallies[winner].beaten.append(loser)
    tallies[loser].losses += 1
    tallies[a].game_wins += record.wins_a
    tallies[b].game_wins += record.wins_b


def _win_pct(t: _Tally) -> Fraction:
    played = t.wins + t.losses
    return Fraction(t.wins, played) if played else Fraction(0)


def _rank(
    ids: Sequence[str], tallies: dict[str, _Tally], against: dict[str, int], seed: int
) -> list[str]:
    """Wins, wins against, game wins, win %, then the seeded random order (W-TB-1, W-TB-2)."""
    lot = draw.lot(ids, seed)

    def key(p: str) -> tuple[int, int, int, Fraction, int]:
        t = tallies[p]
        return (-t.wins, -against[p], -t.game_wins, -_win_pct(t), lot[p])

    return sorted(ids, key=key)


def _row(place: int | None, pid: str, t: _Tally, against: int, dropped: bool) -> WinsAgainstRow:
    return WinsAgainstRow(
        place, pid, t.wins, t.losses, t.byes, against, t.game_wins, _win_pct(t), dropped
    )


# --- event structure (W-SW-1, W-SE-1, W-SE-2, P-RT-7) ---------------------------------

#: P-RT-7: (most players, Swiss rounds, top cut).
STRUCTURE_TABLE: tuple[tuple[int, int, int], ...] = (
    (8, 3, 0),
    (16, 4, 4),
    (32, 5, 4),
    (64, 6, 8),
    (128, 7, 8),
    (256, 8, 16),
    (512, 9, 16),
)


@dataclass(frozen=True, slots=True)
class Structure:
    """Swiss rounds, top cut size, single-elimination rounds and round-1 byes of an event."""

    swiss_rounds: int
    top_cut: int
    elimination_rounds: int
    first_round_byes: int = 0


def recommended_structure(players: int) -> Structure:
    """Swiss (5+ players, W-SW-1) into single elimination (9+ players, W-SE-1), P-RT-7.

    5–8 → 3 rounds, no cut; 9–16 → 4, top 4; … 257–512 → 9, top 16. The cut is optional
    (the organiser decides). Raises ValueError below 5 players (use
    :func:`standalone_structure`) or above 512 (the table ends).
    """
    if players < 5:
        raise ValueError(f"Swiss needs at least 5 players, got {players} (W-SW-1)")
    for most, swiss, cut in STRUCTURE_TABLE:
        if players <= most:
            return Structure(swiss, cut, cut.bit_length() - 1 if cut else 0)
    raise ValueError(f"the round table ends at 512 players, got {players} (P-RT-7)")


def standalone_structure(players: int) -> Structure:
    """Standalone single elimination for 4+ players (W-SE-2): ceil(log2 N) rounds, every
    bye in round 1 (2^k − N of them, to the top seeds when seeded, else at random).

    Raises ValueError below 4 players.
    """
    if players < 4:
        raise ValueError(f"single elimination needs at least 4 players, got {players} (W-SE-2)")
    size = 1 << (players - 1).bit_length()
    return Structure(0, 0, size.bit_length() - 1, size - players)


# --- time called (W-TIME-1, W-TIME-2) ---------------------------------------------------


class TimeCallError(ValueError):
    """A match state that cannot exist in a best-of-3 match; the message says why."""


class NextStep(StrEnum):
    """What happens when time is called (W-TIME-1)."""

    MATCH_OVER = "match-over"  # the match is decided now
    SUDDEN_DEATH = "sudden-death"  # the game in progress goes to sudden death
    IMMEDIATE_SUDDEN_DEATH = "immediate-sudden-death"  # the next game starts in sudden death


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where a best-of-3 match stands when time is called.

    game: the game being played, or when ``between_games`` the next game to start; it is
    always games won + 1 (this ruleset has no drawn games). score: games won by the
    players (A, B), 0 to 2 each.
    """

    game: int
    score: tuple[int, int]
    between_games: bool = False


@dataclass(frozen=True, slots=True)
class Resolution:
    """The answer: ``step``; ``game``, the game played in sudden death (None when the match
    is over); ``winner``, 0 (A) or 1 (B) when the match is decided now; ``text``, what
    happens next in words, for the judge and the players."""

    step: NextStep
    game: int | None
    winner: int | None
    text: str

    @property
    def sudden_death(self) -> bool:
        return self.step != NextStep.MATCH_OVER


_SUDDEN_DEATH_TEXT = (
    f"each player takes {SUDDEN_DEATH_TURNS} more turns, the current one included; then the "
    "player with more health wins the game; if health is tied, play continues until a "
    "health value changes"
)  # W-TIME-2


def time_called(state: MatchState) -> Resolution:
    """Resolve a match whose round time ran out (W-TIME-1), from its :class:`MatchState`.

    In game 1 at 0-0 → sudden death, its winner wins the match; between games at 1-0 → the
    game-1 winner wins; in game 2 at 1-0 → sudden death for game 2 (2-0: the leader wins;
    1-1: game 3 as immediate sudden death); between games at 1-1 → game 3 as immediate
    sudden death; in game 3 → sudden death. Between games at 2-0 or 2-1 the match is
    already over. Before game 1 starts (between games at 0-0, the seed is silent) game 1
    is played as immediate sudden death. After a sudden-death game, call again with the
    new state. Raises :class:`TimeCallError` for an impossible state.
    """
    a, b = _check_state(state)
    if max(a, b) == 2:
        return _decided(0 if a == 2 else 1, f"the match is already won {max(a, b)}-{min(a, b)}")
    if state.between_games:
        if a + b == 1:
            return _decided(0 if a else 1, "time between games 1 and 2: the game-1 winner wins")
        step, intro = NextStep.IMMEDIATE_SUDDEN_DEATH, f"game {state.game} starts in sudden death"
    else:
        step, intro = NextStep.SUDDEN_DEATH, f"game {state.game} goes to sudden death"
    then = {
        1: "its winner wins the match",
        2: "if the player leading 1-0 wins it, they win the match 2-0; otherwise at 1-1 "
        "game 3 starts as an immediate sudden death",
        3: "its winner wins the match",
    }[state.game]
    return Resolution(step, state.game, None, f"{intro}: {_SUDDEN_DEATH_TEXT}; {then}.")


def _decided(winner: int, why: str) -> Resolution:
    side = "A" if winner == 0 else "B"
    return Resolution(NextStep.MATCH_OVER, None, winner, f"{why}: player {side} wins the match.")


def _check_state(state: MatchState) -> tuple[int, int]:
    a, b = state.score
    if min(a, b) < 0 or max(a, b) > 2 or a + b > 3 or (a, b) == (2, 2):
        raise TimeCallError(f"score {a}-{b} is impossible in a best-of-3 match")
    if state.game != a + b + 1:
        raise TimeCallError(
            f"at {a}-{b} the {'next' if state.between_games else 'current'} game is "
            f"game {a + b + 1}, not game {state.game}"
        )
    if max(a, b) == 2 and not state.between_games:
        raise TimeCallError(f"at {a}-{b} the match is over: no game is in progress")
    return a, b


def sudden_death_winner(health_a: int, health_b: int) -> int | None:
    """After the sudden-death turns (W-TIME-2): 0 if A has more health, 1 if B has, None
    when health is tied (play continues until a health value changes; call again then)."""
    if health_a == health_b:
        return None
    return 0 if health_a > health_b else 1
