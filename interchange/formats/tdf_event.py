"""A parsed TOM file as ``EventData`` (players, divisions and pods, rounds, top cuts).

Divisions: the official ``<standings>`` category of a player when the file has one,
else the division of their pod when it holds one division, otherwise P-AGE-1 from the birth year and the season. Pods: one per ``<pod category>``
(category 8 → pod ``junior+senior``, R-5). Swiss rounds keep their numbers; type-1
rounds become ``top-cut`` rounds of each division's bracket.

Two-day events (P-D2-1, P-D2-2, R-3, P-RT-2): TOM marks them ``mode="TCG2DAY"``. There,
a pod's Swiss rounds after its Day 1 become ``swiss-day2`` rounds, ``Division.swiss_rounds``
counts Day 1 only and ``EventData.day2_rounds`` is the largest Day 2 count of a pod.
Day 1 ends (:func:`day1_rounds`) before the first Swiss round whose players are a strict
subset of the previous round's players still in (not dropped after it) and exactly the
Day 2 cut (``standings.engine.day2.day2_cut``: 19+ match points or the top 32) of the
match points after the previous round. Players tied on match points at the edge of the
cut may fall either side (the file holds no standings after each round, and the
standings engine is not ours to call here). With no such round, a pod of more than 9
Swiss rounds plays 9 on Day 1 (TOM's two-day table, P-RT-2), a smaller one plays them
all on Day 1. Decision: the data is read before the 9-round default so that events of
the app whose Day 1 is not 9 rounds long survive their own export (``tdf_export`` adds
no element for the Day 1 length).

A file saved mid-way: each pod plans the rounds TOM's table gives
(:func:`planned_day1_rounds`, with ``lessswiss`` and ``additionalrounds``, which
``tdf_exports`` writes), so it imports running and ``pair`` continues it.
"""

from __future__ import annotations

from typing import Any

from rulesets import get_ruleset
from standings.engine.day2 import day2_cut
from tournaments.ages import division_for, season_end_year
from tournaments.stored_text import gettext_storable

from .checks import FileRefused, check_event_data, check_sizes
from .eventdata import DivisionData, EventData, MatchData, PlayerData, RoundData
from .plain import plain_int
from .tdf import (
    CATEGORY_DIVISIONS,
    TdfError,
    TdfMatch,
    TdfPod,
    TdfRound,
    TdfTournament,
)

STANDINGS_DIVISION = {0: "junior", 1: "senior", 2: "masters"}
TWO_DAY_MODE = "TCG2DAY"
TOM_DAY1_ROUNDS = 9  # P-RT-2


def _divisions_of_players(t: TdfTournament) -> dict[str, str]:
    official = {
        s.player_id: STANDINGS_DIVISION[s.category]
        for s in t.standings
        if s.category in STANDINGS_DIVISION
    }
    pod_division = {  # a pod of one division places its players (a file saved mid-way)
        pid: pod.divisions[0]
        for pod in t.pods
        if len(pod.divisions) == 1 and pod.divisions[0] in STANDINGS_DIVISION.values()
        for pid in pod.player_ids
    }
    start = t.event.startdate
    season = season_end_year(start) if start else None
    out = {}
    for p in t.players:  # P-AGE-1 (``tdf.player_division``, without a lookup per player)
        division = official.get(p.userid) or pod_division.get(p.userid)
        if division is None and p.birth_year is not None and season is not None:
            division = division_for(p.birth_year, season)
        if division is None:
            raise TdfError(
                gettext_storable(
                    "<player userid=%(userid)r>: no birthdate to place them in a division"
                )
                % {"userid": p.userid}
            )
        out[p.userid] = division
    return out


def _pod_name(category: int) -> str:
    return "+".join(CATEGORY_DIVISIONS.get(category, (f"category-{category}",)))


def _points(points: dict[str, int], rnd: TdfRound) -> None:
    """Add the match points of ``rnd`` (win or bye 3, draw 1, MP-PTS)."""
    for m in rnd.matches:
        for pid in m.players:
            won = m.result.value == "bye" or (m.result.value == "win" and m.winner == pid)
            points[pid] = points.get(pid, 0) + (3 if won else int(m.result.value == "draw"))


