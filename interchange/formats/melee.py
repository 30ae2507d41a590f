"""melee.gg tournament JSON (as stored in ``tests/data/mtg``) as ``EventData``.

The document (already decoded from JSON) holds ``Tournament`` {Name, Date, Uri, Formats},
``Rounds[]`` {RoundName, Matches[] {Player1, Player2, Result}} and the published
``Standings[]`` {Rank, Player, Points, Wins, Losses, Draws, OMWP, GWP, OGWP}.

* ``Player2 == "-"`` is a bye; ``Result`` is ``"W-L-D"`` games for Player1 (M-MATCH-1):
  more game wins wins, equal is a draw. Games go to ``MatchData.games`` in player order.
* Rounds named ``Round N`` are Swiss; any other name (Quarterfinals, Semifinals, Finals)
  is a ``top-cut`` round; round numbers are positions in ``Rounds`` (1-based).
* A player whose last Swiss match is before the last Swiss round dropped after it.
* A game record the live rules refuse (melee.gg lets players report 3-0 in a best-of-3)
  is kept as recorded with a note (``checks.check_event_data``); a 9-0 is refused.
* Options reproduce melee.gg (R-7, R-8): ``mwp_floor`` 1/3, playoffs not in the
  tiebreakers, ``melee_ranking`` (rank by the unfloored game-win %).
* A best-of-1 event is known by its games, as the file names no match
  length: when no match records more than one game (1-0-0, 0-1-0, 0-0-1) the event gets
  ``match_length`` ``best-of-1``, so a bye counts one game won, as melee.gg counts it
  (:func:`match_length`).

Malformed input raises :class:`MeleeError` naming the field (``Rounds[2].Matches[4].Result``).
Pure Python: imports neither ``standings`` nor ``pairings``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from tournaments.stored_text import gettext_storable

from .checks import PLAYER_ID_LENGTH, FileRefused, check_event_data, shown
from .eventdata import DivisionData, EventData, MatchData, PlayerData, RoundData

BYE = "-"
MELEE_OPTIONS = {"mwp_floor": "1/3", "playoffs_in_tiebreakers": False, "melee_ranking": True}
# ASCII digits only: ``\d`` would read ``١-٠-٠`` as 1-0-0
_RESULT = re.compile(r"^([0-9]+)-([0-9]+)-([0-9]+)$")
_SWISS_NAME = re.compile(r"^Round [0-9]+$")


class MeleeError(FileRefused):
    """The document is not a melee.gg tournament we can read; the message names the field."""


@dataclass(frozen=True, slots=True)
class MeleeStanding:
    """One published line of ``Standings``: percentages as printed (Decimal, 0..1)."""

    rank: int
    player: str
    points: int
    wins: int
    losses: int
    draws: int
    omwp: Decimal
    gwp: Decimal
    ogwp: Decimal


def _field(obj: Any, key: str, where: str, kind: type) -> Any:
    if not isinstance(obj, dict):
        raise MeleeError(gettext_storable("%(where)s: expected an object") % {"where": where})
    value = obj.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise MeleeError(
            gettext_storable("%(where)s.%(key)s: expected %(name)s, got %(value)s")
            % {"where": where, "key": key, "name": kind.__name__, "value": shown(value)}
        )
    return value


def _match(obj: Any, where: str) -> MatchData:
    p1 = _field(obj, "Player1", where, str)
    p2 = _field(obj, "Player2", where, str)
    found = _RESULT.match(_field(obj, "Result", where, str))
    if not found or p1 == BYE:
        raise MeleeError(
            gettext_storable("%(where)s: expected Player1 and a Result 'W-L-D', got %(obj)s")
            % {"where": where, "obj": shown(obj)}
        )
    wins, losses, draws = (int(x) for x in found.groups())
    if p2 == BYE:
        return MatchData(None, (p1,), "bye", None, where=where)
    if p1 == p2:
        raise MeleeError(
            gettext_storable("%(where)s: %(p1)r cannot play themselves")
            % {"where": where, "p1": p1}
        )
    games = [wins, losses, draws]
    if wins == losses:
        return MatchData(None, (p1, p2), "draw", None, games, where=where)
    return MatchData(None, (p1, p2), "win", p1 if wins > losses else p2, games, where=where)


def _rounds(doc: Any) -> list[RoundData]:
    rounds: list[RoundData] = []
    raw = _field(doc, "Rounds", "", list)
    for i, r in enumerate(raw):
        where = f"Rounds[{i}]"
        name = _field(r, "RoundName", where, str)
        phase = "swiss" if _SWISS_NAME.match(name) else "top-cut"
        if phase == "swiss" and rounds and rounds[-1].phase != "swiss":
            raise MeleeError(
                gettext_storable("%(where)s.RoundName: Swiss round %(name)r after the playoffs")
                % {"where": where, "name": name}
            )
        matches = _field(r, "Matches", where, list)
        found = tuple(_match(m, f"{where}.Matches[{j}]") for j, m in enumerate(matches))
        seen = [p for m in found for p in m.players]
        if len(seen) != len(set(seen)):
            raise MeleeError(
                gettext_storable("%(where)s.Matches: a player plays twice in %(name)r")
                % {"where": where, "name": name}
            )
        rounds.append(RoundData(i + 1, phase, found, where=where))
    return rounds


def _players(doc: Any, rounds: list[RoundData]) -> list[PlayerData]:
    """Every player (Standings order, then anyone only in matches) with their drop round."""
    listed = [
        _field(s, "Player", f"Standings[{i}]", str)
        for i, s in enumerate(_field(doc, "Standings", "", list))
    ]
    swiss = [r for r in rounds if r.phase == "swiss"]
    last: dict[str, int] = {}
    for r in swiss:
        for m in r.matches:
            last.update(dict.fromkeys(m.players, r.number))
    ids = list(dict.fromkeys(listed + [p for r in rounds for m in r.matches for p in m.players]))
    final = swiss[-1].number if swiss else 0
    return [
        PlayerData(
            id=pid,
            name=pid,
            player_id=pid if len(pid) <= PLAYER_ID_LENGTH else "",  # a label, not always an id
            dropped_after_round=None if last.get(pid, 0) == final else last.get(pid, 0),
            where=f"player {shown(pid)}",
        )
        for pid in ids
    ]


def melee_to_event_data(doc: Any) -> EventData:
    """Convert a decoded melee.gg tournament document into ``EventData`` (ruleset ``mtg``).

    Player ids are the labels of the file; one ``open`` division whose top cut is the
    number of players in the first playoff round. Raises :class:`MeleeError` naming the
    field at fault (a missing key, a Result that is not ``W-L-D``, a player twice in a
    round, a Swiss round after the playoffs, and whatever ``checks.check_event_data``
    refuses).
    """
    data = _event_data(doc)
    try:
        check_event_data(data)
    except FileRefused as e:
        raise MeleeError(str(e)) from None
    return data


#: Where a melee.gg document holds the event's fields, for the messages of ``checks``.
FIELDS = {
    "name": "Tournament.Name",
    "date": "Tournament.Date",
    "players": "Standings",
    "rounds": "Rounds",
    "source": "Tournament",
}


def _event_data(doc: Any) -> EventData:
    tournament = doc.get("Tournament", {}) if isinstance(doc, dict) else {}
    if not isinstance(tournament, dict):
        raise MeleeError(gettext_storable("Tournament: expected an object"))
    rounds = _rounds(doc)
    players = _players(doc, rounds)
    swiss = sum(r.phase == "swiss" for r in rounds)
    cut = next((r for r in rounds if r.phase == "top-cut"), None)
    top_cut = len({p for m in cut.matches for p in m.players}) if cut else 0
    return EventData(
        name=tournament.get("Name") or "melee.gg event",
        ruleset="mtg",
        players=players,
        divisions=[DivisionData("open", "open", swiss, top_cut)],
        rounds=rounds,
        structure="swiss-top-cut" if top_cut else "swiss",
        options=dict(MELEE_OPTIONS) | match_length(rounds),
        source={"melee": {"uri": tournament.get("Uri", ""), "formats": tournament.get("Formats")}},
        date=_date(tournament.get("Date")),
        fields=dict(FIELDS),
    )


def match_length(rounds: list[RoundData]) -> dict[str, str]:
    """``{"match_length": "best-of-1"}`` when the event was played best-of-1, else ``{}``
    (best-of-3, the default): every match but the byes records at most one game, and one
    match at least (a melee.gg file names no match length). A best-of-3
    event always has some match of two games or more (2-0, 2-1, 1-1)."""
    played = [sum(m.games) for r in rounds for m in r.matches if m.games is not None]
    if played and max(played) == 1:
        return {"match_length": "best-of-1"}
    return {}


def _date(value: Any) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        raise MeleeError(
            gettext_storable("Tournament.Date: %(value)s is not a date") % {"value": shown(value)}
        ) from None


def melee_published_standings(doc: Any) -> list[MeleeStanding]:
    """The published ``Standings`` in file order (Rank 1 first).

    OMWP / GWP / OGWP are kept exactly as printed (``Decimal``; melee.gg prints 8 decimals,
    floor 1/3 for OMWP and OGWP, GWP unfloored). Raises :class:`MeleeError` naming the
    field at fault.
    """
    out: list[MeleeStanding] = []
    for i, s in enumerate(_field(doc, "Standings", "", list)):
        where = f"Standings[{i}]"
        ints = [_field(s, k, where, int) for k in ("Rank", "Points", "Wins", "Losses", "Draws")]
        pct = [_decimal(s, k, where) for k in ("OMWP", "GWP", "OGWP")]
        out.append(MeleeStanding(ints[0], _field(s, "Player", where, str), *ints[1:], *pct))
    return out


def _decimal(obj: dict[str, Any], key: str, where: str) -> Decimal:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise MeleeError(
            gettext_storable("%(where)s.%(key)s: expected a number, got %(value)r")
            % {"where": where, "key": key, "value": value}
        )
    return Decimal(str(value))
