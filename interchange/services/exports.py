"""Writing an event as event JSON v1 (docs/interfaces.md): the portable file, not a backup.

It holds players, rounds and results, which ``import_event`` continues under a new slug;
the audit trail, penalties, staff, self-reports, private links and slug are not in it.
The backup is the archive (``export_event --archive``, ``services.archive``)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tournaments.groups import swiss_group
from tournaments.models import Event, MatchKind, MatchSeat, Outcome

from ..formats.event_json import FORMAT

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
            **({"flight": r.flight} if r.flight is not None else {}),
        }
        for r in event.registrations.select_related("player", "division").order_by("pk")
    ]


def _rounds(event: Event) -> list[dict[str, Any]]:
    """Rounds of every pod merged by (number, phase), matches in pod then creation order
    (a bracket's slots are in that order, ``pairings.procedures.single_elimination``);
    each round's ``seeds`` keeps the seed every pairing group's round was paired with
    (I-1: the standings order their last ties by it), each match its ``why``."""
    seats = (
        MatchSeat.objects.filter(round__event=event)
        .select_related("match__winner", "match__round__group", "registration")
        .order_by("round__number", "round__group__key", "match_id", "seat")
    )
    matches: dict[int, dict[str, Any]] = {}
    rounds: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    seeds: dict[tuple[int, str], dict[str, int]] = defaultdict(dict)
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
            if m.why:
                matches[m.pk]["why"] = m.why
            if m.kind == MatchKind.THIRD_PLACE:  # the others follow from result and phase
                matches[m.pk]["kind"] = m.kind
            rounds[(m.round.number, m.round.phase)].append(matches[m.pk])
            if m.round.seed:
                seeds[(m.round.number, m.round.phase)][m.round.group.key] = m.round.seed
        matches[m.pk]["players"].append(s.registration.external_id)
        if s.conceded:  # pods: no share of a draw (MP-PTS-1)
            matches[m.pk].setdefault("conceded", []).append(s.registration.external_id)
    return [
        {
            "number": n,
            "phase": ph,
            **({"seeds": seeds[(n, ph)]} if seeds[(n, ph)] else {}),
            "matches": ms,
        }
        for (n, ph), ms in sorted(rounds.items())
    ]


def event_export(event: Event) -> dict[str, Any]:
    """The event as an event JSON v1 document (a dict ready for ``json.dump``): the
    portable file at any round, which ``import_event`` continues (docs/interfaces.md) — not a
    backup (module docstring; ``services.archive.event_archive`` is). ``divisions``
    always holds each division's planned structure (``group``; ``pod``, its older
    spelling, for older readers; ``swiss_rounds`` of Day 1, ``day2_rounds``, ``top_cut``,
    ``flights``), ``structure`` the S-1 structure, players their ``flight``;
    ``sanction_id`` and ``organizer_pop_id`` the Play! Pokémon IDs ("" when unknown)."""
    return {
        "format": FORMAT,
        "name": event.name,
        "ruleset": event.ruleset,
        "structure": event.structure,
        "options": event.options,
        "date": event.date.isoformat() if event.date else None,
        "location": event.location,
        "third_place_playoff": event.third_place_playoff,
        "sanction_id": event.sanction_id,
        "organizer_pop_id": event.organizer_pop_id,
        "divisions": [
            {
                "code": d.code,
                "group": swiss_group(d).key,
                "swiss_rounds": d.rounds,
                "day2_rounds": event.day2_rounds,
                "top_cut": d.cut,
                "flights": d.flights,
            }
            for d in event.divisions.prefetch_related("groups").order_by("code")
        ],
        "players": _players(event),
        "rounds": _rounds(event),
    }
