"""The best-of-3 game-record rule shared by the rulesets that record games (M-MATCH-1)."""

from __future__ import annotations

from standings.engine.games import GameRecord, validate_game_record


def check_games(games: tuple[int, int, int], elimination: bool) -> tuple[str, int | None]:
    """A best-of-3 game record ``(wins of seat 1, wins of seat 2, drawn games)`` as a match
    result: ``("win", winner seat index)`` or ``("draw", None)`` (M-MATCH-1: 2-0, 2-1, 1-0-2
    win; 1-1-1, 0-0-3 draw). Raises ``GameRecordError`` (a ValueError) for an impossible
    record: 3-0, 2-2, more than 3 games, 0-0-0, a draw in single elimination (M-SE-2)."""
    verdict = validate_game_record(GameRecord(*games), elimination=elimination)
    return str(verdict.outcome.value), verdict.winner
