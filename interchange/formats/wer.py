"""Parser for Wizards Event Reporter ``.wer`` files (XML) into ``EventData``, no Django.

What is read from ``<event>``:

* ``<participation><person id first last>``: the players (ids are the person ids).
* ``<team status eliminationround><member person>``: status 3 = dropped. The drop round
  is worked out from the matches: the last Swiss round the person played (the file's
  ``eliminationround`` says the same; it is only used for a person with no match).
  Status 4 (eliminated: missed the cut or lost a playoff match) is not a drop.
* ``<matches><round number><match person opponent outcome win loss draw>``: outcome 1 =
  ``person`` won, 2 = a draw, 3 = a bye (``person`` only). ``win loss draw`` are the
  games of ``person`` (M-MATCH-1) and go to ``MatchData.games`` in player order.
* Rounds numbered from ``playoffstartround`` on (when it is above 0) are single-elimination
  playoff rounds (phase ``top-cut``); the others are Swiss.
* The structure: Swiss rounds from ``playoffstartround`` (the rounds before it) or
  ``numberofrounds``, never fewer than the file holds; the top cut is the number of
  players in the first playoff round (S-1 ``swiss-top-cut``), else plain Swiss.
* ``<role cd="PL" type="PA"><ref person seq>``: the official final order, see
  :func:`wer_official_order`.

The event gets the Wizards Event Reporter options (R-7, R-8): ``mwp_floor`` 0.33 and the
playoffs counted in the final standings' tiebreakers. Malformed input, and an event the
live rules could not hold (``checks.check_event_data``: a 9-0 game record, a drawn
playoff match), raises :class:`WerError` naming the element at fault.
"""

from __future__ import annotations

import datetime as dt
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from tournaments.stored_text import gettext_storable

from .checks import INTEGER, MAX_ROUNDS, SMALLINT, FileRefused, check_event_data, shown
from .eventdata import DivisionData, EventData, MatchData, PlayerData, RoundData
from .plain import plain_int

WER_OPTIONS = {"mwp_floor": "0.33", "playoffs_in_tiebreakers": True}
DROPPED = "3"
OUTCOME_WON, OUTCOME_DRAW, OUTCOME_BYE = "1", "2", "3"


class WerError(FileRefused):
    """The file is not a WER event we can read; the message names the element."""


def _root(text: str | bytes) -> Element:
    try:
        root = fromstring(text)
    except ParseError as exc:
        raise WerError(gettext_storable("not well-formed XML: %(exc)s") % {"exc": exc}) from exc
    except DefusedXmlException as exc:  # DTDs and entities are refused
        raise WerError(gettext_storable("forbidden XML construct: %(exc)r") % {"exc": exc}) from exc
    except (LookupError, ValueError) as exc:  # an encoding Python does not know or read
        raise WerError(gettext_storable("not XML we can read: %(exc)s") % {"exc": exc}) from exc
    if root.tag != "event":
        raise WerError(
            gettext_storable("root element is <%(tag)s>, expected <event>") % {"tag": root.tag}
        )
    return root


def _attr(elem: Element, name: str, where: str) -> str:
    value = (elem.get(name) or "").strip()
    if not value:
        raise WerError(
            gettext_storable("%(where)s: missing attribute %(name)r")
            % {"where": where, "name": name}
        )
    return value


def _int(
    elem: Element, name: str, where: str, default: str | None = None, high: int = INTEGER
) -> int:
    raw = elem.get(name, default)
    try:
        value = plain_int(raw or "")  # ASCII digits only
    except ValueError:
        raise WerError(
            gettext_storable("%(where)s: attribute %(name)r must be a whole number, got %(raw)s")
            % {"where": where, "name": name, "raw": shown(raw)}
        ) from None
    if value < 0:
        raise WerError(
            gettext_storable("%(where)s: attribute %(name)r cannot be negative, got %(value)s")
            % {"where": where, "name": name, "value": value}
        )
    if value > high:
        raise WerError(
            gettext_storable(
                "%(where)s: attribute %(name)r is out of range (0 to %(high)s), got %(value)s"
            )
            % {"where": where, "name": name, "high": high, "value": value}
        )
    return value


