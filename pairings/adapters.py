"""Build the pairing engine's inputs from the database (one pod at a time)."""

from __future__ import annotations

from collections import defaultdict

from rulesets import get_ruleset
from tournaments.models import Event, MatchSeat, Outcome, Phase, Registration
from tournaments.pods import in_pod

from .engine.types import SwissPlayer, SwissRound

SWISS_PHASES = (Phase.SWISS,)


def pod_registrations(event: Event, pod: str) -> list[Registration]:
    """Registrations of the divisions paired together as ``pod`` (R-5), any status."""
    return list(
        Registration.objects.filter(in_pod(pod), event=event)
        .select_related("player", "division")
        .order_by("pk")
    )


def swiss_players_for_pod(
    event: Event,
    pod: str,
    phases: tuple[str, ...] = SWISS_PHASES,
    *,
    before_round: int | None = None,
) -> list[SwissPlayer]:
    """Active players of a pod as SwissPlayer values (P-SW-2, P-SW-4, P-SW-5, P-SW-6).

    Dropped and disqualified players are left out. Match points follow the event's
    ruleset (a bye scores as a win); opponents and byes are counted over ``phases``
    (the Swiss phase by default; Day 2 reads both days for points, R-3), and only over
    rounds numbered below ``before_round`` when it is given (a re-pair, P-SW-9).
    """
    ruleset = get_ruleset(event.ruleset)
    regs = [r for r in pod_registrations(event, pod) if not r.dropped and not r.disqualified]
    points: dict[int, int] = defaultdict(int)
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: set[int] = set()
    seats = MatchSeat.objects.filter(round__event=event, round__pod=pod, round__phase__in=phases)
    if before_round is not None:
        seats = seats.filter(round__number__lt=before_round)
    seats = seats.values_list(
        "match_id", "registration_id", "match__outcome", "match__winner_id"
    ).order_by("match_id", "seat")
    by_match: dict[int, list[tuple[int, str, int | None]]] = defaultdict(list)
    for match_id, reg_id, outcome, winner_id in seats:
        by_match[match_id].append((reg_id, outcome, winner_id))
    for rows in by_match.values():
        ids = [r[0] for r in rows]
        outcome, winner_id = rows[0][1], rows[0][2]
        for reg_id in ids:
            opponents[reg_id].update(i for i in ids if i != reg_id)
            if outcome == Outcome.BYE:
                byes.add(reg_id)
                points[reg_id] += ruleset.points_win
            elif outcome == Outcome.WIN and winner_id == reg_id:
                points[reg_id] += ruleset.points_win
            elif outcome == Outcome.DRAW:
                points[reg_id] += ruleset.points_tie
    return [
        SwissPlayer(
            id=str(r.pk),
            match_points=points[r.pk],
            opponents=frozenset(str(o) for o in opponents[r.pk]),
            had_bye=r.pk in byes,
            division=r.division.code,
        )
        for r in regs
    ]


UNPROVEN_NOTE = (
    "This pairing is valid, but the engine could not prove that no pairing with fewer "
    "pair-downs exists (a large round repaired locally)."
)


def round_notes(result: SwissRound) -> list[str]:
    """The engine's notes for ``Round.notes``: its sentences (an unavoidable rematch,
    P-SW-4; a bye moved up or a second bye, P-SW-5; pairings across divisions, P-AGE-3)
    plus one when optimality was not proven (P-SW-7)."""
    return list(result.notes) + ([] if result.proven_optimal else [UNPROVEN_NOTE])
