"""Best-of-N game records: which results are possible, who won, game and match points.

A game record is the match slip's ``W-L-D`` line seen from player A: games won by A, games
won by B, drawn games (M-MATCH-1). The rules applied (best-of-3 unless told otherwise):

* a player needs ``best_of // 2 + 1`` game wins (2 of 3) to win; drawn games do not count
  toward them, so nobody can have more (3-0 is impossible) and both cannot have them (2-2);
* at most ``best_of`` games are recorded in all: an unfinished game at time is reported as
  a drawn game (M-PTS-2), so 2-1-1 or 1-1-2 are refused; an intentional draw with no game
  played is reported 0-0-3 (M-MATCH-1), and an empty record 0-0-0 is refused;
* at time, the player with more game wins wins the match (1-0, 1-0-2, 2-0-1); equal game
  wins is a drawn match (1-1, 1-1-1, 0-0-3) — except in single elimination, where a
  match cannot end in a draw (M-SE-2).
"""

from __future__ import annotations

from dataclasses import dataclass

from .types import Outcome

#: Game points per game won / drawn / lost (M-PTS-2).
GAME_POINTS_WIN, GAME_POINTS_DRAW = 3, 1
#: Match points per match won / drawn / lost (M-PTS-1).
MATCH_POINTS_WIN, MATCH_POINTS_DRAW = 3, 1


def gettext_noop(text: str) -> str:
    """Marks ``text`` for the translation catalogue (Django's makemessages picks up this
    name) without translating it: the engine never imports Django."""
    return text


_NEGATIVE = gettext_noop("%(record)s: game counts cannot be negative")
_NO_ELIMINATION_DRAW = gettext_noop("%(record)s: a single-elimination match cannot end in a draw")
_FEWER_WINS = gettext_noop(
    "%(record)s: player %(side)s is reported as the winner with fewer game wins "
    "than the opponent (the player with more game wins wins the match)"
)
_EQUAL_WINS = gettext_noop(
    "%(record)s: equal game wins is a drawn match, not a win for player %(side)s"
)


class GameRecordError(ValueError):
    """A game record that no best-of-N match can produce; the message says why.

    ``template`` is the English message with ``%(name)s`` placeholders (marked for the
    catalogue) and ``params`` its values, so the page showing it can translate the
    template and fill it in: ``gettext(e.template) % e.params``; ``str(e)`` is the English.
    """

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template % params)
        self.template = template
        self.params = params


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Games won by player A, games won by player B, drawn games (counts, never negative)."""

    wins_a: int
    wins_b: int
    draws: int = 0

    @property
    def games(self) -> int:
        """Games played: won, lost and drawn (the GW% denominator, M-TB-2)."""
        return self.wins_a + self.wins_b + self.draws

    def __str__(self) -> str:
        return f"{self.wins_a}-{self.wins_b}-{self.draws}"


#: A bye is a 2-0 match win: 3 match points, 6 game points over 2 games (M-PTS-1).
BYE_GAMES = GameRecord(2, 0, 0)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The match result a game record stands for.

    outcome: ``Outcome.WIN`` or ``Outcome.DRAW``; winner: 0 (player A) or 1 (player B)
    for a win, None for a draw.
    """

    outcome: Outcome
    winner: int | None = None


def _verdict(record: GameRecord, elimination: bool, winner: int | None) -> Verdict:
    """More game wins won the match, equal game wins is a drawn match (M-MATCH-1);
    raises GameRecordError for a draw in single elimination (M-SE-2) or a ``winner`` on
    record without more game wins."""
    a, b = record.wins_a, record.wins_b
    if a == b:
        if elimination:
            raise GameRecordError(_NO_ELIMINATION_DRAW, record=record)
        verdict = Verdict(Outcome.DRAW)
    else:
        verdict = Verdict(Outcome.WIN, 0 if a > b else 1)
    if winner is not None and verdict.winner != winner:
        side = "A" if winner == 0 else "B"
        raise GameRecordError(
            _FEWER_WINS if verdict.winner is not None else _EQUAL_WINS, record=record, side=side
        )
    return verdict


