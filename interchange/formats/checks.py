"""The checks every imported event passes before anything is written (docs/interfaces.md).

Each file format reads its file into ``EventData`` and checks what only it can name (XML
elements, JSON types); :func:`check_event_data` then checks what every format shares, in
one place so that no format can forget one:

* the size limits (:data:`MAX_PLAYERS`, :data:`MAX_ROUNDS`; :data:`MAX_FILE_BYTES` is
  checked by whoever reads the file);
* the Play! Pokémon sanction ID and organiser's POP ID, when the file has them, as
  Play! Pokémon writes them (``tournaments.identities``; the database refuses others);
* what the database can store: the lengths of the models' ``CharField``s, the ranges of
  PostgreSQL ``smallint`` and ``integer`` columns, text without NUL characters or lone
  surrogates, JSON without NaN or deep nesting (``tests/tournaments/test_hostile_files``
  holds these numbers against the models);
* names — the players', the event's and its venue — as the one text rule for names takes
  them (:func:`name`, ``tournaments.text``: no control character, no bidirectional
  control, something visible);
* what the file must not contradict: unique player ids and divisions, every player in a
  division of the file, a player at most once in a round and never against themselves, a
  round number given once per phase, round numbers 1, 2, 3 … without a gap over the file
  and within each pairing group, a result that fits the match (a
  winner who played);
* the ruleset's result rules, as a match slip applies them: no tie under ``pokemon-2009``
  or ``bo3-wins-against``, no drawn single-elimination match (M-SE-2), and on best-of-3
  rulesets a game record that gives the result (M-MATCH-1: more game wins wins, equal
  game wins is a draw), while other rulesets take no game record at all.

Real official records are imported as recorded: a game record the live rules would
refuse but that a best-of-5 match could produce and that agrees with its result (a 3-0
in a best-of-3 from melee.gg, a best-of-5 final's 3-2) is kept, and :func:`check_event_data` returns a note for it (the import
commands print it on standard error and the event keeps it in ``Event.import_notes``);
the standings count it as the official software did (``standings.engine.games.
recorded_verdict``). Only a record that contradicts its result is refused. A match result
without its game record (``games`` is optional, docs/interfaces.md; topdeck.gg publishes
results only) is imported as recorded too, with one note for the file:
its match points and OMW are exact, GW and OGW count the games known; the standings say
so. A best-of-1 event's game records are checked as best-of-1 (its ``match_length``
option).

Errors raise :class:`FileRefused` (every format's error is one) naming the element or
field, by the names the file uses (``EventData.fields`` and each item's ``where``).
No models: Django only for translated messages and the upload limit
(``settings.UPLOAD_MAX_BYTES``, read once at start-up).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings

from rulesets import RULESETS, Ruleset
from standings.engine.games import GameRecord, validate_game_record
from tournaments.identities import pop_id_problem, sanction_id_problem
from tournaments.stored_text import gettext_storable
from tournaments.text import name_problem

from .eventdata import DivisionData, EventData, MatchData, PlayerData, RoundData

# An upload or a file given to an import command: the one upload limit (settings).
MAX_FILE_BYTES: int = settings.UPLOAD_MAX_BYTES
MAX_PLAYERS = 20_000
MAX_ROUNDS = 40  # rounds in a file, and the highest round number
MAX_FLIGHTS = 16  # P-FL-2: 2, 4, 8 or 16 flights
NAME_LENGTH = 200  # Event.name, Event.location, Player.name
PLAYER_ID_LENGTH = 40  # Player.player_id
EXTERNAL_ID_LENGTH = 64  # Registration.external_id
POD_LENGTH = 40  # PairingGroup.key
FLIGHT_SUFFIX_LENGTH = len("#flight-16")  # tournaments.groups.flight_key
SMALLINT = 32_767  # PostgreSQL smallint: PositiveSmallIntegerField
INTEGER = 2_147_483_647  # PostgreSQL integer: PositiveIntegerField (Match.table)
MAX_JSON_DEPTH = 20  # Event.options, Event.source
MAX_JSON_INTEGER = 2**63 - 1

#: An official game record is kept as recorded when a best-of-5 match could produce it
#: (a 3-0 in a best-of-3 from melee.gg, a best-of-5 final's 3-2); beyond that (9-0) the
#: file is malformed.
OFFICIAL_BEST_OF = 5
DIVISIONS = ("junior", "senior", "masters", "open")
PHASES = ("swiss", "swiss-day2", "single-elimination", "top-cut")
ELIMINATION = ("top-cut", "single-elimination")
STRUCTURES = ("swiss", "swiss-top-cut", "single-elimination")  # S-1
WHY_LENGTH = 200  # Match.why
BIGINT = 2**63 - 1  # PostgreSQL bigint: Round.seed
ONE_PLAYER_OUTCOMES = ("bye", "loss", "pending")
MATCH_OUTCOMES = ("win", "draw", "double-loss", "pending")


class FileRefused(ValueError):
    """A file that is malformed or contradicts itself; the message names the element or
    field at fault. Each format's own error (``TdfError``, ``WerError`` …) is one."""


