"""Standalone single elimination (event structure ``single-elimination``, P-SE-1 … P-SE-6).

Round 1 seeds the active players of the bracket at random from a stored seed (P-SE-1,
I-1) and gives the top seeds the byes (P-SE-2); the seeds are stored with the group
(``CutSeed``), and ``standings.se_standings`` places the players from them (P-SE-5). Later rounds pair the winners of consecutive slots; after the semi-finals the
announced 3rd/4th playoff is paired too (P-SE-6). Round 1's matches are created in slot
order (byes included), so the database order of a round is its slot order. Late players
(P-SE-4) and drops (P-SE-3) are handled in ``tournaments.services.registrations``.
"""

from __future__ import annotations

import random
from typing import Any

from tournaments.actors import Actor
from tournaments.errors import PairingRefused, ResultsMissing
from tournaments.groups import group_seeds, seeds_store
from tournaments.models import Event, Match, MatchKind, PairingGroup, Phase, Registration, Round
from tournaments.services import round_create
from tournaments.services.registrations import match_forfeit
from tournaments.stored_text import gettext_storable

from ..adapters import group_registrations
from ..engine import elimination
from ..engine.types import Pairing
from .base import Group, Procedure, Step, StepKind, to_tables


def next_step(group: Group) -> Step:
    """Round 1 (seeded at random), then the next round until the final is played."""
    last = group.last
    if last is None:
        message = gettext_storable("Seed the players at random and pair round 1.")
        return Step(StepKind.ELIMINATION, 1, message, None)
    if last.matches.exclude(kind=MatchKind.THIRD_PLACE).count() == 1:
        return Step(StepKind.DONE, group.number, gettext_storable("The final is played."), last)
    message = gettext_storable("Pair round %(number)s.") % {"number": group.number}
    return Step(StepKind.ELIMINATION, group.number, message, last)


def _slots(rnd: Round) -> list[Match]:
    """The slots of a round in bracket order (the 3rd/4th playoff is not one)."""
    matches = rnd.matches.exclude(kind=MatchKind.THIRD_PLACE).order_by("pk")
    return list(matches.prefetch_related("seats"))


def _first_round(event: Event, group: PairingGroup, seed: int, by: Actor) -> Round:
    regs = [r for r in group_registrations(event, group) if not r.dropped and not r.disqualified]
    order = elimination.random_seeding([str(r.pk) for r in regs], rng=random.Random(seed))
    seeds_store(group, [int(pid) for pid in order])
    pairings = elimination.single_elimination_first_round(order)
    return _create(event, group, 1, pairings, by, seed)


def _create(
    event: Event,
    group: PairingGroup,
    number: int,
    pairings: Any,
    by: Actor,
    seed: int = 0,
    third_place: int | None = None,
) -> Round:
    regs = Registration.objects.in_bulk([int(p) for pr in pairings for p in pr.players])
    return round_create(
        event=event,
        group=group,
        number=number,
        phase=Phase.SINGLE_ELIMINATION,
        tables=to_tables(pairings, regs),
        by=by,
        seed=seed,
        third_place=third_place,
    )


def _next_round(event: Event, group: PairingGroup, last: Round, by: Actor) -> Round:
    slots = _slots(last)
    if any(m.winner_id is None and len(m.seats.all()) > 1 for m in slots):
        raise ResultsMissing(
            gettext_storable("Every single-elimination match needs a winner (P-SE).")
        )
    if len(slots) == 1:
        raise PairingRefused(gettext_storable("The final is played: the bracket is finished."))
    seed_of = {str(k): v for k, v in group_seeds(group).items()}
    advancing = [str(m.winner_id or m.seats.all()[0].registration_id) for m in slots]
    pairings = list(elimination.next_elimination_round(advancing, seed_of))
    third = None
    if len(slots) == 2 and event.third_place_playoff:  # P-SE-6
        semis = [
            Pairing(table=m.table, players=tuple(str(s.registration_id) for s in m.seats.all()))
            for m in slots
        ]
        winners = {m.table: str(m.winner_id) for m in slots if m.table is not None}
        pairings.append(elimination.third_place_playoff(semis, winners, seed_of))
        third = len(pairings) - 1
    rnd = _create(event, group, last.number + 1, pairings, by, third_place=third)
    for reg in list(Registration.objects.filter(seats__round=rnd).select_related("player")):
        if reg.dropped or reg.disqualified:  # P-SE-3: a player who left loses their next match
            match_forfeit(registration=reg, by=by)
    return rnd


def pair(group: Group, step: Step, by: Actor, seed: int) -> list[Round]:
    """Pair the next round of a standalone single-elimination bracket (P-SE-1, P-SE-2,
    P-SE-6): round 1 from ``seed``, later rounds from the winners. Raises ResultsMissing,
    PairingRefused."""
    if group.last is None:
        return [_first_round(group.event, group.row, seed, by)]
    return [_next_round(group.event, group.row, group.last, by)]


PROCEDURE = Procedure(next_step, pair)
