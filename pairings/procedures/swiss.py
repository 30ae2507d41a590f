"""The Swiss stage of a head-to-head pairing group (P-SW-1…8; age-modified P-AGE-3):
Swiss rounds up to the group's announced count, each paired from the stored seed (I-1).
Its order is ``standings.swiss_standings``."""

from __future__ import annotations

from typing import Any

from tournaments.errors import PairingImpossible
from tournaments.groups import group_label, in_group
from tournaments.messages import gettext
from tournaments.models import Phase, Registration, Round
from tournaments.services import round_create

from ..adapters import round_notes, swiss_players_for_group
from .age_modified import pair_swiss_round
from .base import Group, Procedure, Step, StepKind, flags, to_tables


def next_step(group: Group) -> Step | None:
    """Swiss round ``number`` while fewer rounds than the group's Swiss count are paired."""
    total = group.swiss_total
    if len(group.rounds) >= total:
        return None
    message = gettext("Pair Swiss round %(number)s of %(total)s.") % {
        "number": group.number,
        "total": total,
    }
    return Step(StepKind.SWISS, group.number, message, group.last)


def pair(group: Group, step: Step, by: Any, seed: int) -> list[Round]:
    """Pair Swiss round ``step.number`` of the group (``seed`` stored with it). Raises
    PairingImpossible with fewer than two active players."""
    event, row = group.event, group.row
    players = swiss_players_for_group(event, row)
    if len(players) < 2:
        raise PairingImpossible(
            gettext("%(pod)s needs at least two active players.") % {"pod": group_label(row)}
        )
    result = pair_swiss_round(players, row, seed)  # P-AGE-3, R-5 for a group of divisions
    # Seats need only the registrations' ids: one narrow query, not 2,000 full rows.
    group_regs = Registration.objects.filter(in_group(row), event=event).only("pk")
    regs = {r.pk: r for r in group_regs}
    rnd = round_create(
        event=event,
        group=row,
        number=step.number,
        phase=Phase.SWISS,
        tables=to_tables(result.pairings, regs),
        by=by,
        seed=seed,
        flags=flags(result.pairings),
        notes=round_notes(result),
    )
    return [rnd]


PROCEDURE = Procedure(next_step, pair)
