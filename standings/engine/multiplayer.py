"""Standings of multiplayer (Commander-style) pod events: points and the MP tiebreakers.

Rules (docs/rules.md section 9, the Multiplayer Addendum's Match Points … OMWP sections):

* MP-PTS-1: a match win is worth ``2n − 1`` points with ``n`` the *standard* pod size of
  the event (7 for pods of 4), also in a smaller pod and for a bye; a drawn pod gives 1
  point to every player in it except those who conceded or received a match-loss penalty
  (``PodResult.draw_excluded``); a loss is 0.
* MP-PTS-2: game points, ``2n − 1`` per game won and 1 to each player who began a game
  that ended with no winner.
* MP-TB order: match points, MWP (MP-TB-1), OAMP (MP-TB-2), OMWP (MP-TB-3).

Decisions where the rules are silent (defaults, documented for the organiser):

* MWP of a player with no match played (only byes, or nothing) is 0; OAMP and OMWP of a
  player without opponents are 0.
* An opponent met in two rounds counts twice in OAMP and OMWP (one term per pod played,
  like MTG's OMW). A smaller pod adds ``standard − size`` phantom opponents to OMWP,
  each with exactly the floor MWP ``1 / (2n − 1)`` (MP-TB-3). OAMP counts real opponents
  only (MP-TB-2 names no phantom); ``phantom_in_oamp=True`` adds them with 0 points, as
  the Canivete software does.
* A bye is one game won for game points (``2n − 1``); a result without ``games`` is a
  best-of-one: one game with the match's winner, or a drawn game worth 1 to every
  player not in ``draw_excluded``.
* A late entrant's automatic loss (P-LATE-1) is a ``PodResult`` with ``late_loss=True``
  and the player alone: a round played with 0 points, counted in MWP's matches played
  (as I-5 does for Pokémon), with no opponents and no phantom (nobody was faced).
* Players still tied after OMWP are ordered at random from ``seed`` (as I-6 does for
  Pokémon), reproducibly whatever the input order. Disqualified entrants are listed
  last with ``place=None``; their results still count for their opponents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from . import draw
from .errors import StandingsError
from .types import Entrant


@dataclass(frozen=True, slots=True)
class PodGame:
    """One game of a pod match (MP-PTS-2).

    winner: the game's winner, or None when it ended with no winner (a drawn game).
    players: who began the game; None means every player of the pod.
    """

    winner: str | None = None
    players: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class PodResult:
    """The result of one pod in one Swiss round (the multiplayer match slip).

    players: the pod's ids (any order); a single id is a bye.
    winner: the match winner, or None for a drawn match (ignored for a bye).
    draw_excluded: players who conceded or received a match-loss penalty: they get no
        point from a draw (MP-PTS-1, addendum 2.1A). Must not contain the winner.
    games: the games played, for game points; empty = best-of-one (see module notes).
    late_loss: the single player lost the round by entering late (P-LATE-1): 0 points,
        one match played, no opponents.
    """

    round: int
    players: tuple[str, ...]
    winner: str | None = None
    draw_excluded: frozenset[str] = frozenset()
    games: tuple[PodGame, ...] = field(default=())
    late_loss: bool = False

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1 and not self.late_loss


@dataclass(frozen=True, slots=True)
class MultiplayerRow:
    """One line of multiplayer standings, in final order.

    place: 1-based, or None for a disqualified player.
    match_points / game_points: MP-PTS-1 / MP-PTS-2 totals, byes included.
    mwp / oamp / omwp: exact Fractions; mwp and omwp in 0..1, oamp in match points.
    """

    place: int | None
    player: str
    match_points: int
    wins: int
    losses: int
    draws: int
    byes: int
    game_points: int
    mwp: Fraction
    oamp: Fraction
    omwp: Fraction
    dropped: bool = False

    @property
    def record(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"


@dataclass(slots=True)
class _Tally:
    points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    played: int = 0
    game_points: int = 0
    phantoms: int = 0
    opponents: list[str] = field(default_factory=list)


def points_per_win(standard: int = 4) -> int:
    """Match (and game) points for a win: ``2n − 1`` with ``n`` the standard pod size
    (MP-PTS-1): 7 for pods of 4, 5 for pods of 3. Raises ValueError for ``n < 2``."""
    if standard < 2:
        raise ValueError(f"standard pod size must be at least 2, got {standard}")
    return 2 * standard - 1


def match_points(result: PodResult, player: str, *, standard: int = 4) -> int:
    """Points ``player`` earns from ``result`` (MP-PTS-1): ``2n − 1`` for a win or a bye,
    1 for a draw unless the player is in ``draw_excluded``, 0 for a loss (a late-entry
    loss included, P-LATE-1)."""
    if result.late_loss:
        return 0
    if result.is_bye or result.winner == player:
        return points_per_win(standard)
    if result.winner is None and player not in result.draw_excluded:
        return 1
    return 0


def game_points(result: PodResult, player: str, *, standard: int = 4) -> int:
    """Game points ``player`` earns from ``result`` (MP-PTS-2): ``2n − 1`` per game won,
    1 per game they began that ended with no winner. A bye is one game won; a result
    without games is one game with the match's result (best-of-one)."""
    ppw = points_per_win(standard)
    if result.is_bye:
        return ppw
    if not result.games:
        return match_points(result, player, standard=standard)
    everyone = frozenset(result.players)
    total = 0
    for game in result.games:
        if game.winner == player:
            total += ppw
        elif game.winner is None and player in (game.players or everyone):
            total += 1
    return total