def _is_day2_start(
    prev: TdfRound, rnd: TdfRound, points: dict[str, int], dropped: dict[str, int | None]
) -> bool:
    """P-D2-1: ``rnd`` seats a strict subset of ``prev``'s players still in, and that is
    the Day 2 cut of the match points after ``prev`` (ties at the edge either way)."""
    seated = {pid for m in rnd.matches for pid in m.players}
    active = {
        pid
        for m in prev.matches
        for pid in m.players
        if (out := dropped.get(pid)) is None or out > prev.number
    }
    if not seated < active:
        return False
    rows = sorted(active, key=lambda pid: (-points.get(pid, 0), pid not in seated, pid))
    return set(day2_cut([(pid, points.get(pid, 0)) for pid in rows])) == seated


def day1_rounds(pod: TdfPod, dropped: dict[str, int | None]) -> int:
    """The number of the last Day 1 round of a pod of a two-day file (P-D2-1, P-RT-2):
    the round before the first Day 2 cut seen in the data, else 9 when the pod has more
    than 9 Swiss rounds, else its last Swiss round (module docstring)."""
    swiss = sorted(pod.swiss_rounds, key=lambda r: r.number)
    points: dict[str, int] = {}
    for prev, rnd in zip(swiss, swiss[1:], strict=False):
        _points(points, prev)
        if _is_day2_start(prev, rnd, points, dropped):
            return prev.number
    if len(swiss) > TOM_DAY1_ROUNDS:
        return swiss[TOM_DAY1_ROUNDS - 1].number
    return swiss[-1].number if swiss else 0


def _day1_of_pods(t: TdfTournament) -> dict[int, int]:
    """Pod category → number of its last Day 1 round; for a one-day file every Swiss
    round is Day 1 (P-D2-1)."""
    dropped = {p.userid: p.dropped_round for p in t.players}
    if t.event.mode != TWO_DAY_MODE:
        return {pod.category: max((r.number for r in pod.rounds), default=0) for pod in t.pods}
    return {pod.category: day1_rounds(pod, dropped) for pod in t.pods}


def _phase(r: TdfRound, day1: int) -> str:
    if r.is_elimination:
        return "top-cut"
    return "swiss" if r.number <= day1 else "swiss-day2"


def _raw_value(raw: tuple[tuple[str, str], ...], name: str, default: str) -> str:
    return next((v for k, v in raw if k == name), default).strip()


def planned_day1_rounds(
    t: TdfTournament, pod: TdfPod, held: int, division_of: dict[str, str]
) -> int:
    """The Day 1 Swiss rounds a pod plays, as TOM plans them: what TOM's table gives for
    the attendance — the pod's largest division (P-AGE-4; P-RT-1, the two-day table
    P-RT-2 for ``TCG2DAY``) — one less with ``<lessswiss>true`` (S-3), plus its
    ``<poddata><additionalrounds>`` (the app writes a negative number for fewer rounds
    than the table); never fewer than the file holds. So an event saved mid-way imports
    running and continues; a finished file holds its planned rounds."""
    ids = set(pod.player_ids)
    if not ids:
        return held
    sizes: dict[str, int] = {}
    for pid in ids:
        sizes[division_of[pid]] = sizes.get(division_of[pid], 0) + 1
    try:
        rec = get_ruleset("pokemon").recommend(
            max(sizes.values()), two_day=t.event.mode == TWO_DAY_MODE
        )
    except ValueError:  # fewer than two players
        return held
    less = _raw_value(t.event.raw, "lessswiss", "false").lower() == "true"
    try:
        extra = plain_int(_raw_value(pod.poddata, "additionalrounds", "0") or "0")
    except ValueError:
        raise TdfError(
            gettext_storable(
                "<pod category=%(category)s><poddata><additionalrounds>: not a whole number"
            )
            % {"category": pod.category}
        ) from None
    return max(held, rec.rounds - int(less) + extra)


