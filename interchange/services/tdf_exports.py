"""Exporting an event as a Pokémon TOM ``.tdf`` file (docs/interfaces.md ``export_tdf``).

The database gives players, divisions, rounds, matches and cuts; what an imported file
held that the app does not model comes back from ``Event.source["tdf"]`` (see
``formats.tdf_event.tdf_source``) and is written unchanged. Events created in the app get
TOM's defaults (version 1.80, one-day TCG, Swiss rounds type 3 stage 6, elimination
rounds type 1). The standings (``<standings>``) are the app's, passed in as the Standings
JSON: ``tournaments`` does not import ``standings``, its caller computes them.

Identities: ``<data><id>`` is ``Event.sanction_id`` and ``<organizer popid>``
``Event.organizer_pop_id`` (the organiser's name comes from the imported file, if any).
A player's ``userid`` is their Play! Pokémon ID, else the registration's own id
(``identities.file_ids``); the document is built with registration ids and renamed last
(:func:`_with_userids`), since what an imported file left in ``Event.source`` is keyed by
those.

Two-day events (P-D2-1, P-D2-2, R-3, P-RT-2): an event with Day 2 rounds is written with
TOM's ``mode="TCG2DAY"``, its ``swiss-day2`` rounds as Swiss rounds (type 3) numbered on
from Day 1, as TOM writes them. Decision: no element is added for the Day 1 length (TOM
may not keep unknown ``<data>`` children); the importer derives it from the data instead
(``formats.tdf_event.day1_rounds``: the first round seating exactly the Day 2 cut, else
9). Limitation: when every player still in makes the cut (and Day 1 is not 9 rounds
long), the file cannot show where Day 2 starts and it comes back as Day 1 rounds.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db.models import Q

from tournaments.models import Event, Match, Outcome, PairingGroup, Phase, Registration, Round
from tournaments.selectors.names import file_ids_for_event

from ..formats.tdf_event import TWO_DAY_MODE
from ..formats.tdf_export import (
    OUTCOME_CODE,
    ExportCut,
    ExportMatch,
    ExportPlayer,
    ExportPod,
    ExportRound,
    ExportStanding,
    TdfDocument,
    write_tdf,
)

#: Divisions of a pod → TOM category (P-AGE-2, P-AGE-3); an open event is written as Masters.
CATEGORY = {
    ("junior",): 0,
    ("senior",): 1,
    ("masters",): 2,
    ("open",): 2,
    ("junior", "senior"): 8,
    ("senior", "masters"): 9,
    ("junior", "senior", "masters"): 10,
}
DIVISION_CATEGORY = {"junior": 0, "senior": 1, "masters": 2, "open": 2}
_ORDER = ("junior", "senior", "masters", "open")
STAMP = "%m/%d/%Y %H:%M:%S"


def _stamp(value: Any) -> str:
    return value.strftime(STAMP) if value else ""


def _pairs(raw: Any) -> tuple[tuple[str, str], ...]:
    return tuple((str(t), str(v)) for t, v in raw or ())


def _name(reg: Registration, sp: dict[str, Any]) -> tuple[str, str]:
    first, last = sp.get("firstname", ""), sp.get("lastname", "")
    if sp and f"{first} {last}".strip() == reg.player.name:
        return first, last
    head, _, tail = reg.player.name.rpartition(" ")
    return (head, tail) if head else (tail, "")


def _birthdate(reg: Registration, sp: dict[str, Any]) -> str:
    stored, year = sp.get("birthdate", ""), reg.player.birth_year
    if stored.endswith(str(year)) or year is None:
        return stored
    return f"01/01/{year}"


def _player(reg: Registration, sp: dict[str, Any]) -> ExportPlayer:
    first, last = _name(reg, sp)
    return ExportPlayer(
        userid=reg.external_id,
        firstname=first,
        lastname=last,
        birthdate=_birthdate(reg, sp),
        starter=not reg.late,
        dropped_round=reg.dropped_after_round,
        dropped_raw=_pairs(sp.get("dropped_raw")) or ExportPlayer.dropped_raw,
        raw=_pairs(sp.get("raw")),
    )


def _code(m: Match, seats: list[str], winner: str | None) -> int:
    if m.outcome == Outcome.WIN:
        return 1 if winner == seats[0] else 2
    return OUTCOME_CODE[m.outcome]


def _matches(rnd: Round, stamps: dict[str, str]) -> tuple[ExportMatch, ...]:
    out = []
    for m in sorted(rnd.matches.all(), key=lambda m: (m.table is not None, m.table or 0, m.pk)):
        seats = [s.registration.external_id for s in sorted(m.seats.all(), key=lambda s: s.seat)]
        winner = m.winner.external_id if m.winner else None
        stamp = stamps.get(f"{rnd.number}:{','.join(seats)}", _stamp(m.reported_at))
        out.append(ExportMatch(_code(m, seats, winner), tuple(seats), stamp, m.table or 0))
    return tuple(out)


def _round(rnd: Round, stored: dict[str, Any], stamps: dict[str, str]) -> ExportRound:
    elimination = rnd.phase in (Phase.TOP_CUT, Phase.SINGLE_ELIMINATION)
    raw = _pairs(stored.get("raw")) or (
        ("timeleft", "0"),
        ("pairtime", _stamp(rnd.paired_at)),
        ("starttime", _stamp(rnd.started_at)),
    )
    kind = stored.get("type", 1 if elimination else 3)
    return ExportRound(rnd.number, kind, stored.get("stage", "6"), raw, _matches(rnd, stamps))


Groups = tuple[tuple[str, tuple[str, ...]], ...]


def _subgroups(stored: dict[str, Any], ids: list[str], flights: Groups = ()) -> Groups:
    """The stored subgroups while they still hold exactly the pod's players; else one
    subgroup per flight of a flighted division (P-FL), else one."""
    groups = tuple((str(n), tuple(g)) for n, g in stored.get("subgroups", []))
    if sorted(i for _, g in groups for i in g) == sorted(ids):
        return groups
    return flights or (("1", tuple(ids)),)


def _flight_groups(event: Event, codes: tuple[str, ...]) -> Groups:
    """P-FL: ``(flight number, player ids)`` of a flighted division, TOM subgroups."""
    rows = event.registrations.filter(division__code__in=codes, flight__isnull=False)
    groups: dict[int, list[str]] = {}
    for flight, ext in rows.order_by("flight", "pk").values_list("flight", "external_id"):
        if flight is not None:  # filtered out above; the column is nullable
            groups.setdefault(flight, []).append(ext)
    return tuple((str(n), tuple(ids)) for n, ids in sorted(groups.items())) if groups else ()


def _poddata(
    event: Event, stored: dict[str, Any], subgroups: int = 1, extra: int = 0
) -> tuple[tuple[str, str], ...]:
    """The stored ``<poddata>`` (else TOM's defaults) with ``additionalrounds`` set to
    ``extra``: the Swiss rounds planned above TOM's table (:func:`_extra_rounds`)."""
    pairs = _pairs(stored.get("poddata")) or (
        ("startingtable", "1"),
        ("playoff3rd4th", "true" if event.third_place_playoff else "false"),
        ("subgroupcount", str(subgroups)),
        ("additionalrounds", "0"),
    )
    return tuple((k, str(extra) if k == "additionalrounds" else v) for k, v in pairs)


def _extra_rounds(event: Event, codes: tuple[str, ...], src: dict[str, Any]) -> int:
    """Planned Day 1 Swiss rounds of the pod above what TOM's table gives for its largest
    division (P-AGE-4, P-RT-1/P-RT-2, one less with ``lessswiss``), so that a file
    saved mid-way plans the same rounds on import (``tdf_event.planned_day1_rounds``).
    Negative when the event plans fewer rounds than the table (TOM itself never writes
    that; the app's own import reads it back)."""
    divisions = list(event.divisions.filter(code__in=codes))
    planned = max((d.rounds for d in divisions), default=0)
    sizes = [d.registrations.count() for d in divisions]
    try:
        table = event.rules.recommend(
            max(sizes, default=0), two_day=_mode(event, src) == TWO_DAY_MODE
        )
    except ValueError:  # fewer than two players
        return 0
    less = dict(_pairs(src.get("data_raw"))).get("lessswiss", "false").strip().lower() == "true"
    return planned - (table.rounds - int(less))


def _merged(rounds: list[Round], stored: dict[str, Any]) -> tuple[ExportRound, ...]:
    """One ``<round>`` per number: the flights of a division play the same rounds, so
    their matches are written together, as TOM keeps subgroups in one pod (P-FL)."""
    out: dict[int, ExportRound] = {}
    stamps, stored_rounds = stored.get("timestamps", {}), stored.get("rounds", {})
    for r in rounds:
        er = _round(r, stored_rounds.get(str(r.number), {}), stamps)
        seen = out.get(r.number)
        out[r.number] = replace(er, matches=seen.matches + er.matches) if seen else er
    return tuple(out.values())


def _pod(
    event: Event, group: PairingGroup, codes: tuple[str, ...], src: dict[str, Any]
) -> ExportPod:
    """TOM's ``<pod>`` of a Swiss pairing group: its rounds, its flights' and its
    divisions' cuts (the groups whose parent it is)."""
    category = CATEGORY.get(codes, 10)
    stored: dict[str, Any] = next((p for p in src.get("pods", []) if p["category"] == category), {})
    flights = _flight_groups(event, codes)
    rounds = (
        event.rounds.filter(Q(group=group) | Q(group__parent=group))
        .order_by("number", "pk")
        .prefetch_related("matches__seats__registration", "matches__winner")
    )
    ids = list(
        event.registrations.filter(division__code__in=codes)
        .order_by("pk")
        .values_list("external_id", flat=True)
    )
    return ExportPod(
        category,
        stored.get("stage", "1"),
        _poddata(event, stored, max(len(flights), 1), _extra_rounds(event, codes, src)),
        _subgroups(stored, ids, flights),
        _merged(list(rounds), stored),
    )


def _pods(event: Event, src: dict[str, Any]) -> tuple[ExportPod, ...]:
    roots = event.groups.filter(parent__isnull=True).prefetch_related("divisions")
    codes = {g: sorted(d.code for d in g.divisions.all()) for g in roots}
    pods = [
        _pod(event, g, tuple(sorted(codes[g], key=_ORDER.index)), src)
        for g in sorted((g for g in roots if codes[g]), key=codes.__getitem__)
    ]
    stored = [p["category"] for p in src.get("pods", [])]
    return tuple(
        sorted(pods, key=lambda p: stored.index(p.category) if p.category in stored else 99)
    )


def _players(event: Event, src: dict[str, Any]) -> tuple[ExportPlayer, ...]:
    order = {u: n for n, u in enumerate(src.get("player_order", []))}
    regs = sorted(
        event.registrations.select_related("player"),
        key=lambda r: (order.get(r.external_id, len(order)), r.pk),
    )
    stored = src.get("players", {})
    return tuple(_player(r, stored.get(r.external_id, {})) for r in regs)


def _standings(standings: dict[str, Any]) -> tuple[ExportStanding, ...]:
    """Per division, Masters first as TOM writes them: placed players (dropped ones too,
    as TOM does) are ``finished``; disqualified players (no place) are ``dnf``."""
    out = []
    rows = standings.get("divisions", {})
    for code in sorted(rows, key=lambda c: -DIVISION_CATEGORY[c]):
        category = DIVISION_CATEGORY[code]
        placed = tuple(r["player"] for r in rows[code] if r["place"] is not None)
        unplaced = tuple(r["player"] for r in rows[code] if r["place"] is None)
        out += [
            ExportStanding(category, "finished", placed),
            ExportStanding(category, "dnf", unplaced),
        ]
    return tuple(out)


def _cuts(event: Event, src: dict[str, Any]) -> tuple[ExportCut, ...]:
    stored = {c["key"]: c for c in src.get("finals", [])}
    keys = list(stored)
    out = []
    for d in sorted(event.divisions.all(), key=lambda d: -DIVISION_CATEGORY[d.code]):
        key = DIVISION_CATEGORY[d.code]
        s = stored.get(key, {})
        options = tuple(s.get("options") or sorted({0, d.cut}))
        count = s.get("playercount", d.registrations.count())
        out.append(ExportCut(key, options, d.cut, count, event.third_place_playoff))
    return tuple(sorted(out, key=lambda c: keys.index(c.key) if c.key in keys else 99))


def _data(event: Event, src: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    data = src.get("data", {})
    return (
        ("name", event.name),
        ("id", event.sanction_id),
        ("city", data.get("city", event.location)),
        ("state", data.get("state", "")),
        ("country", data.get("country", "")),
        ("roundtime", data.get("roundtime", "50")),
        ("finalsroundtime", data.get("finalsroundtime", "75")),
        ("startdate", event.date.strftime("%m/%d/%Y") if event.date else ""),
    )


def _mode(event: Event, src: dict[str, Any]) -> str:
    """TOM's ``mode``: ``TCG2DAY`` for an event with Day 2 rounds (P-D2-1), else the
    stored one (``TCG1DAY`` by default)."""
    two_day = event.day2_rounds > 0 or event.rounds.filter(phase=Phase.SWISS_DAY2).exists()
    return TWO_DAY_MODE if two_day else src.get("mode", "TCG1DAY")


def _with_userids(doc: TdfDocument, ids: dict[str, str]) -> TdfDocument:
    """``doc`` with every registration id (``external_id``) replaced by the player's TOM
    userid (``ids``, ``identities.file_ids``): players, subgroups, matches and
    standings."""

    def renamed(players: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(ids.get(p, p) for p in players)

    pods = tuple(
        replace(
            pod,
            subgroups=tuple((n, renamed(g)) for n, g in pod.subgroups),
            rounds=tuple(
                replace(r, matches=tuple(replace(m, players=renamed(m.players)) for m in r.matches))
                for r in pod.rounds
            ),
        )
        for pod in doc.pods
    )
    return replace(
        doc,
        players=tuple(replace(p, userid=ids.get(p.userid, p.userid)) for p in doc.players),
        pods=pods,
        standings=tuple(replace(s, players=renamed(s.players)) for s in doc.standings),
    )


def event_tdf(*, event: Event, standings: dict[str, Any]) -> str:
    """The event as a TOM ``.tdf`` file (text). standings: the event's Standings JSON
    (``standings.services.standings_data``), written as ``<standings>``. Players are
    written under their Play! Pokémon IDs, the event under its sanction ID and the
    organiser's POP ID (module docstring)."""
    src = event.source.get("tdf", {})
    organizer_name = src.get("data", {}).get("organizer_name", "")
    doc = TdfDocument(
        root=(
            src.get("type", "3"),
            src.get("stage", "5"),
            src.get("version", "1.80"),
            src.get("gametype", "TRADING_CARD_GAME"),
            _mode(event, src),
        ),
        data=_data(event, src),
        organizer=(event.organizer_pop_id, organizer_name),
        data_raw=_pairs(src.get("data_raw")),
        raw=_pairs(src.get("raw")),
        players=_players(event, src),
        pods=_pods(event, src),
        standings=_standings(standings),
        cuts=_cuts(event, src),
    )
    return write_tdf(_with_userids(doc, file_ids_for_event(event.pk)))
