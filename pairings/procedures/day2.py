"""Day 2 of a two-day event: the Day 2 Swiss rounds after Day 1's (P-D2-1, R-3).

An event with ``day2_rounds`` plays them after its Day 1 Swiss rounds, in phase
``swiss-day2`` with round numbers continuing Day 1's. The players are those who make the
cut, as the standings say (``standings.day2_standings.day2_qualified``: 19+ match points
or the top 32, dropped players passed over; once Day 2 has started, those seated in its
first round), less anyone dropped since. Match points carry over, byes count over both
days (P-SW-5), and only Day 2 opponents are avoided (R-3). The order after Day 2 is
``standings.day2_standings``.
"""

from __future__ import annotations

from standings.day2_standings import day2_qualified
from tournaments.actors import Actor
from tournaments.errors import PairingRefused
from tournaments.models import Phase, Registration, Round
from tournaments.stored_text import gettext_storable

from ..adapters import swiss_players_for_group
from ..engine.day2 import day2_players
from .base import Group, Procedure, Step, StepKind
from .swiss import swiss_round

BOTH_DAYS = (Phase.SWISS, Phase.SWISS_DAY2)


def next_step(group: Group) -> Step | None:
    """Day 2 round ``k`` while the group has played its Swiss but not all Day 2 rounds;
    the first one's message names the cut (P-D2-1)."""
    day1, day2 = group.swiss_total, group.event.day2_rounds
    if len(group.rounds) >= day1 + day2:
        return None
    k = len(group.rounds) - day1 + 1
    message = (
        gettext_storable(
            "Pair Day 2 round 1 of %(total)s. Day 2 cut: 19+ match points or the top 32."
        )
        if k == 1
        else gettext_storable("Pair Day 2 round %(number)s of %(total)s.")
    ) % {"number": k, "total": day2}
    return Step(StepKind.DAY2, group.number, message, group.last)


def pair(group: Group, step: Step, by: Actor, seed: int) -> list[Round]:
    """Pair Day 2 round ``step.number`` of the group (P-D2-1, R-3): the Day 2 players
    still in, total match points, Day 2 opponents only; an age-modified group stays
    division over record (P-AGE-3). Raises PairingRefused with fewer than two
    players."""
    event, row = group.event, group.row
    qualified = set(day2_qualified(event, row))
    # points and byes over both days, opponents over Day 2 only: one pass
    everything = {
        p.id: p
        for p in swiss_players_for_group(
            event, row, phases=BOTH_DAYS, opponents_in=(Phase.SWISS_DAY2,)
        )
    }
    advancing = [pid for pid in everything if pid in qualified]
    if len(advancing) < 2:
        raise PairingRefused(gettext_storable("Day 2 needs at least two players."))
    players = day2_players(
        advancing,
        {pid: p.match_points for pid, p in everything.items()},
        {pid: p.opponents for pid, p in everything.items()},
        {pid for pid, p in everything.items() if p.had_bye},
        {pid: p.division for pid, p in everything.items()},
    )
    regs = Registration.objects.in_bulk([int(pid) for pid in advancing])
    return [swiss_round(group, step, players, regs, Phase.SWISS_DAY2, by, seed)]


PROCEDURE = Procedure(next_step, pair)
