"""Event JSON, version 1 (INTERFACES.md): validation into ``EventData`` and writing back.

Validation is complete before anything is written; every error names the field at fault
(``rounds[2].matches[4].result``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from rulesets import KNOWN_OPTIONS as KNOWN_OPTIONS  # re-exported: options a file may carry
from rulesets import DEFAULT, RULESETS, Ruleset, clean_options, get_ruleset

from .eventdata import DivisionData, EventData, MatchData, PlayerData, RoundData

FORMAT = "matchslip.event.v1"
DIVISIONS = ("junior", "senior", "masters", "open")
PHASES = ("swiss", "swiss-day2", "single-elimination", "top-cut")


class EventFileError(ValueError):
    """The file is not a valid event JSON v1 document; the message names the field."""


def _req(obj: dict[str, Any], key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if key not in obj:
        raise EventFileError(f"{where}.{key}: missing")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise EventFileError(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}")
    return value


def _player(obj: Any, i: int) -> PlayerData:
    where = f"players[{i}]"
    if not isinstance(obj, dict):
        raise EventFileError(f"{where}: expected an object")
    division = obj.get("division", "open")
    if division not in DIVISIONS:
        raise EventFileError(f"{where}.division: {division!r} is not one of {', '.join(DIVISIONS)}")
    dropped = obj.get("dropped_after_round")
    if dropped is not None and (not isinstance(dropped, int) or dropped < 0):
        raise EventFileError(f"{where}.dropped_after_round: expected a round number or null")
    year = obj.get("birth_year")
    if year is not None and not isinstance(year, int):
        raise EventFileError(f"{where}.birth_year: expected a year")
    return PlayerData(
        id=str(_req(obj, "id", where, (str, int))),
        name=_req(obj, "name", where, str),
        division=division,
        birth_year=year,
        player_id=str(obj.get("player_id", "")),
        late=bool(obj.get("late", False)),
        dropped_after_round=dropped,
        disqualified=bool(obj.get("disqualified", False)),
    )


def _outcome(result: Any, players: tuple[str, ...], where: str) -> tuple[str, str | None]:
    if result is None:
        return "pending", None
    if len(players) == 1:
        if result in ("bye", "loss"):
            return result, None
        raise EventFileError(f"{where}.result: a one-player match is 'bye' or 'loss'")
    if result in ("draw", "double-loss"):
        return result, None
    if result in players:
        return "win", result
    raise EventFileError(
        f"{where}.result: {result!r} is neither a player of this match, "
        "'draw', 'double-loss' nor null"
    )


def _match(obj: Any, where: str, ids: set[str], seen: set[str]) -> MatchData:
    if not isinstance(obj, dict):
        raise EventFileError(f"{where}: expected an object")
    players = tuple(str(p) for p in _req(obj, "players", where, list))
    if not 1 <= len(players) <= 5:
        raise EventFileError(f"{where}.players: expected 1 to 5 player ids")
    for pid in players:
        if pid not in ids:
            raise EventFileError(f"{where}.players: unknown player id {pid!r}")
        if pid in seen:
            raise EventFileError(f"{where}.players: {pid!r} plays twice in this round")
        seen.add(pid)
    outcome, winner = _outcome(obj.get("result"), players, where)
    table = obj.get("table")
    if table is not None and (not isinstance(table, int) or table < 0):
        raise EventFileError(f"{where}.table: expected a table number")
    games = obj.get("games")
    if games is not None and (not isinstance(games, list) or len(games) != 3):
        raise EventFileError(f"{where}.games: expected [wins, wins, draws]")
    return MatchData(table or None, players, outcome, winner, games, _conceded(obj, players, where))


def _conceded(obj: dict[str, Any], players: tuple[str, ...], where: str) -> tuple[str, ...]:
    """Optional ``conceded``: pod players who conceded or took a match-loss penalty and
    get no share of a draw (MP-PTS-1); each must be a player of the match, not its winner."""
    conceded = obj.get("conceded", [])
    if not isinstance(conceded, list) or any(str(p) not in players for p in conceded):
        raise EventFileError(f"{where}.conceded: expected a list of this match's players")
    if obj.get("result") in conceded:
        raise EventFileError(f"{where}.conceded: the winner cannot have conceded")
    return tuple(str(p) for p in conceded)


def _round(obj: Any, i: int, ids: set[str]) -> RoundData:
    where = f"rounds[{i}]"
    if not isinstance(obj, dict):
        raise EventFileError(f"{where}: expected an object")
    number = _req(obj, "number", where, int)
    phase = obj.get("phase", "swiss")
    if phase not in PHASES:
        raise EventFileError(f"{where}.phase: {phase!r} is not one of {', '.join(PHASES)}")
    seen: set[str] = set()
    matches = tuple(
        _match(m, f"{where}.matches[{j}]", ids, seen)
        for j, m in enumerate(_req(obj, "matches", where, list))
    )
    return RoundData(number, phase, matches)


def _check_results(ruleset_id: str, rounds: list[RoundData]) -> None:
    """Head-to-head results the ruleset allows, as a match slip would (``results``):
    no tie under ``pokemon-2009`` or ``bo3-wins-against``, none in single elimination
    (M-SE-2, P-SE), and a best-of-3 game record that is possible and gives the result
    (M-MATCH-1). Raises EventFileError naming the match."""
    ruleset = get_ruleset(ruleset_id)
    for i, rd in enumerate(rounds):
        elimination = rd.phase in ("top-cut", "single-elimination")
        for j, m in enumerate(rd.matches):
            if len(m.players) == 2:
                _check_match(ruleset, m, elimination, f"rounds[{i}].matches[{j}]")


def _check_match(ruleset: Ruleset, m: MatchData, elimination: bool, where: str) -> None:
    if m.outcome == "draw" and not ruleset.allows_ties:
        raise EventFileError(f"{where}.result: the {ruleset.label} rules have no ties")
    if m.outcome == "draw" and elimination:
        raise EventFileError(
            f"{where}.result: a single-elimination match cannot be a draw (M-SE-2)"
        )
    if m.games is None or not ruleset.game_record or m.outcome not in ("win", "draw"):
        return
    try:
        verdict, index = ruleset.game_verdict(tuple(m.games), elimination=elimination)
    except (TypeError, ValueError) as e:
        raise EventFileError(f"{where}.games: impossible game record {e} (M-MATCH-1)") from None
    if (verdict, None if index is None else m.players[index]) != (m.outcome, m.winner):
        raise EventFileError(f"{where}.games: {m.games} does not give this result (M-MATCH-1)")


def _divisions(
    doc: dict[str, Any], players: list[PlayerData], rounds: list[RoundData]
) -> list[DivisionData]:
    """Divisions used by the players; each is its own pod unless ``divisions`` (an
    optional list of ``{code, pod, swiss_rounds, top_cut}``) says otherwise."""
    given = {d.get("code"): d for d in doc.get("divisions", []) if isinstance(d, dict)}
    swiss = len({r.number for r in rounds if r.phase == "swiss"})
    out = []
    for code in sorted({p.division for p in players}):
        d = given.get(code, {})
        out.append(
            DivisionData(
                code,
                str(d.get("pod", code)),
                int(d.get("swiss_rounds", swiss)),
                int(d.get("top_cut", 0)),
            )
        )
    return out


def _options(ruleset: str, options: Any) -> dict[str, Any]:
    """The ruleset options, checked against the specs in ``tournaments.rulesets``:
    unknown options are an error, and a bad value is named (INTERFACES.md, R-7, R-8)."""
    if not isinstance(options, dict):
        raise EventFileError("options: expected an object")
    try:
        return clean_options(ruleset, options)
    except ValueError as e:
        raise EventFileError(f"options: {e}") from None


def parse_event_json(doc: Any) -> EventData:
    """Validate a decoded event JSON v1 document and return ``EventData``.

    Raises EventFileError naming the field at fault. Multiplayer pods (3–5 players per
    match) may list ``conceded`` players (MP-PTS-1).
    """
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise EventFileError(f"format: expected {FORMAT!r}")
    ruleset = doc.get("ruleset", DEFAULT)
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        known = ", ".join(RULESETS)
        raise EventFileError(f"ruleset: unknown ruleset {ruleset!r} (known: {known})")
    options = _options(ruleset, doc.get("options", {}))
    players = [_player(p, i) for i, p in enumerate(_req(doc, "players", "", list))]
    ids = {p.id for p in players}
    if len(ids) != len(players):
        raise EventFileError("players: duplicate player id")
    rounds = [_round(r, i, ids) for i, r in enumerate(doc.get("rounds", []))]
    _check_results(ruleset, rounds)
    return EventData(
        name=_req(doc, "name", "", str),
        ruleset=ruleset,
        players=players,
        divisions=_divisions(doc, players, rounds),
        rounds=rounds,
        options=options,
        date=dt.date.fromisoformat(doc["date"]) if doc.get("date") else None,
        location=str(doc.get("location", "")),
        third_place_playoff=bool(doc.get("third_place_playoff", False)),
    )
