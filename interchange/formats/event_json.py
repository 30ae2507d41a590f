"""Event JSON, version 1 (docs/interfaces.md): validation into ``EventData`` and writing back.

Validation is complete before anything is written; every error names the field at fault
(``rounds[2].matches[4].result``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from typing import Any

from rulesets import DEFAULT, RULESETS, clean_options, get_ruleset
from rulesets import KNOWN_OPTIONS as KNOWN_OPTIONS  # re-exported: options a file may carry
from tournaments.stored_text import gettext_storable

from .checks import DIVISIONS, PHASES, STRUCTURES, FileRefused, check_event_data, flag, shown
from .eventdata import DivisionData, EventData, MatchData, PlayerData, RoundData

FORMAT = "matchslip.event.v1"


#: ``matches[].kind`` (optional; written by ``export_event``): ``Match.kind``'s values.
MATCH_KINDS = ("swiss", "bracket", "third-place", "bye", "late-entry-loss")
#: How files written before ``kind`` explain a 3rd/4th place playoff (``why``).
THIRD_PLACE_WHY = "3rd/4th place playoff"


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
        raise EventFileError(
            gettext_storable("%(where)s: expected %(names)s, got %(value)s")
            % {"where": where, "names": names, "value": shown(value)}
        )
    return value


def _player(obj: Any, i: int) -> PlayerData:
    where = f"players[{i}]"
    if not isinstance(obj, dict):
        raise EventFileError(gettext_storable("%(where)s: expected an object") % {"where": where})
    division = obj.get("division", "open")
    if division not in DIVISIONS:
        raise EventFileError(
            gettext_storable("%(where)s.division: %(division)s is not one of %(join)s")
            % {"where": where, "division": shown(division), "join": ", ".join(DIVISIONS)}
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
        flight=_opt(obj, "flight", where, int, None),
        where=where,
    )


def _outcome(result: Any, players: tuple[str, ...], where: str) -> tuple[str, str | None]:
    if result is None:
        return "pending", None
    if len(players) == 1:
        if result in ("bye", "loss"):
            return result, None
        raise EventFileError(
            gettext_storable("%(where)s.result: a one-player match is 'bye' or 'loss'")
            % {"where": where}
        )
    if result in ("draw", "double-loss"):
        return result, None
    if result in players:
        return "win", result
    raise EventFileError(
        gettext_storable(
            "%(where)s.result: %(result)s is neither a player of this match, 'draw', 'double-loss' nor null"
        )
        % {"where": where, "result": shown(result)}
    )


def _match(obj: Any, where: str, ids: set[str], seen: set[str]) -> MatchData:
    if not isinstance(obj, dict):
        raise EventFileError(gettext_storable("%(where)s: expected an object") % {"where": where})
    players = tuple(
        str(_typed(p, f"{where}.players", (str, int))) for p in _req(obj, "players", where, list)
    )
    if not 1 <= len(players) <= 5:
        raise EventFileError(
            gettext_storable("%(where)s.players: expected 1 to 5 player ids") % {"where": where}
        )
    if len(set(players)) != len(players):
        raise EventFileError(
            gettext_storable("%(where)s.players: a player cannot play themselves")
            % {"where": where}
        )
    for pid in players:
        if pid not in ids:
            raise EventFileError(
                gettext_storable("%(where)s.players: unknown player id %(pid)s")
                % {"where": where, "pid": shown(pid)}
            )
        if pid in seen:
            raise EventFileError(
                gettext_storable("%(where)s.players: %(pid)r plays twice in this round")
                % {"where": where, "pid": pid}
            )
        seen.add(pid)
    outcome, winner = _outcome(obj.get("result"), players, where)
    table = _opt(obj, "table", where, int, 0)
    if table < 0:
        raise EventFileError(
            gettext_storable("%(where)s.table: expected a table number, got %(table)s")
            % {"where": where, "table": shown(table)}
        )
    games = _opt(obj, "games", where, list, None)
    conceded = _conceded(obj, players, where)
    why = _opt(obj, "why", where, str, "")
    kind = _opt(obj, "kind", where, str, "")
    if kind and kind not in MATCH_KINDS:
        raise EventFileError(
            gettext_storable("%(where)s.kind: expected one of %(kinds)s, got %(kind)s")
            % {"where": where, "kinds": ", ".join(MATCH_KINDS), "kind": shown(kind)}
        )
    # files written before ``kind`` mark the playoff by its explanation only
    third = kind == "third-place" or (not kind and why.startswith(THIRD_PLACE_WHY))
    return MatchData(
        table or None, players, outcome, winner, games, conceded, why=why, where=where,
        third_place=third,
    )  # fmt: skip


def _conceded(obj: dict[str, Any], players: tuple[str, ...], where: str) -> tuple[str, ...]:
    """Optional ``conceded``: pod players who conceded or took a match-loss penalty and
    get no share of a draw (MP-PTS-1); each must be a player of the match, not its winner."""
    conceded = obj.get("conceded", [])
    if not isinstance(conceded, list) or any(str(p) not in players for p in conceded):
        raise EventFileError(
            gettext_storable("%(where)s.conceded: expected a list of this match's players")
            % {"where": where}
        )
    if obj.get("result") in conceded:
        raise EventFileError(
            gettext_storable("%(where)s.conceded: the winner cannot have conceded")
            % {"where": where}
        )
    return tuple(str(p) for p in conceded)


def _round(obj: Any, i: int, ids: set[str]) -> RoundData:
    where = f"rounds[{i}]"
    if not isinstance(obj, dict):
        raise EventFileError(gettext_storable("%(where)s: expected an object") % {"where": where})
    number = _req(obj, "number", where, int)
    phase = obj.get("phase", "swiss")
    if phase not in PHASES:
        raise EventFileError(
            gettext_storable("%(where)s.phase: %(phase)s is not one of %(join)s")
            % {"where": where, "phase": shown(phase), "join": ", ".join(PHASES)}
        )
    seen: set[str] = set()
    matches = tuple(
        _match(m, f"{where}.matches[{j}]", ids, seen)
        for j, m in enumerate(_req(obj, "matches", where, list))
    )
    seeds = _opt(obj, "seeds", where, dict, {})
    for group, seed in seeds.items():
        _typed(seed, f"{where}.seeds.{group}", int)
    return RoundData(number, phase, matches, where, dict(seeds))


def _divisions(
    doc: dict[str, Any],
    players: list[PlayerData],
    rounds: list[RoundData],
    ruleset: str,
    options: dict[str, Any],
) -> list[DivisionData]:
    """The planned structure of every division the players use (docs/interfaces.md
    ``divisions``: ``code``, ``group`` — ``pod`` is the older spelling —, ``swiss_rounds``,
    ``day2_rounds``, ``top_cut``, ``flights``). A field or a division the file leaves out
    is inferred by :func:`infer_division`. Raises EventFileError naming the field."""
    given: dict[str, tuple[str, dict[str, Any]]] = {}
    for k, d in enumerate(_opt(doc, "divisions", "", list, [])):
        where = f"divisions[{k}]"
        _typed(d, where, dict)
        code = _req(d, "code", where, str)
        if code not in DIVISIONS:
            raise EventFileError(
                gettext_storable("%(where)s.code: %(code)s is not one of %(join)s")
                % {"where": where, "code": shown(code), "join": ", ".join(DIVISIONS)}
            )
        if code in given:
            raise EventFileError(
                gettext_storable("%(where)s.code: division %(code)r is given twice")
                % {"where": where, "code": code}
            )
        given[code] = (where, d)
    out = []
    groups: dict[str, str] = {}
    for code in sorted({p.division for p in players}):
        where, d = given.get(code, (f"divisions ({code})", {}))
        group = _opt(d, "group", where, str, None)
        groups[code] = group if group is not None else _opt(d, "pod", where, str, code)
    for code in sorted(groups):
        where, d = given.get(code, (f"divisions ({code})", {}))
        inferred = infer_division(code, groups, players, rounds, ruleset, options)
        swiss = _opt(d, "swiss_rounds", where, int, inferred.swiss_rounds)
        out.append(
            DivisionData(
                code,
                groups[code],
                max(swiss, inferred.held_swiss),  # never fewer rounds than the file holds
                _opt(d, "top_cut", where, int, inferred.top_cut),
                _opt(d, "flights", where, int, inferred.flights),
                where=where,
                day2_rounds=max(
                    _opt(d, "day2_rounds", where, int, inferred.day2_rounds), inferred.held_day2
                ),
            )
        )
    return out


@dataclass(frozen=True)
class Inferred:
    """What :func:`infer_division` finds for one division: the planned ``swiss_rounds``,
    ``day2_rounds``, ``top_cut`` and ``flights``, and the Swiss rounds the file holds."""

    swiss_rounds: int
    day2_rounds: int
    top_cut: int
    flights: int
    held_swiss: int
    held_day2: int


def infer_division(
    code: str,
    groups: dict[str, str],
    players: list[PlayerData],
    rounds: list[RoundData],
    ruleset: str,
    options: dict[str, Any],
) -> Inferred:
    """A division's structure from its rounds when ``divisions`` does not say it
    (docs/interfaces.md): Day 2 from its ``swiss-day2`` rounds (P-D2-1), the cut from the first
    ``top-cut`` round holding its players, flights from its players' ``flight``, and what
    has not been played yet from the ruleset's round-count table (P-RT-1…7) for the
    attendance — the largest division of its pairing group (P-AGE-4) —, never fewer rounds
    than the file holds. A standalone single-elimination file (no Swiss round) has no Swiss
    rounds and no cut. ``groups``: division code → pairing group."""
    group = groups[code]
    in_group = {p.id for p in players if groups[p.division] == group}
    mine = {p.id for p in players if p.division == code}

    def numbers(phase: str, ids: set[str]) -> list[int]:
        return sorted(
            {
                r.number
                for r in rounds
                if r.phase == phase and any(pid in ids for m in r.matches for pid in m.players)
            }
        )

    held_swiss = len(numbers("swiss", in_group))
    held_day2 = len(numbers("swiss-day2", in_group))
    flights = max((p.flight or 0 for p in players if p.division == code), default=0)
    flights = flights if flights > 1 else 0
    if any(r.phase == "single-elimination" for r in rounds) and not any(
        r.phase in ("swiss", "swiss-day2") for r in rounds
    ):
        return Inferred(0, 0, 0, flights, 0, 0)
    cut_rounds = [r for r in rounds if r.phase == "top-cut"]
    first_cut = next(
        (
            {pid for m in r.matches for pid in m.players if pid in mine}
            for r in sorted(cut_rounds, key=lambda r: r.number)
            if any(pid in mine for m in r.matches for pid in m.players)
        ),
        None,
    )
    sizes = Counter(p.division for p in players if groups[p.division] == group)
    attendance = max(sizes.values(), default=0)
    rules = get_ruleset(ruleset)
    try:
        rec = rules.recommend(attendance, options=options, two_day=held_day2 > 0)
        table_rounds, table_cut, table_day2 = rec.rounds, rec.cut, rec.day2_rounds
    except ValueError:  # fewer players than any table row
        table_rounds, table_cut, table_day2 = 0, 0, 0
    if table_cut not in rules.allowed_cuts():
        table_cut = 0
    return Inferred(
        swiss_rounds=max(held_swiss, table_rounds),
        day2_rounds=max(held_day2, table_day2) if held_day2 else 0,
        top_cut=len(first_cut) if first_cut is not None else table_cut,
        flights=flights,
        held_swiss=held_swiss,
        held_day2=held_day2,
    )


def _options(ruleset: str, options: Any) -> dict[str, Any]:
    """The ruleset options, checked against the specs in ``tournaments.rulesets``:
    unknown options are an error, and a bad value is named (docs/interfaces.md, R-7, R-8)."""
    if not isinstance(options, dict):
        raise EventFileError(gettext_storable("options: expected an object"))
    try:
        return clean_options(ruleset, options)
    except ValueError as e:
        raise EventFileError(gettext_storable("options: %(e)s") % {"e": e}) from None


def _date(value: Any) -> dt.date | None:
    if value is None or value == "":
        return None
    try:
        return dt.date.fromisoformat(_typed(value, "date", str))
    except ValueError:
        raise EventFileError(
            gettext_storable("date: %(value)s is not a date (YYYY-MM-DD)") % {"value": shown(value)}
        ) from None


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
        raise EventFileError(gettext_storable("format: expected %(format)r") % {"format": FORMAT})
    ruleset = doc.get("ruleset", DEFAULT)
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        known = ", ".join(RULESETS)
        raise EventFileError(
            gettext_storable("ruleset: unknown ruleset %(ruleset)s (known: %(known)s)")
            % {"ruleset": shown(ruleset), "known": known}
        )
    options = _options(ruleset, doc.get("options", {}))
    players = [_player(p, i) for i, p in enumerate(_req(doc, "players", "", list))]
    ids = {p.id for p in players}
    if len(ids) != len(players):
        raise EventFileError(gettext_storable("players: duplicate player id"))
    rounds = [_round(r, i, ids) for i, r in enumerate(_opt(doc, "rounds", "", list, []))]
    divisions = _divisions(doc, players, rounds, ruleset, options)
    structure = _opt(doc, "structure", "", str, "")
    if structure and structure not in STRUCTURES:
        raise EventFileError(
            gettext_storable("structure: %(structure)s is not one of %(join)s")
            % {"structure": shown(structure), "join": ", ".join(STRUCTURES)}
        )
    return EventData(
        name=_req(doc, "name", "", str),
        ruleset=ruleset,
        players=players,
        divisions=divisions,
        rounds=rounds,
        options=options,
        date=_date(doc.get("date")),
        location=_opt(doc, "location", "", str, ""),
        third_place_playoff=flag(doc.get("third_place_playoff", False), "third_place_playoff"),
        day2_rounds=max((d.day2_rounds for d in divisions), default=0),
        structure=structure,
        sanction_id=_opt(doc, "sanction_id", "", str, ""),
        organizer_pop_id=str(_opt(doc, "organizer_pop_id", "", (str, int), "")),
    )
