"""A parsed TOM file as ``EventData`` (players, divisions and pods, rounds, top cuts).

Divisions: the official ``<standings>`` category of a player when the file has one,
otherwise P-AGE-1 from the birth year and the season. Pods: one per ``<pod category>``
(category 8 → pod ``junior+senior``, R-5). Swiss rounds keep their numbers; type-1
rounds become ``top-cut`` rounds of each division's bracket.
"""

from __future__ import annotations

from typing import Any

from .eventdata import DivisionData, EventData, MatchData, PlayerData, RoundData
from .tdf import CATEGORY_DIVISIONS, TdfError, TdfMatch, TdfPod, TdfTournament, player_division

STANDINGS_DIVISION = {0: "junior", 1: "senior", 2: "masters"}


def _divisions_of_players(t: TdfTournament) -> dict[str, str]:
    official = {
        s.player_id: STANDINGS_DIVISION[s.category]
        for s in t.standings
        if s.category in STANDINGS_DIVISION
    }
    out = {}
    for p in t.players:
        division = official.get(p.userid) or player_division(t, p.userid)
        if division is None:
            raise TdfError(
                f"<player userid={p.userid!r}>: no birthdate to place them in a division"
            )
        out[p.userid] = division
    return out


def _pod_name(category: int) -> str:
    return "+".join(CATEGORY_DIVISIONS.get(category, (f"category-{category}",)))


def _division_data(t: TdfTournament, used: set[str]) -> list[DivisionData]:
    cuts = {c.category: c.cut for c in t.finals_options}
    out = []
    for pod in t.pods:
        for code in pod.divisions:
            if code in used:
                category = next(k for k, v in STANDINGS_DIVISION.items() if v == code)
                out.append(
                    DivisionData(
                        code,
                        _pod_name(pod.category),
                        len(pod.swiss_rounds),
                        cuts.get(category, 0),
                        flights=len(pod.subgroups) if len(pod.subgroups) > 1 else 0,
                    )
                )
    return out


def _flights(t: TdfTournament) -> dict[str, int]:
    """P-FL: a pod with several ``<subgroup>``s is a flighted division; each player's
    flight is the position of their subgroup (1 first)."""
    return {
        pid: n
        for pod in t.pods
        if len(pod.subgroups) > 1
        for n, (_, ids) in enumerate(pod.subgroups, start=1)
        for pid in ids
    }


def _match(m: TdfMatch) -> MatchData:
    winner = m.winner if m.result.value == "win" else None
    return MatchData(m.table_number or None, m.players, m.result.value, winner)


def tdf_event_data(t: TdfTournament) -> EventData:
    """Convert a parsed TOM file into ``EventData`` (ids are TOM userids)."""
    division_of = _divisions_of_players(t)
    flight_of = _flights(t)
    players = [
        PlayerData(
            id=p.userid,
            name=f"{p.firstname} {p.lastname}".strip(),
            division=division_of[p.userid],
            birth_year=p.birth_year,
            player_id=p.userid,
            late=not p.starter,
            dropped_after_round=p.dropped_round,
            flight=flight_of.get(p.userid),
        )
        for p in t.players
    ]
    rounds: dict[tuple[int, str], list[MatchData]] = {}
    for pod in t.pods:
        for r in pod.rounds:
            phase = "top-cut" if r.is_elimination else "swiss"
            rounds.setdefault((r.number, phase), []).extend(_match(m) for m in r.matches)
    e = t.event
    return EventData(
        name=e.name,
        ruleset="pokemon",
        players=players,
        divisions=_division_data(t, set(division_of.values())),
        rounds=[RoundData(n, ph, tuple(ms)) for (n, ph), ms in sorted(rounds.items())],
        date=e.startdate,
        location=", ".join(x for x in (e.city, e.state, e.country) if x),
        third_place_playoff=any(p.playoff_3rd_4th for p in t.pods),
        source={"tdf": tdf_source(t)},
    )


def _raw(pairs: tuple[tuple[str, str], ...]) -> list[list[str]]:
    return [list(p) for p in pairs]


def tdf_source(t: TdfTournament) -> dict[str, Any]:
    """What the file holds that the app does not model, as JSON for ``Event.source``, so
    the TOM exporter (``tdf_export``) can write it back unchanged: root attributes,
    ``<data>``, players' raw children, pods' poddata, subgroups and round timings, match
    timestamps, finals options."""
    e = t.event
    return {
        "id": e.id,
        "version": e.version,
        "mode": e.mode,
        "gametype": e.gametype,
        "type": e.type,
        "stage": e.stage,
        "data": {
            "city": e.city,
            "state": e.state,
            "country": e.country,
            "roundtime": "" if e.roundtime is None else str(e.roundtime),
            "finalsroundtime": "" if e.finalsroundtime is None else str(e.finalsroundtime),
            "organizer": [e.organizer_popid, e.organizer_name],
            "startdate": e.startdate.strftime("%m/%d/%Y") if e.startdate else "",
        },
        "data_raw": _raw(e.raw),
        "raw": _raw(t.raw),
        "players": {
            p.userid: {
                "firstname": p.firstname,
                "lastname": p.lastname,
                "birthdate": p.birthdate,
                "raw": _raw(p.raw),
                "dropped_raw": _raw(p.dropped_raw),
            }
            for p in t.players
        },
        "player_order": [p.userid for p in t.players],
        "pods": [_pod_source(pod) for pod in t.pods],
        "finals": [
            {"key": c.category, "options": list(c.options), "playercount": c.player_count}
            for c in t.finals_options
        ],
    }


def _pod_source(pod: TdfPod) -> dict[str, Any]:
    return {
        "category": pod.category,
        "stage": pod.stage,
        "poddata": _raw(pod.poddata),
        "subgroups": [[n, list(ids)] for n, ids in pod.subgroups],
        "rounds": {
            str(r.number): {"type": r.type, "stage": r.stage, "raw": _raw(r.raw)}
            for r in pod.rounds
        },
        "timestamps": {
            f"{r.number}:{','.join(m.players)}": m.timestamp for r in pod.rounds for m in r.matches
        },
    }
