"""Event JSON, version 1 (INTERFACES.md): validation into ``EventData`` and writing back.

Validation is complete before anything is written; every error names the field at fault
(``rounds[2].matches[4].result``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from rulesets import DEFAULT, RULESETS, clean_options
from rulesets import KNOWN_OPTIONS as KNOWN_OPTIONS  # re-exported: options a file may carry

from .checks import DIVISIONS, PHASES, FileRefused, check_event_data, flag, shown
from .eventdata import DivisionData, EventData, MatchData, PlayerData, RoundData

FORMAT = "matchslip.event.v1"


class EventFileError(FileRefused):
    """The file is not a valid event JSON v1 document; the message names the field."""


def _req(obj: dict[str, Any], key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if key not in obj:
        raise EventFileError(f"{where}.{key}: missing".lstrip("."))
    return _typed(obj[key], f"{where}.{key}".lstrip("."), kind)


def _opt(
    obj: dict[str, Any], key: str, where: str, kind: type | tuple[type, ...], default: Any
) -> Any:
    """``obj[key]`` checked against ``kind``, or ``default`` when absent or null."""
    value = obj.get(key)
    return default if value is None else _typed(value, f"{where}.{key}".lstrip("."), kind)


def _typed(value: Any, where: str, kind: type | tuple[type, ...]) -> Any:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise EventFileError(f"{where}: expected {names}, got {shown(value)}")
    return value


def _player(obj: Any, i: int) -> PlayerData:
    where = f"players[{i}]"
    if not isinstance(obj, dict):
        raise EventFileError(f"{where}: expected an object")
    division = obj.get("division", "open")
    if division not in DIVISIONS:
        raise EventFileError(
            f"{where}.division: {shown(division)} is not one of {', '.join(DIVISIONS)}"
        )
    return PlayerData(
        id=str(_req(obj, "id", where, (str, int))),
        name=_req(obj, "name", where, str),
        division=division,
        birth_year=_opt(obj, "birth_year", where, int, None),
        player_id=str(_opt(obj, "player_id", where, (str, int), "")),
        late=flag(obj.get("late", False), f"{where}.late"),
        dropped_after_round=_opt(obj, "dropped_after_round", where, int, None),
        disqualified=flag(obj.get("disqualified", False), f"{where}.disqualified"),
        where=where,
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
        f"{where}.result: {shown(result)} is neither a player of this match, "
        "'draw', 'double-loss' nor null"
    )


def _match(obj: Any, where: str, ids: set[str], seen: set[str]) -> MatchData:
    if not isinstance(obj, dict):
        raise EventFileError(f"{where}: expected an object")
    players = tuple(
        str(_typed(p, f"{where}.players", (str, int))) for p in _req(obj, "players", where, list)
    )
    if not 1 <= len(players) <= 5:
        raise EventFileError(f"{where}.players: expected 1 to 5 player ids")
    if len(set(players)) != len(players):
        raise EventFileError(f"{where}.players: a player cannot play themselves")
    for pid in players:
        if pid not in ids:
            raise EventFileError(f"{where}.players: unknown player id {shown(pid)}")
        if pid in seen:
            raise EventFileError(f"{where}.players: {pid!r} plays twice in this round")
        seen.add(pid)
    outcome, winner = _outcome(obj.get("result"), players, where)
    table = _opt(obj, "table", where, int, 0)
    if table < 0:
        raise EventFileError(f"{where}.table: expected a table number, got {shown(table)}")
    games = _opt(obj, "games", where, list, None)
    return MatchData(
        table or None, players, outcome, winner, games, _conceded(obj, players, where), where
    )


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
        raise EventFileError(f"{where}.phase: {shown(phase)} is not one of {', '.join(PHASES)}")
    seen: set[str] = set()
    matches = tuple(
        _match(m, f"{where}.matches[{j}]", ids, seen)
        for j, m in enumerate(_req(obj, "matches", where, list))
    )
    return RoundData(number, phase, matches, where)


def _divisions(
    doc: dict[str, Any], players: list[PlayerData], rounds: list[RoundData]
) -> list[DivisionData]:
    """Divisions used by the players; each is its own pod unless ``divisions`` (an
    optional list of ``{code, group, swiss_rounds, top_cut}``; ``pod`` is the older
    spelling of ``group``) says otherwise."""
    given: dict[str, tuple[str, dict[str, Any]]] = {}
    for k, d in enumerate(_opt(doc, "divisions", "", list, [])):
        where = f"divisions[{k}]"
        _typed(d, where, dict)
        code = _req(d, "code", where, str)
        if code not in DIVISIONS:
            raise EventFileError(
                f"{where}.code: {shown(code)} is not one of {', '.join(DIVISIONS)}"
            )
        if code in given:
            raise EventFileError(f"{where}.code: division {code!r} is given twice")
        given[code] = (where, d)
    swiss = len({r.number for r in rounds if r.phase == "swiss"})
    out = []
    for code in sorted({p.division for p in players}):
        where, d = given.get(code, (f"divisions ({code})", {}))
        group = _opt(d, "group", where, str, None)
        out.append(
            DivisionData(
                code,
                group if group is not None else _opt(d, "pod", where, str, code),
                _opt(d, "swiss_rounds", where, int, swiss),
                _opt(d, "top_cut", where, int, 0),
                where=where,
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


def _date(value: Any) -> dt.date | None:
    if value is None or value == "":
        return None
    try:
        return dt.date.fromisoformat(_typed(value, "date", str))
    except ValueError:
        raise EventFileError(f"date: {shown(value)} is not a date (YYYY-MM-DD)") from None


def parse_event_json(doc: Any) -> EventData:
    """Validate a decoded event JSON v1 document and return ``EventData``.

    Checks the document's types here, then everything the formats share with
    ``checks.check_event_data`` (lengths, ranges, one seat per round, the ruleset's
    result rules). Raises EventFileError naming the field at fault. Multiplayer pods
    (3–5 players per match) may list ``conceded`` players (MP-PTS-1).
    """
    try:
        data = _event(doc)
        check_event_data(data)
    except EventFileError:
        raise
    except FileRefused as e:
        raise EventFileError(str(e)) from None
    return data


def _event(doc: Any) -> EventData:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise EventFileError(f"format: expected {FORMAT!r}")
    ruleset = doc.get("ruleset", DEFAULT)
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        known = ", ".join(RULESETS)
        raise EventFileError(f"ruleset: unknown ruleset {shown(ruleset)} (known: {known})")
    options = _options(ruleset, doc.get("options", {}))
    players = [_player(p, i) for i, p in enumerate(_req(doc, "players", "", list))]
    ids = {p.id for p in players}
    if len(ids) != len(players):
        raise EventFileError("players: duplicate player id")
    rounds = [_round(r, i, ids) for i, r in enumerate(_opt(doc, "rounds", "", list, []))]
    return EventData(
        name=_req(doc, "name", "", str),
        ruleset=ruleset,
        players=players,
        divisions=_divisions(doc, players, rounds),
        rounds=rounds,
        options=options,
        date=_date(doc.get("date")),
        location=_opt(doc, "location", "", str, ""),
        third_place_playoff=flag(doc.get("third_place_playoff", False), "third_place_playoff"),
    )