# --- values --------------------------------------------------------------------------


def shown(value: Any) -> str:
    """A short, safe rendering of a value from a file for a message."""
    try:
        text = repr(value)
    except ValueError:  # an integer with thousands of digits
        return "a number too long to show"
    return text if len(text) <= 40 else f"{text[:37]}..."


def whole(value: Any, where: str, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``, else FileRefused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise FileRefused(
            gettext_storable("%(where)s: expected a whole number, got %(value)s")
            % {"where": where, "value": shown(value)}
        )
    if not low <= value <= high:
        raise FileRefused(
            gettext_storable("%(where)s: %(value)s is out of range (%(low)s to %(high)s)")
            % {"where": where, "value": shown(value), "low": low, "high": high}
        )
    return int(value)


def text(value: Any, where: str, *, limit: int, required: bool = False) -> str:
    """``value`` if it is text PostgreSQL can store in a column of ``limit`` characters."""
    if not isinstance(value, str):
        raise FileRefused(
            gettext_storable("%(where)s: expected text, got %(value)s")
            % {"where": where, "value": shown(value)}
        )
    if required and not value.strip():
        raise FileRefused(gettext_storable("%(where)s: must not be empty") % {"where": where})
    if len(value) > limit:
        raise FileRefused(
            gettext_storable("%(where)s: %(value)s characters long, at most %(limit)s are kept")
            % {"where": where, "value": len(value), "limit": limit}
        )
    if "\x00" in value:
        raise FileRefused(
            gettext_storable("%(where)s: contains a NUL character") % {"where": where}
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise FileRefused(
            gettext_storable("%(where)s: is not valid Unicode text") % {"where": where}
        ) from None
    return value


def name(value: str, where: str, *, required: bool = True) -> str:
    """``value`` if the text rule for names takes it (``tournaments.text``: no control
    character, no bidirectional control, something visible), else FileRefused naming
    ``where``. The importer stores it normalised
    (``text.normalised_name``)."""
    problem = name_problem(value, required=required)
    if problem is not None:
        raise FileRefused(
            gettext_storable("%(where)s: %(problem)s") % {"where": where, "problem": problem}
        )
    return value


def flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise FileRefused(
            gettext_storable("%(where)s: expected true or false, got %(value)s")
            % {"where": where, "value": shown(value)}
        )
    return value


def json_value(value: Any, where: str, depth: int = 0) -> None:
    """Refuse what a PostgreSQL ``jsonb`` column cannot hold or Python cannot write back:
    NUL characters, NaN and infinities, integers beyond 64 bits, nesting deeper than
    :data:`MAX_JSON_DEPTH`, and anything that is not JSON."""
    if depth > MAX_JSON_DEPTH:
        raise FileRefused(
            gettext_storable("%(where)s: nested more than %(max_json_depth)s levels deep")
            % {"where": where, "max_json_depth": MAX_JSON_DEPTH}
        )
    if isinstance(value, str):
        text(value, where, limit=MAX_FILE_BYTES)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > MAX_JSON_INTEGER:
            raise FileRefused(
                gettext_storable("%(where)s: %(value)s is too large a number")
                % {"where": where, "value": shown(value)}
            )
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise FileRefused(
                gettext_storable("%(where)s: %(value)s is not a number JSON can hold")
                % {"where": where, "value": value}
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            text(key, f"{where}: key", limit=NAME_LENGTH)
            json_value(item, f"{where}.{key}", depth + 1)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            json_value(item, f"{where}[{i}]", depth + 1)
    else:
        raise FileRefused(
            gettext_storable("%(where)s: %(value)s is not JSON")
            % {"where": where, "value": shown(value)}
        )


def at(where: str, field: str) -> str:
    """``rounds[2]`` + ``number`` → ``rounds[2].number``; ``<round number=3>`` + ``number``
    → ``<round number=3> number`` (an XML element is followed by the field's name)."""
    return f"{where} {field}" if where.endswith(">") else f"{where}.{field}"


# --- the event -------------------------------------------------------------------------


def check_event_data(data: EventData) -> list[str]:
    """Check an event read from any file before it is written (module docstring).

    Raises :class:`FileRefused` naming the element or field at fault. Returns the notes
    on official records kept as recorded though the live rules refuse them (one sentence
    each, naming the field) and on match results without their games (one sentence for
    the file, :func:`_unrecorded_games`); empty for most files. The event can then be
    imported, and exported and imported again.
    """
    ruleset = RULESETS.get(data.ruleset) if isinstance(data.ruleset, str) else None
    if ruleset is None:
        raise FileRefused(
            gettext_storable("%(get)s: unknown ruleset")
            % {"get": data.fields.get("ruleset", "ruleset")}
        )
    _check_event(data)
    codes = _check_divisions(data.divisions, data.fields.get("divisions", "divisions"))
    ids = _check_players(data.players, codes, data.fields.get("players", "players"))
    notes: list[str] = []
    options = data.options if isinstance(data.options, dict) else {}
    _check_rounds(data.rounds, ids, (ruleset, options), data.fields.get("rounds", "rounds"), notes)
    _check_round_gaps(data, data.fields.get("rounds", "rounds"))
    notes += _unrecorded_games(data, ruleset)
    json_value(data.options, data.fields.get("options", "options"))
    json_value(data.source, data.fields.get("source", "source"))  # what the file kept
    return notes


def _check_event(data: EventData) -> None:
    def name_of(key: str) -> str:
        return data.fields.get(key, key)

    name(text(data.name, name_of("name"), limit=NAME_LENGTH, required=True), name_of("name"))
    location = text(data.location, name_of("location"), limit=NAME_LENGTH)
    name(location, name_of("location"), required=False)
    if data.date is not None and not isinstance(data.date, dt.date):
        raise FileRefused(
            gettext_storable("%(value)s: expected a date, got %(date)s")
            % {"value": name_of("date"), "date": shown(data.date)}
        )
    flag(data.third_place_playoff, name_of("third_place_playoff"))
    play_ids = {"sanction_id": sanction_id_problem, "organizer_pop_id": pop_id_problem}
    for key, problem_of in play_ids.items():
        value = text(getattr(data, key), name_of(key), limit=NAME_LENGTH)
        if problem := problem_of(value):
            raise FileRefused(
                gettext_storable("%(where)s: %(problem)s")
                % {"where": name_of(key), "problem": problem}
            )
    whole(data.day2_rounds, name_of("day2_rounds"), 0, MAX_ROUNDS)
    if data.structure not in ("", *STRUCTURES):
        raise FileRefused(
            gettext_storable("%(value)s: %(structure)s is not one of %(structures)s")
            % {
                "value": name_of("structure"),
                "structure": shown(data.structure),
                "structures": STRUCTURES,
            }
        )
    check_sizes(len(data.players), len(data.rounds), data.fields)


def check_sizes(players: int, rounds: int, fields: dict[str, str]) -> None:
    """The size limits: at most :data:`MAX_PLAYERS` players and :data:`MAX_ROUNDS` rounds
    (a format may check them before it builds ``EventData``)."""
    if players > MAX_PLAYERS:
        raise FileRefused(
            f"{fields.get('players', 'players')}: {players:,} players; "
            f"at most {MAX_PLAYERS:,} can be imported"
        )
    if rounds > MAX_ROUNDS:
        raise FileRefused(
            gettext_storable("%(get)s: %(rounds)s rounds; at most %(max_rounds)s can be imported")
            % {"get": fields.get("rounds", "rounds"), "rounds": rounds, "max_rounds": MAX_ROUNDS}
        )


def _check_divisions(divisions: Sequence[DivisionData], label: str) -> set[str]:
    codes: set[str] = set()
    for i, d in enumerate(divisions):
        where = d.where or f"{label}[{i}]"
        if d.code not in DIVISIONS:
            raise FileRefused(
                gettext_storable("%(where)s: %(code)s is not one of %(divisions)s")
                % {"where": at(where, "code"), "code": shown(d.code), "divisions": DIVISIONS}
            )
        if d.code in codes:
            raise FileRefused(
                gettext_storable("%(where)s: division %(code)r is given twice")
                % {"where": where, "code": d.code}
            )
        codes.add(d.code)
        whole(d.flights, at(where, "flights"), 0, MAX_FLIGHTS)
        if d.flights not in (0, 2, 4, 8, 16):
            raise FileRefused(
                gettext_storable("%(where)s: %(flights)s flights (P-FL-2: 2, 4, 8, 16)")
                % {"where": at(where, "flights"), "flights": d.flights}
            )
        room = POD_LENGTH - (FLIGHT_SUFFIX_LENGTH if d.flights else 0)
        text(d.group, at(where, "group"), limit=room, required=True)
        whole(d.swiss_rounds, at(where, "swiss_rounds"), 0, MAX_ROUNDS)
        whole(d.day2_rounds, at(where, "day2_rounds"), 0, MAX_ROUNDS)
        whole(d.top_cut, at(where, "top_cut"), 0, MAX_PLAYERS)
    return codes


def _check_players(players: Sequence[PlayerData], codes: set[str], label: str) -> set[str]:
    ids: set[str] = set()
    for i, p in enumerate(players):
        where = p.where or f"{label}[{i}]"
        text(p.id, at(where, "id"), limit=EXTERNAL_ID_LENGTH)
        if p.id in ids:
            raise FileRefused(
                gettext_storable("%(where)s: player id %(id)r is given twice")
                % {"where": where, "id": p.id}
            )
        ids.add(p.id)
        name(text(p.name, at(where, "name"), limit=NAME_LENGTH), at(where, "name"))
        text(p.player_id, at(where, "player_id"), limit=PLAYER_ID_LENGTH)
        if p.division not in codes:
            raise FileRefused(
                gettext_storable("%(where)s: no division %(division)s in the file")
                % {"where": at(where, "division"), "division": shown(p.division)}
            )
        if p.birth_year is not None:
            whole(p.birth_year, at(where, "birth_year"), 1, 9999)
        if p.dropped_after_round is not None:
            whole(p.dropped_after_round, at(where, "dropped_after_round"), 0, MAX_ROUNDS)
        if p.flight is not None:
            whole(p.flight, at(where, "flight"), 1, MAX_FLIGHTS)
        flag(p.late, at(where, "late"))
        flag(p.disqualified, at(where, "disqualified"))
    return ids


# --- rounds and results ------------------------------------------------------------------


def _check_rounds(
    rounds: Sequence[RoundData],
    ids: set[str],
    rules: tuple[Ruleset, Mapping[str, Any]],
    label: str,
    notes: list[str],
) -> None:
    """Each round's number, phase, seeds, seats and results; ``rules``: the ruleset and
    the event's options (a best-of-1 event's game records)."""
    ruleset, options = rules
    given: set[tuple[int, str]] = set()
    for i, rd in enumerate(rounds):
        where = rd.where or f"{label}[{i}]"
        whole(rd.number, at(where, "number"), 1, MAX_ROUNDS)
        if rd.phase not in PHASES:
            raise FileRefused(
                gettext_storable("%(where)s: %(phase)s is not one of %(phases)s")
                % {"where": at(where, "phase"), "phase": shown(rd.phase), "phases": PHASES}
            )
        if (rd.number, rd.phase) in given:
            raise FileRefused(
                gettext_storable("%(where)s: round %(number)s (%(phase)s) is given twice")
                % {"where": where, "number": rd.number, "phase": rd.phase}
            )
        given.add((rd.number, rd.phase))
        for group, seed in rd.seeds.items():
            text(group, at(where, "seeds"), limit=POD_LENGTH)
            whole(seed, at(where, f"seeds.{group}"), -BIGINT - 1, BIGINT)
        seated: set[str] = set()
        for j, m in enumerate(rd.matches):
            match_where = m.where or f"{where}.matches[{j}]"
            _check_seats(m, match_where, ids, seated, rd.number, ruleset)
            _check_result(m, match_where, rules, rd.phase in ELIMINATION, notes)


def _check_round_gaps(data: EventData, label: str) -> None:
    """Round numbers run 1, 2, 3 … without a gap: over the whole file,
    and within each pairing group (the rounds holding its players; a cut's rounds go on
    from its Swiss group's). A file with rounds 1, 2, 4 is refused, naming the round after
    the gap: the gap would carry into the TOM export and the correction window."""
    where_of: dict[int, str] = {}  # round number -> where its first round is
    for i, rd in enumerate(data.rounds):
        where_of.setdefault(rd.number, rd.where or f"{label}[{i}]")

    def first_gap(numbers: set[int]) -> int | None:
        return next((n for n in range(1, max(numbers, default=0) + 1) if n not in numbers), None)

    if (missing := first_gap(set(where_of))) is not None:
        after = min(n for n in where_of if n > missing)
        raise FileRefused(
            gettext_storable(
                "%(where)s: round %(missing)s is missing; rounds run 1, 2, 3 … without a gap"
            )
            % {"where": at(where_of[after], "number"), "missing": missing}
        )
    group_of_division = {d.code: d.group for d in data.divisions}
    group_of = {p.id: group_of_division.get(p.division, p.division) for p in data.players}
    held: dict[str, dict[int, str]] = {}  # group -> round number -> where
    for i, rd in enumerate(data.rounds):
        for m in rd.matches:
            for pid in m.players:
                numbers = held.setdefault(group_of.get(pid, ""), {})
                numbers.setdefault(rd.number, rd.where or f"{label}[{i}]")
    for group, numbers in sorted(held.items()):
        if (missing := first_gap(set(numbers))) is not None:
            after = min(n for n in numbers if n > missing)
            raise FileRefused(
                gettext_storable(
                    "%(where)s: round %(missing)s of pairing group %(group)s is missing;"
                    " rounds run 1, 2, 3 … without a gap"
                )
                % {"where": at(numbers[after], "number"), "missing": missing, "group": shown(group)}
            )


def _check_seats(
    m: MatchData, where: str, ids: set[str], seated: set[str], number: int, ruleset: Ruleset
) -> None:
    """Known players, each once in the round and never against themselves; a head-to-head
    ruleset seats one or two players, a pod ruleset up to five (MP-POD-1)."""
    most = 5 if ruleset.uses_pods else 2
    if not 1 <= len(m.players) <= most:
        raise FileRefused(
            gettext_storable("%(where)s: expected 1 to %(most)s players")
            % {"where": at(where, "players"), "most": most}
        )
    if len(set(m.players)) != len(m.players):
        raise FileRefused(
            gettext_storable("%(where)s: a player cannot play themselves")
            % {"where": at(where, "players")}
        )
    for pid in m.players:
        if pid not in ids:
            raise FileRefused(
                gettext_storable("%(where)s: unknown player id %(pid)s")
                % {"where": at(where, "players"), "pid": shown(pid)}
            )
        if pid in seated:
            raise FileRefused(
                gettext_storable("%(where)s: %(pid)r plays twice in round %(number)s")
                % {"where": at(where, "players"), "pid": pid, "number": number}
            )
        seated.add(pid)
    if m.table is not None:
        whole(m.table, at(where, "table"), 1, INTEGER)
    text(m.why, at(where, "why"), limit=WHY_LENGTH)
    if any(pid not in m.players for pid in m.conceded) or m.winner in m.conceded:
        raise FileRefused(
            gettext_storable("%(where)s: expected players of this match, not its winner")
            % {"where": at(where, "conceded")}
        )


def _check_result(
    m: MatchData,
    where: str,
    rules: tuple[Ruleset, Mapping[str, Any]],
    elimination: bool,
    notes: list[str],
) -> None:
    """The outcome fits the seats, and the ruleset allows it (module docstring)."""
    ruleset = rules[0]
    allowed = ONE_PLAYER_OUTCOMES if len(m.players) == 1 else MATCH_OUTCOMES
    if m.outcome not in allowed:
        raise FileRefused(
            gettext_storable("%(where)s: %(outcome)s is not one of %(allowed)s")
            % {"where": at(where, "result"), "outcome": shown(m.outcome), "allowed": allowed}
        )
    if (m.outcome == "win") != (m.winner is not None) or (m.winner and m.winner not in m.players):
        raise FileRefused(
            gettext_storable("%(where)s: the winner must be a player of this match")
            % {"where": at(where, "result")}
        )
    head_to_head_draw = m.outcome == "draw" and len(m.players) == 2  # a pod may draw
    if head_to_head_draw and not ruleset.allows_ties:
        raise FileRefused(
            gettext_storable("%(where)s: the %(label)s rules have no ties")
            % {"where": at(where, "result"), "label": ruleset.label}
        )
    if head_to_head_draw and elimination:
        raise FileRefused(
            gettext_storable("%(where)s: a single-elimination match cannot be a draw (M-SE-2)")
            % {"where": at(where, "result")}
        )
    _check_games(m, at(where, "games"), rules, elimination, notes)


def _check_games(
    m: MatchData,
    where: str,
    rules: tuple[Ruleset, Mapping[str, Any]],
    elimination: bool,
    notes: list[str],
) -> None:
    """A game record that gives the match's result in a match of the event's length
    (M-MATCH-1; best-of-1 or best-of-3, ``Ruleset.best_of``); none is fine (a match
    result only: :func:`_unrecorded_games` notes it)."""
    ruleset, options = rules
    if m.games is None:
        return
    if not ruleset.game_record:
        raise FileRefused(
            gettext_storable("%(where)s: the %(label)s rules record match results, not games")
            % {"where": where, "label": ruleset.label}
        )
    if not isinstance(m.games, list | tuple) or len(m.games) != 3:
        raise FileRefused(
            gettext_storable("%(where)s: expected [wins, wins, draws], got %(games)s")
            % {"where": where, "games": shown(m.games)}
        )
    for count in m.games:
        whole(count, where, 0, SMALLINT)
    if len(m.players) != 2 or m.outcome not in ("win", "draw"):
        return
    wins_a, wins_b, drawn = m.games
    try:
        verdict, index = ruleset.game_verdict(
            (wins_a, wins_b, drawn), elimination=elimination, options=options
        )
    except (TypeError, ValueError) as live:
        try:  # an official record the live rules refuse: kept as recorded (docstring)
            found = validate_game_record(
                GameRecord(wins_a, wins_b, drawn), best_of=OFFICIAL_BEST_OF, elimination=elimination
            )
        except ValueError:
            raise FileRefused(
                gettext_storable("%(where)s: impossible game record %(live)s (M-MATCH-1)")
                % {"where": where, "live": live}
            ) from None
        verdict, index = str(found.outcome.value), found.winner
        if (verdict, None if index is None else m.players[index]) == (m.outcome, m.winner):
            notes.append(
                gettext_storable(
                    "%(where)s: %(players)s: game record %(record)s kept as recorded, though"
                    " the live rules refuse it (%(live)s)"
                )
                % {
                    "where": where,
                    "players": " vs ".join(m.players),
                    "record": f"{wins_a}-{wins_b}-{drawn}",
                    "live": str(live),
                }
            )
    if (verdict, None if index is None else m.players[index]) != (m.outcome, m.winner):
        raise FileRefused(
            gettext_storable("%(where)s: %(games)s does not give this result (M-MATCH-1)")
            % {"where": where, "games": list(m.games)}
        )


#: How many matches without games the note names before "…".
UNRECORDED_NAMED = 3


def _unrecorded_games(data: EventData, ruleset: Ruleset) -> list[str]:
    """The note on the decided head-to-head matches a ruleset that records games has
    without their games (public sources such as topdeck.gg publish
    match results only): one sentence naming how many and the first few, or nothing.
    Such a match is imported as recorded: its match points and OMW are exact, GW % and
    OGW % count the games known (``standings.engine.mtg``)."""
    if not ruleset.game_record:
        return []
    missing = [
        m.where or f"round {rd.number}: {' vs '.join(m.players)}"
        for rd in data.rounds
        for m in rd.matches
        if m.games is None and len(m.players) == 2 and m.outcome in ("win", "draw")
    ]
    if not missing:
        return []
    more = " …" if len(missing) > UNRECORDED_NAMED else ""
    named = ", ".join(missing[:UNRECORDED_NAMED]) + more
    return [
        gettext_storable(
            "match results without a game record: %(count)s (%(named)s); imported as "
            "recorded: match points and OMW are exact, GW and OGW count only the games "
            "recorded"
        )
        % {"count": len(missing), "named": named}
    ]
