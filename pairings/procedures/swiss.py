"""The Swiss stage of a head-to-head pairing group (P-SW-1…8; age-modified P-AGE-3):
Swiss rounds up to the group's announced count, each paired from the stored seed (I-1).
Its order is ``standings.swiss_standings``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.actors import Actor
from tournaments.errors import PairingRefused
from tournaments.groups import group_label, in_group
from tournaments.models import Phase, Registration, Round
from tournaments.services import round_create
from tournaments.stored_text import gettext_storable

from ..adapters import round_notes, swiss_players_for_group
from ..engine.types import SwissPlayer
from .age_modified import pair_swiss_round
from .base import Group, Procedure, Step, StepKind, flags, to_tables


def next_step(group: Group) -> Step | None:
    """Swiss round ``number`` while fewer rounds than the group's Swiss count are paired."""
    total = group.swiss_total
    if len(group.rounds) >= total:
        return None
    message = gettext_storable("Pair Swiss round %(number)s of %(total)s.") % {
        "number": group.number,
        "total": total,
    }
    return Step(StepKind.SWISS, group.number, message, group.last)


def pair(group: Group, step: Step, by: Actor, seed: int) -> list[Round]:
    """Pair Swiss round ``step.number`` of the group (``seed`` stored with it). Raises
    PairingRefused with fewer than two active players."""
    event, row = group.event, group.row
    players = swiss_players_for_group(event, row)
    if len(players) < 2:
        raise PairingRefused(
            gettext_storable("%(group)s needs at least two active players.")
            % {"group": group_label(row)}
        )
    # Seats need only the registrations' ids: one narrow query, not 2,000 full rows.
    group_regs = Registration.objects.filter(in_group(row), event=event).only("pk")
    regs = {r.pk: r for r in group_regs}
    return [swiss_round(group, step, players, regs, Phase.SWISS, by, seed)]


def swiss_round(
    group: Group,
    step: Step,
    players: Sequence[SwissPlayer],
    regs: Mapping[int, Registration],
    phase: Phase,
    by: Actor,
    seed: int,
) -> Round:
    """Pair ``players`` (the engine's Swiss players: ids are registration pks as text)
    from ``seed`` and create round ``step.number`` of ``group`` in ``phase``: the Swiss
    stage and Day 2 alike (P-SW-1…8; age-modified P-AGE-3, R-5; the seed stored, I-1).
    ``regs`` maps every paired pk to its registration. Returns the new round, unpublished,
    with each table's pair-down and rematch flags and the pairing's notes. Raises the
    engine's PairingImpossible."""
    result = pair_swiss_round(players, group.row, seed)
    return round_create(
        event=group.event,
        group=group.row,
        number=step.number,
        phase=phase,
        tables=to_tables(result.pairings, regs),
        by=by,
        seed=seed,
        flags=flags(result.pairings),
        notes=round_notes(result),
    )


PROCEDURE = Procedure(next_step, pair)
