"""The game-record rule shared by the rulesets that record games (M-MATCH-1): best-of-3,
or best-of-1 where the event chose it (``match_length``)."""

from __future__ import annotations

from standings.engine.games import GameRecord, validate_game_record


def check_games(
    games: tuple[int, int, int], elimination: bool, best_of: int = 3
) -> tuple[str, int | None]:
    """A game record ``(wins of seat 1, wins of seat 2, drawn games)`` of a best-of-3 (or
    ``best_of``) match as a match result: ``("win", winner seat index)`` or ``("draw",
    None)`` (M-MATCH-1: 2-0, 2-1, 1-0-2 win; 1-1-1, 0-0-3 draw; best-of-1: 1-0 win, 0-0-1
    draw). Raises ``GameRecordError`` (a ValueError) for an impossible record: 3-0, 2-2,
    more than 3 games, 0-0-0, a draw in single elimination (M-SE-2); in a best-of-1 a
    second game (2-0, 1-1, 1-0-1)."""
    verdict = validate_game_record(GameRecord(*games), best_of=best_of, elimination=elimination)
    return str(verdict.outcome.value), verdict.winner