def _division_data(
    t: TdfTournament, used: set[str], day1: dict[int, int], division_of: dict[str, str]
) -> list[DivisionData]:
    cuts = {c.category: c.cut for c in t.finals_options}
    out = []
    for pod in t.pods:
        held = sum(r.number <= day1[pod.category] for r in pod.swiss_rounds)
        planned = planned_day1_rounds(t, pod, held, division_of)
        for code in pod.divisions:
            if code in used:
                category = next(k for k, v in STANDINGS_DIVISION.items() if v == code)
                out.append(
                    DivisionData(
                        code,
                        _pod_name(pod.category),
                        planned,
                        cuts.get(category, 0),
                        flights=len(pod.subgroups) if len(pod.subgroups) > 1 else 0,
                        where=f"<pod category={pod.category}>",
                    )
                )
    # a division no <pod> holds (a file saved before round 1 was paired): its own pod
    podless = sorted(used - {d.code for d in out})
    category_of = {v: k for k, v in STANDINGS_DIVISION.items()}
    out += [DivisionData(c, c, 0, cuts.get(category_of[c], 0), where="<pods>") for c in podless]
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
    return MatchData(m.table_number or None, m.players, m.result.value, winner, where=m.where)


def _rounds(t: TdfTournament, day1: dict[int, int]) -> list[RoundData]:
    """The rounds of every pod merged by number and phase (Day 2 ones ``swiss-day2``)."""
    rounds: dict[tuple[int, str], list[MatchData]] = {}
    for pod in t.pods:
        for r in pod.rounds:
            phase = _phase(r, day1[pod.category])
            rounds.setdefault((r.number, phase), []).extend(_match(m) for m in r.matches)
    return [
        RoundData(n, ph, tuple(ms), where=f"<round number={n}> ({ph})")
        for (n, ph), ms in sorted(rounds.items())
    ]


#: Where a TOM file holds the event's fields, for the messages of ``checks``.
FIELDS = {
    "name": "<data><name>",
    "location": "<data><city>, <state>, <country>",
    "date": "<data><startdate>",
    "players": "<players>",
    "rounds": "<pods>",
    "source": "the TOM file",
    "sanction_id": "<data><id>",
    "organizer_pop_id": "<data><organizer popid>",
}


def tdf_event_data(t: TdfTournament) -> EventData:
    """Convert a parsed TOM file into ``EventData`` (ids are TOM userids); a two-day file
    gets its ``swiss-day2`` rounds and ``day2_rounds`` (P-D2-1, module docstring).

    The result is checked as every imported event is (``checks.check_event_data``):
    raises TdfError naming the element at fault."""
    try:
        check_sizes(len(t.players), len({r.number for p in t.pods for r in p.rounds}), FIELDS)
        data = _event_data(t)
        check_event_data(data)
    except FileRefused as e:
        raise TdfError(str(e)) from None
    return data


def _event_data(t: TdfTournament) -> EventData:
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
            where=f"<player userid={p.userid!r}>",
        )
        for p in t.players
    ]
    day1 = _day1_of_pods(t)
    e = t.event
    return EventData(
        name=e.name,
        ruleset="pokemon",
        players=players,
        divisions=_division_data(t, set(division_of.values()), day1, division_of),
        rounds=_rounds(t, day1),
        date=e.startdate,
        location=", ".join(x for x in (e.city, e.state, e.country) if x),
        third_place_playoff=any(p.playoff_3rd_4th for p in t.pods),
        day2_rounds=max(
            (sum(r.number > day1[p.category] for r in p.swiss_rounds) for p in t.pods), default=0
        ),
        source={"tdf": tdf_source(t)},
        fields=dict(FIELDS),
        sanction_id=e.id,
        organizer_pop_id=e.organizer_popid,
    )


def _raw(pairs: tuple[tuple[str, str], ...]) -> list[list[str]]:
    return [list(p) for p in pairs]


def tdf_source(t: TdfTournament) -> dict[str, Any]:
    """What the file holds that the app does not model, as JSON for ``Event.source``, so
    the TOM exporter (``tdf_export``) can write it back unchanged: root attributes,
    ``<data>`` (the organiser's name; their POP ID and the sanction ID are event fields),
    players' raw children, pods' poddata, subgroups and round timings, match timestamps,
    finals options."""
    e = t.event
    return {
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
            "organizer_name": e.organizer_name,
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