def validate_game_record(
    record: GameRecord,
    *,
    best_of: int = 3,
    elimination: bool = False,
    winner: int | None = None,
) -> Verdict:
    """Check a game record and say who won the match (M-MATCH-1, M-SE-2).

    record: games won by A, won by B, drawn. best_of: games in the match (odd, ≥ 1).
    elimination: a single-elimination match, which cannot be drawn (M-SE-2).
    winner: the winner written on the slip (0 = A, 1 = B), checked against the games.

    Returns a :class:`Verdict`: accepted are 2-0, 2-1, 1-0 and 1-0-2 (more game wins wins
    at time), 1-1-1, 1-1, 0-0-1 and the intentional draw 0-0-3 (drawn matches). Raises
    :class:`GameRecordError` for negative counts, a player above the wins needed (3-0 in a
    best-of-3), both players at the wins needed (2-2), more than ``best_of`` games, no game
    at all (0-0-0), a draw in single elimination, or a ``winner`` who has fewer game wins
    than the opponent (or the same number).
    """
    _check_counts(record, best_of)
    return _verdict(record, elimination, winner)


def recorded_verdict(
    record: GameRecord, *, elimination: bool = False, winner: int | None = None
) -> Verdict:
    """The match result an official record stands for, counted as recorded.

    The standings engines count every game record the way the official software counted
    it: the player with more game wins won the match, equal game wins is a drawn match —
    even when the live rules would refuse the record (a 3-0 in a best-of-3, a best-of-5
    final's 3-2, 0-0-0). Live slip entry stays strict: the result services check
    :func:`validate_game_record` before anything is stored; this check only refuses what
    contradicts itself.

    record: games won by A, won by B, drawn. elimination: a single-elimination match
    (no draw, M-SE-2). winner: the result on record (0 = A, 1 = B; None: not given).
    Returns the :class:`Verdict`. Raises :class:`GameRecordError` for negative counts, a
    draw in single elimination, or a ``winner`` without more game wins (M-MATCH-1).
    """
    if min(record.wins_a, record.wins_b, record.draws) < 0:
        raise GameRecordError(_NEGATIVE, record=record)
    return _verdict(record, elimination, winner)


def _check_counts(record: GameRecord, best_of: int) -> None:
    if best_of < 1 or best_of % 2 == 0:
        raise GameRecordError(
            gettext_noop("best of %(best_of)s: a match is best of an odd number of games"),
            best_of=best_of,
        )
    if min(record.wins_a, record.wins_b, record.draws) < 0:
        raise GameRecordError(_NEGATIVE, record=record)
    needed = best_of // 2 + 1
    most = max(record.wins_a, record.wins_b)
    if most > needed:
        raise GameRecordError(
            gettext_noop(
                "%(record)s: nobody wins more than %(needed)s games in a best-of-%(best_of)s match"
            ),
            record=record,
            needed=needed,
            best_of=best_of,
        )
    if min(record.wins_a, record.wins_b) == needed:
        raise GameRecordError(
            gettext_noop("%(record)s: both players cannot reach %(needed)s game wins"),
            record=record,
            needed=needed,
        )
    if record.games > best_of:
        raise GameRecordError(
            gettext_noop(
                "%(record)s: %(games)s games recorded, a best-of-%(best_of)s match has at most "
                "%(best_of)s (report an unfinished game as a draw)"
            ),
            record=record,
            games=record.games,
            best_of=best_of,
        )
    if record.games == 0:
        raise GameRecordError(
            gettext_noop(
                "%(record)s: no game recorded (an intentional draw is reported 0-0-%(best_of)s)"
            ),
            record=record,
            best_of=best_of,
        )


def game_points(record: GameRecord) -> tuple[int, int]:
    """Game points of A and of B: 3 per game won, 1 per drawn game, 0 per game lost (M-PTS-2).

    Won 2-0-0 → (6, 0); 2-1-0 → (6, 3); 2-0-1 → (7, 1). The record is not validated.
    """
    draws = GAME_POINTS_DRAW * record.draws
    return (
        GAME_POINTS_WIN * record.wins_a + draws,
        GAME_POINTS_WIN * record.wins_b + draws,
    )


def match_points(wins: int, losses: int, draws: int) -> int:
    """Match points of a W-L-D match record: 3 per win (byes included), 1 per draw (M-PTS-1).

    6-2-0 → 18; 4-2-2 → 14. ``losses`` score nothing and are accepted for readability.
    Raises ValueError for negative counts.
    """
    if min(wins, losses, draws) < 0:
        raise ValueError(f"impossible match record {wins}-{losses}-{draws}")
    return MATCH_POINTS_WIN * wins + MATCH_POINTS_DRAW * draws
