"""Swiss standings of one pairing group by the event's ruleset: the order every other
procedure's standings start from (Day 2 ``day2_standings``, flights ``flight_standings``,
the top cut ``services``) (P-TB, R-1, R-2, R-5, R-8, I-6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesets import Context, Line, get_ruleset
from tournaments.models import Event, Phase, Registration, Round, RoundStatus
from tournaments.pods import cut_pod_name, in_pod
from tournaments.selectors.names import registration_twin

from . import adapters


@dataclass(frozen=True)
class PodStandings:
    """Swiss standings of one pod: lines in order, and how many Swiss rounds they cover."""

    pod: str
    rounds: int
    rows: tuple[Line, ...]
    registrations: dict[str, Registration]


def _complete_swiss_rounds(event: Event, pod: str) -> list[Round]:
    rounds = event.rounds.filter(pod=pod, phase=Phase.SWISS, status=RoundStatus.COMPLETE)
    return list(rounds.order_by("number"))


def _pod_playoffs(event: Event, pod: str) -> list[Any]:
    """The top-cut matches of the pod's divisions (R-8 counts them when asked to)."""
    if not event.options.get("playoffs_in_tiebreakers"):
        return []
    codes = event.divisions.filter(pod=pod).values_list("code", flat=True)
    return [
        m
        for code in codes
        for m in adapters.match_records(event, cut_pod_name(code), phases=(Phase.TOP_CUT,))
    ]


def swiss_standings(event: Event, pod: str, *, lean: bool = False) -> PodStandings:
    """Swiss standings of ``pod`` after its last complete (Day 1) Swiss round, by the
    event's ruleset strategy (pokemon: P-TB-1…7, R-1, R-2, R-5). Ties left after every
    tiebreaker are ordered from the last round's stored seed (I-6). Day 2 and flights are
    applied on top by ``standings.services.pod_standings``. ``lean``: the registrations
    carry only what the order needs (late, dropped, disqualified; no names or divisions),
    for callers that only read the order, such as the Day 2 cut."""
    rows = Registration.objects.filter(in_pod(pod), event=event)
    if lean:
        regs = list(rows.only("pk", "late", "dropped_after_round", "disqualified"))
    else:
        regs = list(
            rows.select_related("player", "division").annotate(
                **registration_twin(event.pk)  # same names told apart on the pages
            )
        )
    complete = _complete_swiss_rounds(event, pod)
    matches = [m for m in adapters.match_records(event, pod) if m.round <= len(complete)]
    ctx = Context(
        rounds=len(complete),
        seed=complete[-1].seed if complete else 0,
        options=event.options,
        playoff_matches=_pod_playoffs(event, pod),
    )
    lines = get_ruleset(event.ruleset).standings(adapters.entrants(regs), matches, ctx)
    return PodStandings(pod, len(complete), tuple(lines), {str(r.pk): r for r in regs})
