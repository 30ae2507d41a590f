"""Build the pairing engine's inputs from the database (one pairing group at a time)."""

from __future__ import annotations

from collections import defaultdict

from rulesets import get_ruleset
from tournaments.groups import in_group
from tournaments.models import Event, MatchSeat, Outcome, PairingGroup, Phase, Registration

from .engine.types import SwissPlayer, SwissRound

SWISS_PHASES = (Phase.SWISS,)


def group_registrations(event: Event, group: PairingGroup) -> list[Registration]:
    """Registrations of the divisions paired together in ``group`` (R-5), any status."""
    return list(
        Registration.objects.filter(in_group(group), event=event)
        .select_related("player", "division")
        .order_by("pk")
    )


def _active_players(event: Event, group: PairingGroup) -> list[tuple[int, str]]:
    """``(registration id, division code)`` of the group's players still in (not dropped,
    not disqualified), by id: one lean query, no player rows (names are not paired)."""
    return list(
        Registration.objects.filter(
            in_group(group), event=event, dropped_after_round__isnull=True, disqualified=False
        )
        .order_by("pk")
        .values_list("pk", "division__code")
    )


def _tally(
    event: Event, group: PairingGroup, phases: tuple[str, ...], before_round: int | None = None
) -> tuple[dict[int, int], dict[str, dict[int, set[int]]], set[int]]:
    """One pass over the group's seats in ``phases`` (rounds below ``before_round`` when
    given): ``(match points, {phase: opponents}, players who had a bye)``, points by the
    event's ruleset (a bye scores as a win)."""
    ruleset = get_ruleset(event.ruleset)
    points: dict[int, int] = defaultdict(int)
    opponents: dict[str, dict[int, set[int]]] = {ph: defaultdict(set) for ph in phases}
    byes: set[int] = set()
    seats = MatchSeat.objects.filter(round__group=group, round__phase__in=phases)
    if before_round is not None:
        seats = seats.filter(round__number__lt=before_round)
    rows = seats.values_list(
        "match_id", "registration_id", "match__outcome", "match__winner_id", "round__phase"
    ).order_by("match_id", "seat")
    by_match: dict[int, list[tuple[int, str, int | None, str]]] = defaultdict(list)
    for match_id, reg_id, outcome, winner, phase in rows:
        by_match[match_id].append((reg_id, outcome, winner, phase))
    for seated in by_match.values():
        ids = [r[0] for r in seated]
        _, outcome, winner_id, phase = seated[0]
        met = opponents[phase]
        for reg_id in ids:
            met[reg_id].update(i for i in ids if i != reg_id)
            if outcome == Outcome.BYE:
                byes.add(reg_id)
                points[reg_id] += ruleset.points_win
            elif outcome == Outcome.WIN and winner_id == reg_id:
                points[reg_id] += ruleset.points_win
            elif outcome == Outcome.DRAW:
                points[reg_id] += ruleset.points_tie
    return points, opponents, byes


def swiss_players_for_group(
    event: Event,
    group: PairingGroup,
    phases: tuple[str, ...] = SWISS_PHASES,
    *,
    before_round: int | None = None,
    opponents_in: tuple[str, ...] | None = None,
) -> list[SwissPlayer]:
    """Active players of a pairing group as SwissPlayer values (P-SW-2, P-SW-4, P-SW-5, P-SW-6).

    Dropped and disqualified players are left out. Match points follow the event's
    ruleset (a bye scores as a win); points, opponents and byes are counted over
    ``phases`` (the Swiss phase by default; Day 2 reads both days for points, R-3), and
    only over rounds numbered below ``before_round`` when it is given (a re-pair,
    P-SW-9). ``opponents_in``: count opponents over these of ``phases`` only (Day 2
    avoids Day 2 opponents only, R-3); default all of them. Two queries.
    """
    points, met, byes = _tally(event, group, phases, before_round)
    counted = [met[ph] for ph in (opponents_in or phases)]
    return [
        SwissPlayer(
            id=str(pk),
            match_points=points[pk],
            opponents=frozenset(str(o) for m in counted for o in m.get(pk, ())),
            had_bye=pk in byes,
            division=code,
        )
        for pk, code in _active_players(event, group)
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
