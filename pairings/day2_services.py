"""Day 2 of a two-day event: the cut and the Day 2 Swiss rounds (P-D2-1, P-D2-2, R-3).

An event with ``day2_rounds`` plays them after its Day 1 Swiss rounds, in phase
``swiss-day2`` with round numbers continuing Day 1's. The first Day 2 round seats the
players who make the cut (``engine.day2.day2_cut`` over the Day 1 standings: 19+ match
points or the top 32, whichever is larger, dropped players passed over); later rounds
pair the players seated in it who have not dropped since. Match points carry over, byes
count over both days (P-SW-5), and only Day 2 opponents are avoided (R-3).
"""

from __future__ import annotations

import random
from typing import Any

from tournaments.errors import PairingImpossible
from tournaments.models import Event, MatchSeat, Phase, Registration, Round
from tournaments.services import round_create

from . import pods
from .adapters import round_notes, swiss_players_for_pod
from .engine import swiss
from .engine.day2 import day2_cut, day2_players

BOTH_DAYS = (Phase.SWISS, Phase.SWISS_DAY2)


def day2_qualified(event: Event, pod: str) -> list[str]:
    """Registration ids (as strings) of the players in Day 2, in Day 1 standing order for
    the cut (P-D2-1). Once Day 2 has started: those seated in its first round."""
    first = event.rounds.filter(pod=pod, phase=Phase.SWISS_DAY2).order_by("number").first()
    if first is not None:
        seats = MatchSeat.objects.filter(round=first).values_list("registration_id", flat=True)
        return [str(r) for r in seats]
    from standings.services import pod_standings  # standings imports pairings: lazy

    ps = pod_standings(event, pod, with_day2=False)
    regs = ps.registrations
    rows = [
        (row.player, row.match_points)
        for row in ps.rows
        if not regs[row.player].dropped and not regs[row.player].disqualified
    ]
    return list(day2_cut(rows))


def pair_day2(*, event: Event, pod: str, number: int, seed: int, by: Any) -> Round:
    """Pair Day 2 round ``number`` of ``pod`` (P-D2-1, R-3): the Day 2 players still in,
    total match points, Day 2 opponents only. Raises PairingImpossible with fewer than
    two players."""
    qualified = set(day2_qualified(event, pod))
    everything = {p.id: p for p in swiss_players_for_pod(event, pod, phases=BOTH_DAYS)}
    day2_only = {p.id: p for p in swiss_players_for_pod(event, pod, phases=(Phase.SWISS_DAY2,))}
    advancing = [pid for pid in everything if pid in qualified]
    if len(advancing) < 2:
        raise PairingImpossible("Day 2 needs at least two players.")
    players = day2_players(
        advancing,
        {pid: p.match_points for pid, p in everything.items()},
        {pid: p.opponents for pid, p in day2_only.items()},
        {pid for pid, p in everything.items() if p.had_bye},
        {pid: p.division for pid, p in everything.items()},
    )
    # Day 2 keeps the pods: an age-modified pod stays division over record (P-AGE-3).
    result = swiss.pair_swiss(
        players, rng=random.Random(seed), age_modified=pods.is_age_modified(pod)
    )
    regs = Registration.objects.in_bulk([int(pid) for pid in advancing])
    tables = [(p.table, [regs[int(i)] for i in p.players], p.why) for p in result.pairings]
    return round_create(
        event=event,
        pod=pod,
        number=number,
        phase=Phase.SWISS_DAY2,
        tables=tables,
        by=by,
        seed=seed,
        flags={i: (p.pair_down, p.rematch) for i, p in enumerate(result.pairings)},
        notes=round_notes(result),
    )