def _persons(root: Element) -> dict[str, str]:
    """Person id -> "first last", in file order."""
    persons: dict[str, str] = {}
    for i, p in enumerate(root.iterfind("participation/person"), start=1):
        pid = _attr(p, "id", f"<participation><person> #{i}")
        if pid in persons:
            raise WerError(
                gettext_storable("<person id=%(pid)r>: duplicate person id") % {"pid": pid}
            )
        persons[pid] = " ".join(x for x in (p.get("first", ""), p.get("last", "")) if x.strip())
    if not persons:
        raise WerError(gettext_storable("<participation>: no <person>"))
    return persons


def _match(elem: Element, where: str, persons: dict[str, str]) -> MatchData:
    person = _known(_attr(elem, "person", where), where, persons)
    outcome = _attr(elem, "outcome", where)
    games = [_int(elem, key, where, "0", SMALLINT) for key in ("win", "loss", "draw")]
    if outcome == OUTCOME_BYE:
        return MatchData(None, (person,), "bye", where=where)
    if outcome not in (OUTCOME_WON, OUTCOME_DRAW):
        raise WerError(
            gettext_storable("%(where)s: unknown outcome %(outcome)r (1 won, 2 draw, 3 bye)")
            % {"where": where, "outcome": outcome}
        )
    opponent = _known(_attr(elem, "opponent", where), where, persons)
    if opponent == person:
        raise WerError(
            gettext_storable("%(where)s: person %(person)r cannot play themselves")
            % {"where": where, "person": person}
        )
    won = outcome == OUTCOME_WON
    if (games[0] > games[1]) != won or (games[0] == games[1]) == won:
        raise WerError(
            gettext_storable(
                "%(where)s: outcome %(outcome)s does not fit the games %(games)s-%(games2)s-%(games3)s"
            )
            % {
                "where": where,
                "outcome": outcome,
                "games": games[0],
                "games2": games[1],
                "games3": games[2],
            }
        )
    if won:
        return MatchData(None, (person, opponent), "win", person, games, where=where)
    return MatchData(None, (person, opponent), "draw", None, games, where=where)


def _known(pid: str, where: str, persons: dict[str, str]) -> str:
    if pid not in persons:
        raise WerError(
            gettext_storable("%(where)s: person %(pid)r is not in <participation>")
            % {"where": where, "pid": pid}
        )
    return pid


def _rounds(root: Element, persons: dict[str, str]) -> list[RoundData]:
    playoff_start = _int(root, "playoffstartround", "<event>", "0")
    rounds: list[RoundData] = []
    for r in root.iterfind("matches/round"):
        number = _int(r, "number", "<matches><round>", high=MAX_ROUNDS)
        where = f"<round number={number}>"
        if number == 0:
            raise WerError(
                gettext_storable("%(where)s: round numbers start at 1") % {"where": where}
            )
        found = enumerate(r.iterfind("match"), start=1)
        matches = tuple(_match(m, f"{where}<match #{i}>", persons) for i, m in found)
        seen = [p for m in matches for p in m.players]
        if len(seen) != len(set(seen)):
            raise WerError(
                gettext_storable("%(where)s: a person plays twice in the round") % {"where": where}
            )
        phase = "top-cut" if 0 < playoff_start <= number else "swiss"
        rounds.append(RoundData(number, phase, matches, where=where))
    if len({r.number for r in rounds}) != len(rounds):
        raise WerError(gettext_storable("<matches>: two rounds share the same number"))
    return sorted(rounds, key=lambda r: r.number)


def _drops(root: Element, rounds: list[RoundData], persons: dict[str, str]) -> dict[str, int]:
    """Person id -> last Swiss round played, for every dropped team member (status 3)."""
    last: dict[str, int] = {}
    for r in rounds:
        if r.phase == "swiss":
            for m in r.matches:
                last.update(dict.fromkeys(m.players, r.number))
    drops: dict[str, int] = {}
    for team in root.iterfind("participation/team"):
        where = f"<team id={team.get('id', '?')!r}>"
        if team.get("status", "").strip() != DROPPED:
            continue
        fallback = _int(team, "eliminationround", where, "0")
        for member in team.iterfind("member"):
            pid = _known(_attr(member, "person", f"{where}<member>"), where, persons)
            drops[pid] = last.get(pid, fallback)
    return drops


