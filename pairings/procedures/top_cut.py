"""The top cut after the Swiss (P-TC-1 … P-TC-4), with the 3rd/4th place playoff
(P-SE-6): two stages.

* ``CUT`` (a Swiss group's last stage): once the Swiss is over, each division with a
  ``cut`` gets its own bracket group (``tournaments.groups.cut_group``, its parent the
  Swiss group), whose round numbers continue the Swiss group's; the cut's seeds are
  stored with it (``CutSeed``, seed 1 the best standing), and its first round seats the top ``cut`` active players by Swiss
  standing (``standings.services.division_swiss_order``; a flighted division's merged
  order, P-FL-5) in the standard bracket, or the MTG draft playoff seating (M-SE-1,
  ``mtg_playoff``).
* ``BRACKET`` (a top-cut group's stage): winners of consecutive tables meet until one
  match is left; after the semi-finals, the announced 3rd/4th playoff too.

The final places are ``standings.services`` (the ruleset's ``cut_places``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db.models import QuerySet

from standings.services import division_swiss_order
from tournaments.actors import Actor
from tournaments.errors import PairingRefused, ResultsMissing
from tournaments.groups import cut_group, group_label, group_seeds, seeds_store
from tournaments.models import (
    Division,
    Event,
    GroupPhase,
    Match,
    MatchKind,
    Phase,
    Registration,
    Round,
)
from tournaments.services import round_create
from tournaments.stored_text import gettext_storable

from ..engine import elimination
from ..engine.types import Pairing
from .base import Group, Procedure, Step, StepKind, to_tables
from .mtg_playoff import top_cut_first_round


def bracket_matches(rnd: Round) -> QuerySet[Match]:
    """The matches of an elimination round that advance someone (not the 3rd/4th playoff)."""
    return rnd.matches.filter(kind=MatchKind.BRACKET)


def cut_players(event: Event, division: Division) -> list[Registration]:
    """P-TC-1: the top ``cut`` active players of the division by Swiss standing, seed 1
    first. Dropped or disqualified players are passed over. Raises PairingRefused when
    too few are left."""
    cut = division.cut
    order = [
        r for r in division_swiss_order(event, division) if not r.dropped and not r.disqualified
    ]
    if len(order) < cut:
        raise PairingRefused(
            gettext_storable(
                "A top %(cut)s needs %(cut)s active players in %(code)s; there are %(order)s."
            )
            % {"cut": cut, "code": division.get_code_display(), "order": len(order)}
        )
    return order[:cut]


def _decklist_notes(event: Event, seeds: Sequence[Registration]) -> list[str]:
    """P-POST-5: in a Championship Point event, warn when a cut player has no deck list."""
    missing = [r.player.name for r in seeds if r.decklist_received_at is None]
    if not event.collects_decklists or not missing:
        return []
    return [f"Deck list missing for {len(missing)} cut player(s): {', '.join(missing)}."]


def waiting_cuts(group: Group) -> list[Division]:
    """The group's divisions that have a cut not taken yet (their top-cut group has no
    round); the pod cut (``pods``) reads the same."""
    taken = set(
        group.event.groups.filter(phase=GroupPhase.TOP_CUT, rounds__isnull=False).values_list(
            "divisions", flat=True
        )
    )
    return [d for d in group.divisions if d.cut and d.pk not in taken]


def cut_next_step(group: Group) -> Step | None:
    """The cut of every division of the group that has one and whose cut is not taken."""
    waiting = waiting_cuts(group)
    if not waiting:
        return None
    names = ", ".join(
        gettext_storable("top %(cut)s %(division)s")
        % {"cut": d.cut, "division": d.get_code_display()}
        for d in waiting
    )
    message = gettext_storable("Swiss is over: cut to %(names)s.") % {"names": names}
    return Step(StepKind.TOP_CUT, group.number, message, group.last, waiting)


def _pair_cut(event: Event, division: Division, number: int, by: Actor) -> Round:
    """P-TC-1: the top ``cut`` active players of the division by Swiss standing
    (:func:`cut_players`), seeded into the standard bracket or the draft playoff seating;
    a Championship Point event notes cut players without a deck list (P-POST-5)."""
    seeds = cut_players(event, division)
    regs = {r.pk: r for r in seeds}
    seed = secrets.randbits(48)  # M-SE-1 draft playoff seats; stored with the round (I-1)
    pairings = top_cut_first_round(event, [str(r.pk) for r in seeds], seed)
    group = cut_group(division)
    seeds_store(group, [r.pk for r in seeds])
    return round_create(
        event=event,
        group=group,
        number=number,
        phase=Phase.TOP_CUT,
        tables=to_tables(pairings, regs),
        by=by,
        seed=seed,
        notes=_decklist_notes(event, seeds),
    )


def cut_pair(group: Group, step: Step, by: Actor, seed: int) -> list[Round]:
    """Take the cut of each division of ``step`` (the cut draws its own seed, I-1)."""
    return [_pair_cut(group.event, d, step.number, by) for d in step.divisions]


def bracket_next_step(group: Group) -> Step:
    """The next round while more than one bracket match was played last; else finished."""
    last, number = group.last, group.number
    if last is not None and bracket_matches(last).count() > 1:
        message = gettext_storable("Pair top-cut round %(number)s.") % {"number": number}
        return Step(StepKind.ELIMINATION, number, message, last)
    done = gettext_storable("%(group)s is finished.") % {"group": group_label(group.row)}
    return Step(StepKind.DONE, number, done, last)


def bracket_pair(group: Group, step: Step, by: Actor, seed: int) -> list[Round]:
    """The next single-elimination round: winners of consecutive tables meet (P-SE-1);
    after the semi-finals, the 3rd/4th playoff too when announced (P-TC-4, P-SE-6).
    Raises ResultsMissing when a match has no winner."""
    event, last = group.event, step.last
    if last is None:
        raise PairingRefused(step.message)
    matches = list(bracket_matches(last).order_by("table").prefetch_related("seats"))
    if any(m.winner_id is None for m in matches):
        raise ResultsMissing(
            gettext_storable("Every single-elimination match needs a winner (P-SE).")
        )
    seed_of = {str(k): v for k, v in group_seeds(group.row).items()}
    winners = [str(m.winner_id) for m in matches]
    pairings = list(elimination.next_elimination_round(winners, seed_of=seed_of, top_cut=True))
    if len(matches) == 2 and event.third_place_playoff:
        semis = [
            Pairing(table=m.table, players=tuple(str(s.registration_id) for s in m.seats.all()))
            for m in matches
        ]
        by_table = {m.table: str(m.winner_id) for m in matches if m.table is not None}
        pairings.append(elimination.third_place_playoff(semis, by_table, seed_of))
    regs = Registration.objects.in_bulk([int(p) for pr in pairings for p in pr.players])
    third = len(pairings) - 1 if len(matches) == 2 and event.third_place_playoff else None
    rnd = round_create(
        event=event,
        group=group.row,
        number=last.number + 1,
        phase=last.phase,
        tables=to_tables(pairings, regs),
        by=by,
        third_place=third,
    )
    return [rnd]


CUT = Procedure(cut_next_step, cut_pair)
BRACKET = Procedure(bracket_next_step, bracket_pair)
