"""Multiplayer pod events (MP-POD-1…2, MP-PAIR-1, MP-SEAT-1, MP-SE-1…2, I-3): three
stages.

* ``SWISS``: Swiss rounds of pods up to the announced count, no byes, filled top to
  bottom by the multiplayer standings (``standings.services.group_standings``).
* ``CUT`` (the Swiss group's last stage): each division with a cut gets its own group
  (``tournaments.groups.cut_group``) with the cut's seeds stored (``CutSeed``); top seeds
  get byes, the others are snaked into pods of 4.
* ``BRACKET`` (the cut group's stage): cut rounds from the winners until the final pod
  (a round of one pod and no byes) is played; a drawn pod goes to the best Swiss seed
  (MP-SE-2).

Pods are stored as Match rows with 3–5 MatchSeats in seat order (seat 1 takes the first
turn); a top seed's bye in a pod top cut is a one-seat bye match without a table. A Swiss
round of pods is paired again after a correction by ``pairings.repair_services``.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from standings.services import division_swiss_order, group_standings
from tournaments.actors import Actor
from tournaments.errors import PairingRefused, ResultsMissing
from tournaments.groups import cut_group, group_label, group_seeds, in_group, seeds_store
from tournaments.models import (
    Division,
    Event,
    MatchSeat,
    Outcome,
    PairingGroup,
    Phase,
    Registration,
    Round,
)
from tournaments.multiplayer import pod_size
from tournaments.services import audit_log, round_create
from tournaments.services.rounds import Table
from tournaments.stored_text import gettext_storable

from ..engine.pod_elimination import POD_CUTS, pod_cut_first_round, pod_cut_next_round, pod_winner
from ..engine.pods import Pod, PodPlayer, pair_pods
from . import swiss
from .base import Group, Procedure, Step, StepKind, to_tables
from .top_cut import waiting_cuts

BYE_WHY = "top seed: bye to the next round"  # MP-SE-1


def _history(event: Event, group: PairingGroup) -> tuple[dict[int, set[int]], dict[int, int]]:
    """Previous opponents (MP-PAIR-1) and smaller pods sat in (MP-POD-2), Swiss only."""
    standard = pod_size(event)
    seats = MatchSeat.objects.filter(round__group=group, round__phase=Phase.SWISS).values_list(
        "match_id", "registration_id"
    )
    tables: dict[int, list[int]] = defaultdict(list)
    for match_id, reg_id in seats:
        tables[match_id].append(reg_id)
    opponents: dict[int, set[int]] = defaultdict(set)
    small: dict[int, int] = defaultdict(int)
    for ids in tables.values():
        for reg_id in ids:
            opponents[reg_id].update(i for i in ids if i != reg_id)
            if 1 < len(ids) < standard:
                small[reg_id] += 1
    return opponents, small


def pod_players(event: Event, group: PairingGroup) -> list[PodPlayer]:
    """The active players of pairing group ``group`` as PodPlayers: match points and rank
    from the multiplayer standings (MP-TB order), previous opponents, smaller pods sat in."""
    standings = group_standings(event, group)
    regs = standings.registrations
    opponents, small = _history(event, group)
    players = []
    for rank, line in enumerate(standings.rows, start=1):
        reg = regs[line.player]
        if reg.dropped or reg.disqualified:
            continue
        players.append(
            PodPlayer(
                id=line.player,
                match_points=line.match_points,
                rank=rank if standings.rounds else 0,  # round 1: at random from the seed
                opponents=frozenset(str(o) for o in opponents[reg.pk]),
                small_pods=small[reg.pk],
            )
        )
    return players


def _why(p: Pod, names: dict[str, str]) -> str:
    """The pod's explanation plus who was paired up or down (MP-PAIR-1)."""
    parts = [p.why]
    if p.paired_up:
        parts.append("paired up: " + ", ".join(sorted(names[i] for i in p.paired_up)))
    if p.paired_down:
        parts.append("paired down: " + ", ".join(sorted(names[i] for i in p.paired_down)))
    return "; ".join(parts)


def _tables(built: Sequence[Pod], regs: dict[str, Registration]) -> list[Table]:
    names = {k: r.player.name for k, r in regs.items()}
    return [(p.table, [regs[i] for i in p.players], _why(p, names)) for p in built]


def _pair_swiss(event: Event, group: PairingGroup, number: int, seed: int, by: Actor) -> Round:
    """MP-POD-1, MP-POD-2, MP-PAIR-1, MP-SEAT-1: one Swiss round of pods, no byes."""
    players = pod_players(event, group)
    result = pair_pods(players, rng=random.Random(seed), standard=pod_size(event))
    regs = {
        str(r.pk): r
        for r in Registration.objects.filter(in_group(group), event=event).select_related("player")
    }
    flags = {
        i: (bool(p.paired_up or p.paired_down), p.repeats > 0) for i, p in enumerate(result.pods)
    }
    rnd = round_create(
        event=event,
        group=group,
        number=number,
        phase=Phase.SWISS,
        tables=_tables(result.pods, regs),
        by=by,
        seed=seed,
        flags=flags,
    )
    if result.notes:
        audit_log(event=event, by=by, action="round.notes", obj=rnd, new=list(result.notes))
    return rnd