def parse_wer(text: str | bytes) -> EventData:
    """Parse a WER document (text or bytes) into ``EventData`` (ruleset ``mtg``).

    Players keep the WER person ids; one ``open`` division with the Swiss rounds and a top
    cut the size of the first playoff round. Raises :class:`WerError` (a ``ValueError``)
    for malformed XML, a root other than ``<event>``, a missing or duplicate person id, a
    match naming an unknown person, a person twice in a round, an unknown outcome code,
    games that contradict the outcome, and whatever ``checks.check_event_data`` refuses (an
    empty title, round 0, a game record no best-of-3 match gives such as 9-0, a drawn
    playoff match); the message names the element at fault.
    """
    data = _event_data(_root(text))
    try:
        check_event_data(data)
    except FileRefused as e:
        raise WerError(str(e)) from None
    return data


#: Where a WER file holds the event's fields, for the messages of ``checks``.
FIELDS = {
    "name": "<event title>",
    "location": "<event orgname>",
    "date": "<event startdate>",
    "players": "<participation>",
    "rounds": "<matches>",
    "source": "<event>",
}


def _planned_swiss(root: Element, held: int) -> int:
    """The Swiss rounds the file plans: the rounds before ``playoffstartround`` when the
    playoffs are set, else ``numberofrounds``; never fewer than the file holds, so an
    event saved mid-way imports running and can be continued."""
    playoff_start = _int(root, "playoffstartround", "<event>", "0", high=MAX_ROUNDS + 1)
    planned = _int(root, "numberofrounds", "<event>", "0", high=MAX_ROUNDS)
    return max(held, playoff_start - 1 if playoff_start else planned)


def _event_data(root: Element) -> EventData:
    persons = _persons(root)
    rounds = _rounds(root, persons)
    drops = _drops(root, rounds, persons)
    players = [
        PlayerData(
            id=pid,
            name=name,
            player_id=pid,
            dropped_after_round=drops.get(pid),
            where=f"<person id={pid!r}>",
        )
        for pid, name in persons.items()
    ]
    cut = next((r for r in rounds if r.phase == "top-cut"), None)
    top_cut = len({p for m in cut.matches for p in m.players}) if cut else 0
    swiss = _planned_swiss(root, sum(r.phase == "swiss" for r in rounds))
    return EventData(
        name=(root.get("title") or "").strip(),
        ruleset="mtg",
        players=players,
        divisions=[DivisionData("open", "open", swiss, top_cut)],
        rounds=rounds,
        structure="swiss-top-cut" if top_cut else "swiss",
        options=dict(WER_OPTIONS),
        source={"wer": {k: root.get(k, "") for k in ("sanctionnumber", "eventguid", "format")}},
        date=_date(root.get("startdate", "")),
        location=(root.get("orgname") or "").strip(),
        fields=dict(FIELDS),
    )


def _date(value: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value.strip()[:10]) if value.strip() else None
    except ValueError:
        raise WerError(
            gettext_storable("<event>: startdate %(value)r is not a date") % {"value": value}
        ) from None


def wer_official_order(text: str | bytes) -> list[str]:
    """Person ids of ``<role cd="PL" type="PA">`` ordered by ``<ref seq>`` (1st first).

    Raises :class:`WerError` when the role is missing, a ``seq`` is not a whole number, or
    two refs share a seq or a person.
    """
    root = _root(text)
    role = next(
        (
            r
            for r in root.iterfind("participation/role")
            if (r.get("cd"), r.get("type")) == ("PL", "PA")
        ),
        None,
    )
    if role is None:
        raise WerError(
            gettext_storable('<participation>: no <role cd="PL" type="PA"> (the final order)')
        )
    refs = [
        (_int(ref, "seq", '<role cd="PL"><ref>'), _attr(ref, "person", '<role cd="PL"><ref>'))
        for ref in role.iterfind("ref")
    ]
    if len({s for s, _ in refs}) != len(refs) or len({p for _, p in refs}) != len(refs):
        raise WerError(
            gettext_storable('<role cd="PL" type="PA">: two <ref> share a seq or a person')
        )
    return [person for _, person in sorted(refs)]