def multiplayer_standings(
    entrants: Sequence[Entrant],
    results: Sequence[PodResult],
    *,
    rounds: int,
    standard: int = 4,
    seed: int = 0,
    phantom_in_oamp: bool = False,
) -> tuple[MultiplayerRow, ...]:
    """The Swiss standings of a pod event after round ``rounds``, best first (MP-TB).

    entrants: every player (``disqualified`` → listed last without a place;
        ``dropped_after_round`` ≤ ``rounds`` → ``dropped``).
    results: pod results of any rounds; only ``1 <= round <= rounds`` count (pass Swiss
        rounds only: top-cut pods are not part of the tiebreakers).
    standard: the event's standard pod size ``n`` (points per win ``2n − 1``).
    seed: seed of the random order of players tied after every tiebreaker.
    phantom_in_oamp: also average the phantom opponents (0 points) into OAMP.

    Returns one :class:`MultiplayerRow` per entrant, ordered by match points, MWP,
    OAMP, OMWP (MP-TB, MP-TB-1, MP-TB-2, MP-TB-3), with exact Fractions. Raises
    :class:`~standings.engine.errors.StandingsError` for an unknown player, a player
    seated twice in a round, or a winner / excluded player / game not of the pod.
    """
    ppw = points_per_win(standard)
    tallies, mwp = multiplayer_counting(entrants, results, rounds=rounds, standard=standard)
    rows = [_row(e, tallies, mwp, ppw, rounds, phantom_in_oamp) for e in entrants]
    return _ranked(rows, {e.id for e in entrants if e.disqualified}, seed)


def multiplayer_counting(
    entrants: Sequence[Entrant], results: Sequence[PodResult], *, rounds: int, standard: int
) -> tuple[dict[str, _Tally], dict[str, Fraction]]:
    """Every entrant's totals over rounds ``1..rounds`` and their MWP (MP-TB-1): what the
    standings and the tiebreaker receipts (``standings.engine.receipts``) both read.
    Raises :class:`~standings.engine.errors.StandingsError` as the standings do."""
    ppw = points_per_win(standard)
    tallies = _tally(entrants, results, rounds, standard)
    return tallies, {pid: _mwp(t, ppw) for pid, t in tallies.items()}


def opponent_terms(
    t: _Tally,
    tallies: dict[str, _Tally],
    mwp: dict[str, Fraction],
    ppw: int,
    phantom_in_oamp: bool,
) -> tuple[list[int], list[Fraction]]:
    """The terms a player's OAMP and OMWP average, in order: one per opponent faced, then
    one per phantom opponent. OAMP (MP-TB-2): each opponent's match points (a phantom's
    0 only when ``phantom_in_oamp``); OMWP (MP-TB-3): each opponent's MWP floored at
    ``1 / ppw``, every phantom exactly that floor."""
    floor = Fraction(1, ppw)
    oamp = [tallies[o].points for o in t.opponents] + [0] * (t.phantoms if phantom_in_oamp else 0)
    omwp = [max(mwp[o], floor) for o in t.opponents] + [floor] * t.phantoms
    return oamp, omwp


