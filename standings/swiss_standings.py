"""Swiss standings of one pairing group by the event's ruleset: the order every other
procedure's standings start from (Day 2 ``day2_standings``, flights ``flight_standings``,
the top cut ``services``) (P-TB, R-1, R-2, R-5, R-8, I-6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesets import Context, Line, Ruleset, get_ruleset
from tournaments.groups import in_group
from tournaments.models import (
    Event,
    GroupPhase,
    PairingGroup,
    Phase,
    Registration,
    Round,
    RoundStatus,
)
from tournaments.selectors.names import registration_twin

from . import adapters
from .engine.drops import drops_below_active
from .engine.types import Entrant, MatchRecord


@dataclass(frozen=True)
class Source:
    """The inputs of one ruleset standings call, kept so the tiebreaker receipts are
    counted from exactly what the standings counted (
    ``standings.receipts``). ``offset``: the event rounds before the call's round 1 (Day 2:
    the Day 1 rounds); ``day2``: the call counts the Day 2 rounds only (P-D2-2, R-3)."""

    entrants: Sequence[Entrant]
    matches: Sequence[MatchRecord]
    context: Context
    offset: int = 0
    day2: bool = False

    def lines(self, ruleset: Ruleset) -> list[Line]:
        """The ruleset's standings lines of these inputs, best first."""
        return ruleset.standings(self.entrants, self.matches, self.context)


@dataclass(frozen=True)
class GroupStandings:
    """Swiss standings of one pairing group: lines in order, and how many Swiss rounds
    they cover; ``registrations`` by id (as a string). ``sources``: by player id, the
    standings calls their line came from, the one whose tiebreakers it shows last (Day 1
    then Day 2 for a Day 2 player; their flight's for a flighted division)."""

    group: PairingGroup
    rounds: int
    rows: tuple[Line, ...]
    registrations: dict[str, Registration]
    sources: Mapping[str, tuple[Source, ...]] = field(default_factory=dict)


def _complete_swiss_rounds(group: PairingGroup) -> list[Round]:
    rounds = group.rounds.filter(phase=Phase.SWISS, status=RoundStatus.COMPLETE)
    return list(rounds.order_by("number"))


def _group_playoffs(event: Event, group: PairingGroup) -> list[Any]:
    """The top-cut matches of the group's divisions (R-8 counts them when asked to)."""
    if not event.options.get("playoffs_in_tiebreakers"):
        return []
    cuts = event.groups.filter(phase=GroupPhase.TOP_CUT, divisions__groups=group).distinct()
    return [m for cut in cuts for m in adapters.match_records(cut, phases=(Phase.TOP_CUT,))]


def swiss_standings(event: Event, group: PairingGroup, *, lean: bool = False) -> GroupStandings:
    """Swiss standings of ``group`` after its last complete (Day 1) Swiss round, by the
    event's ruleset strategy (pokemon: P-TB-1…7, R-1, R-2, R-5). Ties left after every
    tiebreaker are ordered from the last round's stored seed (I-6). Day 2 and flights are
    applied on top by ``standings.services.group_standings``. ``lean``: the registrations
    carry only what the order needs (late, dropped, disqualified; no names or divisions),
    for callers that only read the order, such as the Day 2 cut."""
    rows = Registration.objects.filter(in_group(group), event=event)
    if lean:
        regs = list(rows.only("pk", "late", "dropped_after_round", "disqualified"))
    else:
        regs = list(
            rows.select_related("player", "division").annotate(
                **registration_twin(event.pk)  # same names told apart on the pages
            )
        )
    complete = _complete_swiss_rounds(group)
    matches = [m for m in adapters.match_records(group) if m.round <= len(complete)]
    ctx = Context(
        rounds=len(complete),
        seed=complete[-1].seed if complete else 0,
        options=event.options,
        playoff_matches=_group_playoffs(event, group),
    )
    source = Source(adapters.entrants(regs), matches, ctx)
    lines = source.lines(get_ruleset(event.ruleset))
    by_id = {str(r.pk): r for r in regs}
    return GroupStandings(
        group,
        len(complete),
        dropped_below(event, lines, by_id, len(complete)),
        by_id,
        dict.fromkeys(by_id, (source,)),
    )


def dropped_below(
    event: Event, lines: Sequence[Line], registrations: Mapping[str, Registration], rounds: int
) -> tuple[Line, ...]:
    """``lines`` (best first) with the event option ``drops_below_active`` applied (issue
    24, item 4; ``standings.engine.drops``): players who had dropped by round ``rounds``
    below the active players with the same match points. Unchanged when the option is
    off (the default). ``registrations``: by id as a string, every line's player."""
    if not event.options.get("drops_below_active"):
        return tuple(lines)

    def dropped(line: Line) -> bool:
        after = registrations[line.player].dropped_after_round
        return after is not None and after <= rounds

    return tuple(drops_below_active(lines, points=lambda line: line.match_points, dropped=dropped))
