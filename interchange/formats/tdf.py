"""Parser for Pokémon TOM ``.tdf`` files (XML), pure Python, no Django.

``parse_tdf(text)`` returns a :class:`TdfTournament` of frozen dataclasses: the event
data, the players, the pods with their rounds and matches, the official standings and
the finals options. Values we do not interpret (stage codes, poddata, creation dates,
``<order>``/``<seed>``…) are kept as raw ``(name, text)`` pairs so a later exporter can
write them back. Malformed input raises :class:`TdfError` naming the element at fault.

This module imports neither ``standings`` nor ``pairings`` (``tournaments`` sits below
them): match results are a :class:`MatchResult` whose string values are exactly those of
``standings.engine.types.Outcome`` (``Outcome(result.value)`` converts).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from tournaments.ages import division_for, season_end_year
from tournaments.stored_text import gettext_storable

from .checks import INTEGER, MAX_PLAYERS, MAX_ROUNDS, FileRefused, shown
from .plain import plain_int

Raw = tuple[tuple[str, str], ...]


class TdfError(FileRefused):
    """The file is not a TOM tournament file we can read; the message names the element."""


class MatchResult(StrEnum):
    """A match result; values equal ``standings.engine.types.Outcome`` values."""

    WIN = "win"
    DRAW = "draw"
    DOUBLE_LOSS = "double-loss"
    BYE = "bye"
    LATE_LOSS = "loss"
    PENDING = "pending"


# TOM outcome code -> (result, index of the winner among the match players or None).
OUTCOME_CODES: dict[int, tuple[MatchResult, int | None]] = {
    0: (MatchResult.PENDING, None),
    1: (MatchResult.WIN, 0),
    2: (MatchResult.WIN, 1),
    3: (MatchResult.DRAW, None),
    5: (MatchResult.BYE, 0),
    8: (MatchResult.LATE_LOSS, None),
    10: (MatchResult.DOUBLE_LOSS, None),
}
_ONE_PLAYER = {5, 8}
_TWO_PLAYERS = {1, 2, 3, 10}

#: Pod / standings category code -> the age divisions it holds (P-AGE-2, P-AGE-3, R-5).
CATEGORY_DIVISIONS: dict[int, tuple[str, ...]] = {
    0: ("junior",),
    1: ("senior",),
    2: ("masters",),
    8: ("junior", "senior"),
    9: ("senior", "masters"),
    10: ("junior", "senior", "masters"),
}

ELIMINATION_ROUND_TYPE = 1


@dataclass(frozen=True, slots=True)
class TdfEvent:
    """``<tournament>`` attributes and ``<data>``; ``raw`` keeps the other ``<data>`` children.

    roundtime / finalsroundtime: minutes. startdate: None when empty.
    """

    name: str
    id: str
    city: str
    state: str
    country: str
    startdate: date | None
    roundtime: int | None
    finalsroundtime: int | None
    organizer_popid: str
    organizer_name: str
    version: str
    mode: str
    gametype: str
    type: str
    stage: str
    raw: Raw = ()


@dataclass(frozen=True, slots=True)
class TdfPlayer:
    """One ``<player userid>``. starter False = late entrant (P-LATE-1).

    dropped_round: the last round the player took part in (``<dropped><round>``), or None.
    raw: other children (creationdate, order, seed…) as (tag, text).
    """

    userid: str
    firstname: str
    lastname: str
    birthdate: str
    birth_year: int | None
    starter: bool
    dropped_round: int | None = None
    raw: Raw = ()
    dropped_raw: Raw = ()  # the other children of <dropped> (status, timestamp)


@dataclass(frozen=True, slots=True)
class TdfMatch:
    """One ``<match>``: ``players`` holds one id (bye, late loss) or two (player1, player2)."""

    outcome_code: int
    result: MatchResult
    players: tuple[str, ...]
    winner: str | None
    table_number: int | None
    timestamp: str
    where: str = ""  # the element, for messages: <pod category=2><round number=1><match #3>


@dataclass(frozen=True, slots=True)
class TdfRound:
    """One ``<round number type stage>``; type 1 is single elimination, others Swiss."""

    number: int
    type: int
    stage: str
    matches: tuple[TdfMatch, ...]
    raw: Raw = ()

    @property
    def is_elimination(self) -> bool:
        return self.type == ELIMINATION_ROUND_TYPE


@dataclass(frozen=True, slots=True)
class TdfPod:
    """One ``<pod category stage>``: players of its subgroups, rounds in file order."""

    category: int
    stage: str
    player_ids: tuple[str, ...]
    rounds: tuple[TdfRound, ...]
    playoff_3rd_4th: bool = False
    raw: Raw = ()
    poddata: Raw = ()  # every <poddata> child in file order (for the exporter)
    subgroups: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (number, player ids)

    @property
    def divisions(self) -> tuple[str, ...]:
        return CATEGORY_DIVISIONS.get(self.category, ())

    @property
    def swiss_rounds(self) -> tuple[TdfRound, ...]:
        return tuple(r for r in self.rounds if not r.is_elimination)

    @property
    def elimination_rounds(self) -> tuple[TdfRound, ...]:
        return tuple(r for r in self.rounds if r.is_elimination)


@dataclass(frozen=True, slots=True)
class TdfStanding:
    """One official place: ``<standings><pod category type><player id place>``; type finished/dnf."""

    category: int
    type: str
    player_id: str
    place: int


@dataclass(frozen=True, slots=True)
class TdfCategoryCut:
    """``<finalsoptions><categorycut key>``: top cut size per category (0 = no cut)."""

    category: int
    cut: int
    player_count: int | None
    paired_3rd_4th: bool
    options: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TdfTournament:
    """A whole ``.tdf`` file. ``raw`` keeps unknown top-level children (e.g. timeelapsed)."""

    event: TdfEvent
    players: tuple[TdfPlayer, ...]
    pods: tuple[TdfPod, ...]
    standings: tuple[TdfStanding, ...]
    finals_options: tuple[TdfCategoryCut, ...]
    raw: Raw = ()

    def player(self, userid: str) -> TdfPlayer:
        """The player with this userid; ``KeyError`` if absent."""
        for p in self.players:
            if p.userid == userid:
                return p
        raise KeyError(userid)

    def official_places(self, category: int, type: str = "finished") -> tuple[str, ...]:
        """Player ids of one standings pod ordered by place."""
        rows = [s for s in self.standings if s.category == category and s.type == type]
        return tuple(s.player_id for s in sorted(rows, key=lambda s: s.place))


# --- helpers -------------------------------------------------------------------------


def _text(parent: Element, tag: str, default: str = "") -> str:
    child = parent.find(tag)
    if child is None or child.text is None:
        return default
    return child.text.strip()


def _int(value: str, where: str, low: int = 0, high: int = INTEGER) -> int:
    """A whole number from ``low`` to ``high`` (by default what a PostgreSQL ``integer``
    column holds; no number in a TOM file is negative), written in ASCII digits only
    (``plain.plain_int``: ``1_0_0`` or ``١`` is refused)."""
    try:
        number = plain_int(value)
    except ValueError:
        raise TdfError(
            gettext_storable("%(where)s: expected an integer, got %(value)s")
            % {"where": where, "value": shown(value)}
        ) from None
    if not low <= number <= high:
        raise TdfError(
            gettext_storable("%(where)s: %(number)s is out of range (%(low)s to %(high)s)")
            % {"where": where, "number": shown(number), "low": low, "high": high}
        )
    return number


def _opt_int(value: str, where: str, low: int = 0, high: int = INTEGER) -> int | None:
    return None if value.strip() == "" else _int(value, where, low, high)


def _bool(value: str, where: str) -> bool:
    low = value.strip().lower()
    if low not in ("true", "false"):
        raise TdfError(
            gettext_storable("%(where)s: expected true or false, got %(value)r")
            % {"where": where, "value": value}
        )
    return low == "true"


def _attr(elem: Element, name: str, where: str) -> str:
    value = elem.get(name)
    if value is None or value.strip() == "":
        raise TdfError(
            gettext_storable("%(where)s: missing attribute %(name)r")
            % {"where": where, "name": name}
        )
    return value.strip()


def _raw(parent: Element | None, known: set[str]) -> Raw:
    if parent is None:
        return ()
    return tuple((c.tag, (c.text or "").strip()) for c in parent if c.tag not in known)


def _date(value: str, where: str) -> date | None:
    if not value:
        return None
    try:
        return datetime.strptime(value, "%m/%d/%Y").date()
    except ValueError:
        raise TdfError(
            gettext_storable("%(where)s: expected MM/DD/YYYY, got %(value)r")
            % {"where": where, "value": value}
        ) from None


# --- sections ------------------------------------------------------------------------

_DATA_KNOWN = {"name", "id", "city", "state", "country", "startdate", "roundtime"}
_DATA_KNOWN |= {"finalsroundtime", "organizer"}


def _event(root: Element) -> TdfEvent:
    data = root.find("data")
    if data is None:
        raise TdfError(gettext_storable("<tournament>: missing <data>"))
    org = data.find("organizer")
    return TdfEvent(
        **{tag: _text(data, tag) for tag in ("name", "id", "city", "state", "country")},
        startdate=_date(_text(data, "startdate"), "<data><startdate>"),
        roundtime=_opt_int(_text(data, "roundtime"), "<data><roundtime>"),
        finalsroundtime=_opt_int(_text(data, "finalsroundtime"), "<data><finalsroundtime>"),
        organizer_popid=org.get("popid", "") if org is not None else "",
        organizer_name=org.get("name", "") if org is not None else "",
        version=root.get("version", ""),
        mode=root.get("mode", ""),
        gametype=root.get("gametype", ""),
        type=root.get("type", ""),
        stage=root.get("stage", ""),
        raw=_raw(data, _DATA_KNOWN),
    )


_PLAYER_KNOWN = {"firstname", "lastname", "birthdate", "starter", "dropped"}


def _player(elem: Element) -> TdfPlayer:
    userid = _attr(elem, "userid", "<players><player>")
    where = f"<player userid={userid!r}>"
    birthdate = _text(elem, "birthdate")
    birth = _date(birthdate, f"{where}<birthdate>")
    dropped = elem.find("dropped")
    dropped_round = None
    if dropped is not None:
        dropped_round = _int(_text(dropped, "round"), f"{where}<dropped><round>", 0, MAX_ROUNDS)
    return TdfPlayer(
        userid=userid,
        firstname=_text(elem, "firstname"),
        lastname=_text(elem, "lastname"),
        birthdate=birthdate,
        birth_year=birth.year if birth else None,
        starter=_bool(_text(elem, "starter", "true"), f"{where}<starter>"),
        dropped_round=dropped_round,
        raw=_raw(elem, _PLAYER_KNOWN),
        dropped_raw=_raw(dropped, {"round"}),
    )


def _match(elem: Element, where: str, known_ids: set[str]) -> TdfMatch:
    code = _int(_attr(elem, "outcome", where), f"{where} outcome")
    if code not in OUTCOME_CODES:
        raise TdfError(
            gettext_storable("%(where)s: unknown outcome code %(code)s")
            % {"where": where, "code": code}
        )
    tags = ("player",) if elem.find("player") is not None else ("player1", "player2")
    players: list[str] = []
    for tag in tags:
        child = elem.find(tag)
        if child is None:
            raise TdfError(
                gettext_storable("%(where)s: missing <%(tag)s>") % {"where": where, "tag": tag}
            )
        userid = _attr(child, "userid", f"{where}<{tag}>")
        if userid not in known_ids:
            raise TdfError(
                gettext_storable("%(where)s<%(tag)s>: userid %(userid)r is not in <players>")
                % {"where": where, "tag": tag, "userid": userid}
            )
        players.append(userid)
    expected = (_ONE_PLAYER if len(players) == 1 else _TWO_PLAYERS) | {0}
    if code not in expected:
        raise TdfError(
            gettext_storable("%(where)s: outcome %(code)s needs %(value)s player(s)")
            % {"where": where, "code": code, "value": 3 - len(players)}
        )
    result, winner_index = OUTCOME_CODES[code]
    return TdfMatch(
        outcome_code=code,
        result=result,
        players=tuple(players),
        winner=None if winner_index is None else players[winner_index],
        table_number=_opt_int(_text(elem, "tablenumber"), f"{where}<tablenumber>"),
        timestamp=_text(elem, "timestamp"),
        where=where,
    )


def _round(elem: Element, pod_where: str, known_ids: set[str]) -> TdfRound:
    number = _int(
        _attr(elem, "number", f"{pod_where}<round>"), f"{pod_where}<round> number", 1, MAX_ROUNDS
    )
    where = f"{pod_where}<round number={number}>"
    found = enumerate(elem.iterfind("matches/match"), start=1)
    matches = tuple(_match(m, f"{where}<match #{i}>", known_ids) for i, m in found)
    kind = _int(elem.get("type", "0"), f"{where} type")
    return TdfRound(number, kind, elem.get("stage", ""), matches, _raw(elem, {"matches"}))


def _pod(elem: Element, known_ids: set[str]) -> TdfPod:
    category = _int(_attr(elem, "category", "<pods><pod>"), "<pods><pod> category")
    where = f"<pod category={category}>"
    if category not in CATEGORY_DIVISIONS:
        known = ", ".join(map(str, CATEGORY_DIVISIONS))
        raise TdfError(
            gettext_storable("%(where)s: unknown category %(category)s (known: %(known)s)")
            % {"where": where, "category": category, "known": known}
        )
    ids: list[str] = []
    for i, p in enumerate(elem.iterfind("subgroups/subgroup/players/player"), start=1):
        userid = _attr(p, "userid", f"{where}<subgroups> player #{i}")
        if userid not in known_ids:
            raise TdfError(
                gettext_storable("%(where)s<subgroups>: userid %(userid)r is not in <players>")
                % {"where": where, "userid": userid}
            )
        ids.append(userid)
    rounds = tuple(_round(r, where, known_ids) for r in elem.iterfind("rounds/round"))
    numbers: set[int] = set()
    for r in rounds:
        if r.number in numbers:
            raise TdfError(
                gettext_storable(
                    "%(where)s<round number=%(number)s>: round %(number)s is given twice"
                )
                % {"where": where, "number": r.number}
            )
        numbers.add(r.number)
    for missing in range(1, max(numbers, default=0) + 1):
        if missing not in numbers:
            after = min(n for n in numbers if n > missing)
            raise TdfError(
                gettext_storable(
                    "%(where)s<round number=%(number)s>: round %(missing)s is missing;"
                    " rounds run 1, 2, 3 … without a gap"
                )
                % {"where": where, "number": after, "missing": missing}
            )
    if not ids:  # no <subgroups>: the pod's players are those of its matches
        ids = list(dict.fromkeys(pid for r in rounds for m in r.matches for pid in m.players))
    poddata = elem.find("poddata")
    playoff = _text(poddata, "playoff3rd4th", "false") if poddata is not None else "false"
    return TdfPod(
        category=category,
        stage=elem.get("stage", ""),
        player_ids=tuple(ids),
        rounds=rounds,
        playoff_3rd_4th=_bool(playoff, f"{where}<poddata><playoff3rd4th>"),
        raw=_raw(poddata, {"playoff3rd4th"}),
        poddata=_raw(poddata, set()),
        subgroups=tuple(
            (g.get("number", ""), tuple(p.get("userid", "") for p in g.iterfind("players/player")))
            for g in elem.iterfind("subgroups/subgroup")
        ),
    )


def _standings(root: Element, known_ids: set[str]) -> tuple[TdfStanding, ...]:
    rows: list[TdfStanding] = []
    for pod in root.iterfind("standings/pod"):
        category = _int(_attr(pod, "category", "<standings><pod>"), "<standings><pod>")
        kind = pod.get("type", "finished")
        where = f"<standings><pod category={category} type={kind}>"
        for p in pod.findall("player"):
            pid = _attr(p, "id", f"{where}<player>")
            if pid not in known_ids:
                raise TdfError(
                    gettext_storable("%(where)s<player>: id %(pid)r is not in <players>")
                    % {"where": where, "pid": pid}
                )
            place = _int(_attr(p, "place", f"{where}<player id={pid}>"), f"{where} place")
            rows.append(TdfStanding(category, kind, pid, place))
    return tuple(rows)


def _finals_options(root: Element) -> tuple[TdfCategoryCut, ...]:
    cuts: list[TdfCategoryCut] = []
    for cc in root.iterfind("finalsoptions/categorycut"):
        key = _int(_attr(cc, "key", "<categorycut>"), "<categorycut> key")
        where = f"<categorycut key={key}>"
        options = tuple(_int(v.text or "", f"{where}<value>") for v in cc.iterfind("options/value"))
        cuts.append(
            TdfCategoryCut(
                category=key,
                cut=_int(_text(cc, "cut", "0"), f"{where}<cut>", 0, MAX_PLAYERS),
                player_count=_opt_int(_text(cc, "playercount"), f"{where}<playercount>"),
                paired_3rd_4th=_bool(_text(cc, "paired3rd4th", "false"), f"{where}<paired3rd4th>"),
                options=options,
            )
        )
    return tuple(cuts)


_ROOT_KNOWN = {"data", "players", "pods", "standings", "finalsoptions"}


def parse_tdf(text: str | bytes) -> TdfTournament:
    """Parse a TOM ``.tdf`` document (text or bytes) into a :class:`TdfTournament`.

    Uses defusedxml (no entities, no DTD). Raises :class:`TdfError` (a ``ValueError``) for
    malformed XML, a root other than ``<tournament>``, missing ids, non-integer numbers,
    unknown outcome codes, and matches or standings naming a userid absent from
    ``<players>``; the message names the element and attribute at fault.
    """
    try:
        root = fromstring(text)
    except ParseError as exc:
        raise TdfError(gettext_storable("not well-formed XML: %(exc)s") % {"exc": exc}) from exc
    except DefusedXmlException as exc:  # DTDs and entities are refused (billion laughs)
        raise TdfError(gettext_storable("forbidden XML construct: %(exc)r") % {"exc": exc}) from exc
    except (LookupError, ValueError) as exc:  # an encoding Python does not know or read
        raise TdfError(gettext_storable("not XML we can read: %(exc)s") % {"exc": exc}) from exc
    if root.tag != "tournament":
        raise TdfError(
            gettext_storable("root element is <%(tag)s>, expected <tournament>") % {"tag": root.tag}
        )
    players = tuple(_player(p) for p in root.iterfind("players/player"))
    known_ids = {p.userid for p in players}
    if len(known_ids) != len(players):
        raise TdfError(gettext_storable("<players>: duplicate userid"))
    return TdfTournament(
        event=_event(root),
        players=players,
        pods=tuple(_pod(p, known_ids) for p in root.iterfind("pods/pod")),
        standings=_standings(root, known_ids),
        finals_options=_finals_options(root),
        raw=_raw(root, _ROOT_KNOWN),
    )


# --- age divisions (P-AGE-1 lives in tournaments.ages) -------------------------------


def player_division(tournament: TdfTournament, userid: str) -> str | None:
    """The division of a player at this event, or None without a birth year / start date."""
    player = tournament.player(userid)
    start = tournament.event.startdate
    if player.birth_year is None or start is None:
        return None
    return division_for(player.birth_year, season_end_year(start))
