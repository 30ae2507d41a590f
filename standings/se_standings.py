"""Standings of a standalone single-elimination event (P-SE-5, P-SE-6, I-2).

The winner is 1st; everyone else is placed by the round they were knocked out in, then
by the final record of the player who knocked them out, then by their own random seed
(``engine.placement.single_elimination_places``). Written as the Standings JSON of
docs/interfaces.md; the ruleset's match points, record and tiebreaker columns (OWP and OOWP,
OMW/GW/OGW for Magic, …) are computed over the bracket's complete rounds and shown beside
the places, which they never change (a bracket has no tiebreakers; an organiser and the
players still expect the ruleset's columns on every row).
"""

from __future__ import annotations

from typing import Any

from rulesets import Context, get_ruleset
from tournaments.groups import age_order, group_seeds, swiss_group
from tournaments.models import Event, MatchKind, PairingGroup, Phase, RoundStatus

from . import adapters
from .engine.placement import single_elimination_places
from .engine.types import MatchRecord


def _lines(event: Event, group: PairingGroup, regs: list[Any], matches: list[MatchRecord]) -> dict:
    """The ruleset's standings lines over the bracket's complete rounds, by player id:
    its match points, record and tiebreaker columns (shown beside the P-SE-5 places;
    they never change the order)."""
    done = list(group.rounds.filter(status=RoundStatus.COMPLETE).order_by("number"))
    numbers = {r.number for r in done}
    ctx = Context(rounds=len(done), seed=done[-1].seed if done else 0, options=event.options)
    played = [m for m in matches if m.round in numbers]
    lines = get_ruleset(event.ruleset).standings(adapters.entrants(regs), played, ctx)
    return {line.player: line for line in lines}


def _rows(event: Event, group: PairingGroup, code: str) -> list[dict[str, Any]]:
    seeds = sorted(group_seeds(group).items(), key=lambda kv: kv[1])
    regs = {
        str(r.pk): r
        for r in event.registrations.filter(division__code=code).select_related("player")
    }
    ids = [str(reg_id) for reg_id, _ in seeds if str(reg_id) in regs]
    matches = adapters.match_records(group, phases=(Phase.SINGLE_ELIMINATION,))
    places = single_elimination_places(ids, matches) if ids else tuple(regs)
    order = sorted(places, key=lambda p: regs[p].disqualified)  # docs/interfaces.md: DQ last
    lines = _lines(event, group, list(regs.values()), matches)
    out = []
    for place, pid in enumerate(order, start=1):
        reg, line = regs[pid], lines[pid]
        place_or_none = None if reg.disqualified else place
        row = adapters.row_json(place_or_none, line, reg, False)
        out.append(row | {"seed": dict(seeds).get(reg.pk)})
    return out


def se_standings_data(event: Event) -> dict[str, Any]:
    """The Standings JSON of a standalone single-elimination event; ``final`` once the
    final is complete in every division."""
    divisions, rounds, final = {}, {}, True
    for division in event.divisions.prefetch_related("groups").order_by(age_order()):
        group = swiss_group(division)
        divisions[division.code] = _rows(event, group, division.code)
        done = group.rounds.filter(status=RoundStatus.COMPLETE)
        rounds[division.code] = done.count()
        last = group.rounds.order_by("number").last()
        final = final and (
            last is not None
            and last.status == RoundStatus.COMPLETE
            and last.matches.exclude(kind=MatchKind.THIRD_PLACE).count() == 1
        )
    return {
        "event": event.slug,
        "ruleset": event.ruleset,
        "divisions": divisions,
        "rounds": rounds,
        "final": final,
    }