def swiss_seeds(event: Event, division: Division) -> list[str]:
    """Registration ids of the division's active players in Swiss order (seed 1 first)."""
    order = division_swiss_order(event, division)
    return [str(r.pk) for r in order if not r.dropped and not r.disqualified]


def _cut_tables(rounds_pods: Sequence[Pod], byes: Sequence[str], regs: Any) -> list[Table]:
    return to_tables(rounds_pods, regs) + [(None, [regs[int(i)]], BYE_WHY) for i in byes]


def _pair_cut(event: Event, division: Division, number: int, by: Actor) -> Round:
    """MP-SE-1, I-3, MP-SEAT-1: the top ``cut`` active players by Swiss standing; top
    seeds get byes, the others are snaked into pods of 4 seated by seed."""
    cut = division.cut
    if cut not in POD_CUTS:
        raise PairingRefused(
            gettext_storable("A multiplayer top cut has %(pod_cuts)s players, not %(cut)s.")
            % {"pod_cuts": POD_CUTS, "cut": cut}
        )
    seeds = swiss_seeds(event, division)
    if len(seeds) < cut:
        raise PairingRefused(
            gettext_storable("A top %(cut)s needs %(cut)s active players; there are %(seeds)s.")
            % {"cut": cut, "seeds": len(seeds)}
        )
    first = pod_cut_first_round(seeds[:cut])
    regs = Registration.objects.in_bulk([int(i) for i in seeds[:cut]])
    group = cut_group(division)
    seeds_store(group, [int(i) for i in seeds[:cut]])  # seed 1 the best standing (I-3)
    return round_create(
        event=event,
        group=group,
        number=number,
        phase=Phase.TOP_CUT,
        tables=_cut_tables(first.pods, first.byes, regs),
        by=by,
    )


def advancing(last: Round, seed_of: dict[str, int]) -> list[str]:
    """Who goes on from a top-cut round: byes, winners, and for a drawn pod the best
    Swiss seed among the players who did not concede (MP-SE-2, MP-PTS-1)."""
    out = []
    for m in last.matches.prefetch_related("seats"):
        seats = sorted(m.seats.all(), key=lambda s: s.seat)
        ids = tuple(str(s.registration_id) for s in seats)
        if m.outcome == Outcome.BYE:
            out.append(ids[0])
        elif m.outcome == Outcome.WIN:
            out.append(str(m.winner_id))
        elif m.outcome == Outcome.DRAW:
            conceded = frozenset(str(s.registration_id) for s in seats if s.conceded)
            out.append(pod_winner(Pod(m.table or 0, ids), None, seed_of, excluded=conceded))
        else:
            raise ResultsMissing(
                gettext_storable("Table %(table)s of round %(number)s has no result yet.")
                % {"table": m.table, "number": last.number}
            )
    return out


def _pair_cut_next(event: Event, group: PairingGroup, last: Round, by: Actor) -> Round:
    """The next top-cut round: the players still in snaked by their cut seed (I-3)."""
    seed_of = {str(reg): seed for reg, seed in group_seeds(group).items()}
    nxt = pod_cut_next_round(advancing(last, seed_of), seed_of)
    regs = Registration.objects.in_bulk([int(i) for p in nxt.pods for i in p.players])
    return round_create(
        event=event,
        group=group,
        number=last.number + 1,
        phase=last.phase,
        tables=_cut_tables(nxt.pods, (), regs),
        by=by,
    )


def swiss_pair(group: Group, step: Step, by: Actor, seed: int) -> list[Round]:
    """Pair Swiss round ``step.number`` of pods (``seed`` stored with it)."""
    return [_pair_swiss(group.event, group.row, step.number, seed, by)]


def cut_next_step(group: Group) -> Step | None:
    """The pod cut of every division of the group that has one and whose cut is not taken."""
    waiting = waiting_cuts(group)
    if not waiting:
        return None
    names = ", ".join(gettext_storable("top %(cut)s") % {"cut": d.cut} for d in waiting)
    message = gettext_storable("Swiss is over: cut to %(names)s.") % {"names": names}
    return Step(StepKind.TOP_CUT, group.number, message, group.last, waiting)


def cut_pair(group: Group, step: Step, by: Actor, seed: int) -> list[Round]:
    """Take the pod cut of each division of ``step`` (MP-SE-1, I-3)."""
    return [_pair_cut(group.event, d, step.number, by) for d in step.divisions]


def bracket_next_step(group: Group) -> Step:
    """The next cut round while the last had more than one pod (or a bye); else finished."""
    last, number = group.last, group.number
    if last is not None and last.matches.count() > 1:
        message = gettext_storable("Pair top-cut round %(number)s.") % {"number": number}
        return Step(StepKind.ELIMINATION, number, message, last)
    done = gettext_storable("%(group)s is finished.") % {"group": group_label(group.row)}
    return Step(StepKind.DONE, number, done, last)


def bracket_pair(group: Group, step: Step, by: Actor, seed: int) -> list[Round]:
    """The next cut round from the winners (MP-SE-2 decides drawn pods)."""
    if step.last is None:
        raise PairingRefused(step.message)
    return [_pair_cut_next(group.event, group.row, step.last, by)]


SWISS = Procedure(swiss.next_step, swiss_pair)  # Swiss rounds up to the count, as head to head
CUT = Procedure(cut_next_step, cut_pair)
BRACKET = Procedure(bracket_next_step, bracket_pair)
