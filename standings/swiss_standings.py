"""Swiss standings of one pairing group by the event's ruleset: the order every other
procedure's standings start from (Day 2 ``day2_standings``, flights ``flight_standings``,
the top cut ``services``) (P-TB, R-1, R-2, R-5, R-8, I-6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesets import Context, Line, get_ruleset
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


@dataclass(frozen=True)
class GroupStandings:
    """Swiss standings of one pairing group: lines in order, and how many Swiss rounds
    they cover; ``registrations`` by id (as a string)."""

    group: PairingGroup
    rounds: int
    rows: tuple[Line, ...]
    registrations: dict[str, Registration]


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
    lines = get_ruleset(event.ruleset).standings(adapters.entrants(regs), matches, ctx)
    return GroupStandings(group, len(complete), tuple(lines), {str(r.pk): r for r in regs})
