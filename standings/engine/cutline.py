"""Who is already in a cut, who cannot make it, and which final records depend on the
other results and tiebreakers: proven on match points alone.

A *cut* takes ``places`` players of one division (a top cut, P-TC-1; a flight's share of
it, P-FL-5; Day 2's top 32, P-D2-1) and, for Day 2, everyone with at least ``qualify``
match points as well. Players who dropped or were disqualified take no place (they are
passed over, as the cut itself does).

The verdicts are proofs, never estimates: a player is **in** when, even losing every
remaining round, fewer players than ``places`` could finish with as many match points
(players level on points count as ahead: ties go to tiebreakers); **out** when, even
winning every remaining round, at least ``places`` players already hold more match
points than that (match points never go down). Everyone else is **open** (their chance
is estimated by ``pairings.engine.outlook``). For a final record the same reading gives
**in** (at most ``places`` players can finish with that many points or more), **out**
(``places`` players already have more) or **depends** (on other results and
tiebreakers).

"Could finish with as many points" is bounded in two ways, both sound whatever the
pairings: each player gains at most ``points_win`` a round, and the whole pairing group
hands out at most ``max(points_win, 2 × points_tie)`` points per match and
``points_win`` per bye each round, so the players who need points to catch up cannot
all do so when their needs add up to more than that. The pairing rules (who meets whom)
are not used: a proof must hold for any pairing the organiser may make. Further drops
are not foreseen: "out" means out unless players ahead of you drop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class Verdict(StrEnum):
    """What match points alone prove about a player or a final record."""

    IN = "in"  # certain to make the cut
    OUT = "out"  # cannot make it (unless players ahead drop)
    OPEN = "open"  # a player whose fate is not decided yet
    DEPENDS = "depends"  # a final record that makes it in some endings and not in others


@dataclass(frozen=True, slots=True)
class Contender:
    """One player of the division as the proof sees them.

    match_points: points so far (both days in Day 2). rounds_left: Swiss rounds the
    player will still play (0 once dropped). eligible: may take a place (False for a
    dropped or disqualified player, who still counts for nothing here).
    """

    id: str
    match_points: int
    rounds_left: int
    eligible: bool = True


@dataclass(frozen=True, slots=True)
class Field:
    """The pairing group the remaining rounds are played in.

    points_win / points_tie: the ruleset's match points (a bye scores a win). active:
    players paired each round. rounds_left: Swiss rounds left to play.
    """

    points_win: int
    points_tie: int
    active: int
    rounds_left: int

    def capacity(self) -> int:
        """The most match points the remaining rounds can hand out to everyone together."""
        per_match = max(self.points_win, 2 * self.points_tie)
        per_round = per_match * (self.active // 2) + self.points_win * (self.active % 2)
        return per_round * self.rounds_left


@dataclass(frozen=True, slots=True)
class Cut:
    """A cut of one division: the best ``places`` eligible players, plus (Day 2, P-D2-1)
    everyone with at least ``qualify`` match points when that is more."""

    places: int
    qualify: int | None = None


def most_reaching(points: int, others: Sequence[Contender], field: Field) -> int:
    """The most players of ``others`` (eligible ones) that could finish with ``points``
    match points or more: those already there, then those needing the fewest points
    while the group's capacity lasts (module notes)."""
    already = 0
    needs: list[int] = []
    for c in others:
        if not c.eligible:
            continue
        need = points - c.match_points
        if need <= 0:
            already += 1
        elif need <= field.points_win * c.rounds_left:
            needs.append(need)
    budget = field.capacity()
    reached = 0
    for need in sorted(needs):
        if need > budget:
            break
        budget -= need
        reached += 1
    return already + reached


def surely_above(points: int, others: Sequence[Contender]) -> int:
    """Eligible players of ``others`` who already hold more than ``points`` match points
    (they finish above anyone who ends with ``points``)."""
    return sum(1 for c in others if c.eligible and c.match_points > points)


def player_verdict(
    player: Contender, others: Sequence[Contender], cut: Cut, field: Field
) -> Verdict:
    """IN, OUT or OPEN for ``player`` (module notes); ``others``: the rest of the
    division. A player who cannot take a place is OUT. Implements P-TC-1, P-D2-1 (as
    bounds on match points)."""
    if not player.eligible:
        return Verdict.OUT
    worst = player.match_points
    best = worst + field.points_win * player.rounds_left
    if cut.qualify is not None and worst >= cut.qualify:
        return Verdict.IN
    if most_reaching(worst, others, field) < cut.places:
        return Verdict.IN
    if (cut.qualify is None or best < cut.qualify) and surely_above(best, others) >= cut.places:
        return Verdict.OUT
    return Verdict.OPEN


def record_verdict(points: int, players: Sequence[Contender], cut: Cut, field: Field) -> Verdict:
    """IN, OUT or DEPENDS for a player of the division who finishes with ``points``
    (``players``: the whole division): IN when at most ``cut.places`` players can finish
    with that many points or more, OUT when ``cut.places`` players already have more."""
    if cut.qualify is not None and points >= cut.qualify:
        return Verdict.IN
    if most_reaching(points, players, field) <= cut.places:
        return Verdict.IN
    if surely_above(points, players) >= cut.places:
        return Verdict.OUT
    return Verdict.DEPENDS
