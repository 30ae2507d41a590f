"""Standings of a standalone single-elimination event (P-SE-5, P-SE-6, I-2).

The winner is 1st; everyone else is placed by the round they were knocked out in, then
by the final record of the player who knocked them out, then by their own random seed
(``engine.placement.single_elimination_places``). Written as the Standings JSON of
INTERFACES.md with an empty ``tiebreakers`` (there are none in a bracket).
"""

from __future__ import annotations

from typing import Any

from pairings.engine.elimination import THIRD_PLACE_WHY
from pairings.se_services import se_seeds
from tournaments.models import Event, Outcome, Phase, RoundStatus

from . import adapters
from .engine.placement import single_elimination_places
from .engine.types import MatchRecord


def _record(pid: str, matches: list[MatchRecord]) -> tuple[int, int]:
    played = [m for m in matches if pid in m.players]
    wins = sum(1 for m in played if m.winner == pid or m.outcome == Outcome.BYE)
    losses = sum(1 for m in played if m.winner not in (None, pid))
    return wins, losses


def _rows(event: Event, pod: str, code: str) -> list[dict[str, Any]]:
    seeds = sorted(se_seeds(event, pod).items(), key=lambda kv: kv[1])
    regs = {str(r.pk): r for r in event.registrations.filter(division__code=code)}
    ids = [str(reg_id) for reg_id, _ in seeds if str(reg_id) in regs]
    matches = adapters.match_records(event, pod, phases=(Phase.SINGLE_ELIMINATION,))
    order = single_elimination_places(ids, matches) if ids else tuple(regs)
    order = sorted(order, key=lambda p: regs[p].disqualified)  # INTERFACES.md: DQ last
    out = []
    for place, pid in enumerate(order, start=1):
        reg, (wins, losses) = regs[pid], _record(pid, matches)
        out.append(
            {
                "place": None if reg.disqualified else place,
                "player": reg.external_id,
                "name": reg.player.name,
                "match_points": wins,
                "record": f"{wins}-{losses}-0",
                "dropped": reg.dropped,
                "late": reg.late,
                "top_cut": False,
                "seed": dict(seeds).get(reg.pk),
                "tiebreakers": {},
                "exact": {},
            }
        )
    return out


def se_standings_data(event: Event) -> dict[str, Any]:
    """The Standings JSON of a standalone single-elimination event; ``final`` once the
    final is complete in every division."""
    divisions, rounds, final = {}, {}, True
    for division in event.divisions.order_by("code"):
        divisions[division.code] = _rows(event, division.pod, division.code)
        done = event.rounds.filter(pod=division.pod, status=RoundStatus.COMPLETE)
        rounds[division.code] = done.count()
        last = event.rounds.filter(pod=division.pod).order_by("number").last()
        final = final and (
            last is not None
            and last.status == RoundStatus.COMPLETE
            and last.matches.exclude(why__startswith=THIRD_PLACE_WHY).count() == 1
        )
    return {
        "event": event.slug,
        "ruleset": event.ruleset,
        "divisions": divisions,
        "rounds": rounds,
        "final": final,
    }