def _tally(
    entrants: Sequence[Entrant], results: Sequence[PodResult], rounds: int, standard: int
) -> dict[str, _Tally]:
    tallies = {e.id: _Tally() for e in entrants}
    if len(tallies) != len(entrants):
        raise StandingsError("two entrants share the same id")
    seated: set[tuple[int, str]] = set()
    for result in sorted(results, key=lambda r: r.round):
        if not 1 <= result.round <= rounds:
            continue
        _check(result, tallies, seated)
        for pid in result.players:
            _add(tallies[pid], result, pid, standard)
    return tallies


def _check(result: PodResult, tallies: dict[str, _Tally], seated: set[tuple[int, str]]) -> None:
    where = f"round {result.round}, pod {', '.join(result.players)}"
    for pid in result.players:
        if pid not in tallies:
            raise StandingsError(f"{where}: {pid!r} is not an entrant")
        if (result.round, pid) in seated:
            raise StandingsError(f"{where}: {pid!r} is seated twice in this round")
        seated.add((result.round, pid))
    pod = set(result.players)
    if result.winner is not None and result.winner not in pod:
        raise StandingsError(f"{where}: the winner {result.winner!r} did not play")
    if not result.draw_excluded <= pod or result.winner in result.draw_excluded:
        raise StandingsError(f"{where}: a conceded or penalised player is not a loser of the pod")
    for game in result.games:
        began = game.players if game.players is not None else pod
        if not began <= pod or (game.winner is not None and game.winner not in began):
            raise StandingsError(f"{where}: a game lists a player who did not begin it")


def _add(t: _Tally, result: PodResult, pid: str, standard: int) -> None:
    points = match_points(result, pid, standard=standard)
    t.points += points
    t.game_points += game_points(result, pid, standard=standard)
    if result.is_bye:
        t.byes += 1
        return
    t.played += 1
    if result.late_loss:  # P-LATE-1: a round played and lost, nobody faced
        t.losses += 1
        return
    t.opponents.extend(o for o in result.players if o != pid)
    t.phantoms += max(0, standard - len(result.players))
    if result.winner == pid:
        t.wins += 1
    elif result.winner is None and points:
        t.draws += 1
    else:
        t.losses += 1


def _mwp(t: _Tally, ppw: int) -> Fraction:
    """MP-TB-1: (match points − byes × ppw) ÷ (matches played × ppw); 0 without a match."""
    if not t.played:
        return Fraction(0)
    return Fraction(t.points - t.byes * ppw, t.played * ppw)


def _row(
    e: Entrant,
    tallies: dict[str, _Tally],
    mwp: dict[str, Fraction],
    ppw: int,
    rounds: int,
    phantom_in_oamp: bool,
) -> MultiplayerRow:
    t = tallies[e.id]
    # MP-TB-2 / MP-TB-3: the means of the opponents' terms (phantoms included as told).
    oamp_terms, omwp_terms = opponent_terms(t, tallies, mwp, ppw, phantom_in_oamp)
    return MultiplayerRow(
        place=None,
        player=e.id,
        match_points=t.points,
        wins=t.wins,
        losses=t.losses,
        draws=t.draws,
        byes=t.byes,
        game_points=t.game_points,
        mwp=mwp[e.id],
        oamp=Fraction(sum(oamp_terms), len(oamp_terms)) if oamp_terms else Fraction(0),
        omwp=sum(omwp_terms, Fraction(0)) / len(omwp_terms) if omwp_terms else Fraction(0),
        dropped=e.dropped_after_round is not None and e.dropped_after_round <= rounds,
    )


def _ranked(
    rows: list[MultiplayerRow], disqualified: set[str], seed: int
) -> tuple[MultiplayerRow, ...]:
    """Sort by the MP-TB order, exact ties at random from ``seed``; number the places
    (disqualified entrants last, without a place)."""
    chance = draw.lot((row.player for row in rows), seed)
    ordered = sorted(
        rows,
        key=lambda row: (
            row.player in disqualified,
            -row.match_points,
            -row.mwp,
            -row.oamp,
            -row.omwp,
            chance[row.player],
        ),
    )
    return tuple(
        replace(row, place=None if row.player in disqualified else place)
        for place, row in enumerate(ordered, start=1)
    )
