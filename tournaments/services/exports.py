"""Writing an event as event JSON v1 (a full backup, INTERFACES.md)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..formats.event_json import FORMAT
from ..models import Event, MatchSeat, Outcome

_RESULTS = {
    Outcome.DRAW: "draw",
    Outcome.DOUBLE_LOSS: "double-loss",
    Outcome.BYE: "bye",
    Outcome.LOSS: "loss",
    Outcome.PENDING: None,
}


def _players(event: Event) -> list[dict[str, Any]]:
    return [
        {
            "id": r.external_id,
            "name": r.player.name,
            "division": r.division.code,
            "birth_year": r.player.birth_year,
            "player_id": r.player.player_id,
            "late": r.late,
            "dropped_after_round": r.dropped_after_round,
            "disqualified": r.disqualified,
        }
        for r in event.registrations.select_related("player", "division").order_by("pk")
    ]


def _rounds(event: Event) -> list[dict[str, Any]]:
    """Rounds of every pod merged by (number, phase), matches in pod then table order."""
    seats = (
        MatchSeat.objects.filter(round__event=event)
        .select_related("match__winner", "match__round", "registration")
        .order_by("round__number", "round__pod", "match__table", "match_id", "seat")
    )
    matches: dict[int, dict[str, Any]] = {}
    rounds: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for s in seats:
        m = s.match
        if m.pk not in matches:
            result = (
                m.winner.external_id
                if m.outcome == Outcome.WIN and m.winner
                else _RESULTS[Outcome(m.outcome)]
            )
            matches[m.pk] = {"table": m.table or 0, "players": [], "result": result}
            if m.games is not None:
                matches[m.pk]["games"] = m.games
            rounds[(m.round.number, m.round.phase)].append(matches[m.pk])
        matches[m.pk]["players"].append(s.registration.external_id)
        if s.conceded:  # pods: no share of a draw (MP-PTS-1)
            matches[m.pk].setdefault("conceded", []).append(s.registration.external_id)
    return [{"number": n, "phase": ph, "matches": ms} for (n, ph), ms in sorted(rounds.items())]


def event_export(event: Event) -> dict[str, Any]:
    """The event as an event JSON v1 document (a dict ready for ``json.dump``)."""
    return {
        "format": FORMAT,
        "name": event.name,
        "ruleset": event.ruleset,
        "options": event.options,
        "date": event.date.isoformat() if event.date else None,
        "location": event.location,
        "third_place_playoff": event.third_place_playoff,
        "divisions": [
            {"code": d.code, "pod": d.pod, "swiss_rounds": d.rounds, "top_cut": d.cut}
            for d in event.divisions.order_by("code")
        ],
        "players": _players(event),
        "rounds": _rounds(event),
    }
