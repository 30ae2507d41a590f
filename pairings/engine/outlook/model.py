"""The cut-line outlook's inputs and outputs: frozen dataclasses, the win measures a
ruleset's tiebreakers average, and how many endings to simulate."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from standings.engine.cutline import Verdict
from standings.engine.types import MatchRecord

#: The fewest simulated endings of any group: 800 players take about 1.6 s (bench/outlook.py).
SIMULATIONS = 10_000


#: Smaller groups play more endings for the same work (players × endings ≈ this), up to
#: :data:`MOST_SIMULATIONS`: an 8-player estimate's standard error falls from 0.5 to
#: 0.22 percentage points, where a tiebreaker often decides.
WORK = 4_000_000


MOST_SIMULATIONS = 50_000


#: Groups up to this size rank an ending still level at the last place after the
#: simulated tiebreakers with the ruleset's own standings (``OutlookPlan.rank``).
EXACT_FINISH = 64


#: (the simulated matches of one ending, a seed for the I-6 draw) → every player id
#: in the ruleset's standings order, the matches played before included.
Ranker = Callable[[Sequence[MatchRecord], int], Sequence[str]]


class CutKind(StrEnum):
    """Which cut an outlook is about."""

    TOP_CUT = "top-cut"  # P-TC-1 (a flight's share: P-FL-5)
    DAY2 = "day2"  # P-D2-1


@dataclass(frozen=True, slots=True)
class OutlookPlayer:
    """One player of the pairing group.

    match_points: so far (both days in Day 2). score / counted: the numerator and
    denominator of the player's own win measure over the tiebreaker phase (Day 2 only
    once in Day 2, R-3), as :class:`WinMeasure` counts them (Pokémon: 2·wins + ties over
    twice the rounds counted, byes left out). active: still playing (False once dropped or
    disqualified: they play no more and take no place). late: tardy (P-TB-1). had_bye:
    P-SW-5. opponents: ids met in the tiebreaker phase, one per match, byes left out.
    first_tiebreaker: for a player no longer active, their first tiebreaker as the
    standings froze it (R-2), 0–1; None otherwise.
    """

    id: str
    division: str = "open"
    match_points: int = 0
    score: int = 0
    counted: int = 0
    active: bool = True
    late: bool = False
    had_bye: bool = False
    opponents: tuple[str, ...] = ()
    first_tiebreaker: float | None = None


@dataclass(frozen=True, slots=True)
class WinMeasure:
    """A ruleset's own win measure and the tiebreakers averaged from it.

    win / tie / loss / bye: what one result adds to (numerator, denominator); the
    measure is numerator ÷ denominator (each at most 127 and 255 over the event). floor:
    every value's minimum; cap: the maximum of a player who dropped (R-2). empty: the
    first tiebreaker of a player without opponents. second: the second tiebreaker is the
    opponents' mean of the first (OOWP, P-TB-3).
    """

    win: tuple[int, int]
    tie: tuple[int, int]
    loss: tuple[int, int]
    bye: tuple[int, int]
    floor: float
    cap: float = 1.0
    empty: float = 0.0
    second: bool = False


#: P-TB-2, P-TB-3, R-1, R-2: (wins + ½ ties) ÷ rounds counted, byes out, ¼ … ¾
#: (counted in halves: 2 per win, 1 per tie, over 2 per round).
POKEMON = WinMeasure(
    win=(2, 2), tie=(1, 2), loss=(0, 2), bye=(0, 0), floor=0.25, cap=0.75, second=True
)


def magic(floor: float) -> WinMeasure:
    """M-TB-1, M-TB-3: match points ÷ (3 × rounds played, byes included), floored."""
    return WinMeasure(win=(3, 3), tie=(1, 3), loss=(0, 3), bye=(3, 3), floor=floor, empty=floor)


#: The first tiebreaker column a ruleset ranks by → its measure (options → measure).
#: Rulesets whose first column is not here are ranked at random after match points.
MEASURES: dict[str, Callable[[Mapping[str, Any]], WinMeasure]] = {
    "owp": lambda options: POKEMON,
    "omw": lambda options: magic(mwp_floor(options)),
}


def mwp_floor(options: Mapping[str, Any]) -> float:
    """The MW% floor of a Magic event (R-7): 0.33, or 1/3 when the option says so."""
    return 1 / 3 if str(options.get("mwp_floor", "0.33")) == "1/3" else 0.33


UNRANKED = WinMeasure(win=(0, 0), tie=(0, 0), loss=(0, 0), bye=(0, 0), floor=0.0)


def measure_for(columns: Sequence[str], options: Mapping[str, Any]) -> WinMeasure | None:
    """The :class:`WinMeasure` of a ruleset whose tiebreaker columns are ``columns``
    (keys, in order), or None when its first tiebreaker is not simulated."""
    make = MEASURES.get(columns[0]) if columns else None
    return make(options) if make else None


@dataclass(frozen=True)
class OutlookPlan:
    """What is left of the group's Swiss and what is cut.

    rounds_left: Swiss rounds still to play in the current phase. cuts: top-cut places
    per division (0 or absent: no cut; a flight's share for a flight, P-FL-5).
    day2_rounds: Day 2 rounds still to come after this phase (a two-day event in Day 1;
    the Day 2 cut, P-D2-1, is then simulated too), else 0. points_win / points_tie: the
    ruleset's match points. draw_rate: share of matches drawn so far, 0–1.
    age_modified: the group pairs several divisions, division over record (P-AGE-3).
    rounds_total: Swiss rounds a player has played when the current phase ends (record
    labels); day2_total: both days, for the top cut after Day 2. played: the rounds
    played so far in the tiebreaker phase (simulated rounds are numbered after them).
    rank: the ruleset's own standings (:data:`Ranker`), for groups of up to
    :data:`EXACT_FINISH` players whose ending is still level at the last place after
    the simulated tiebreakers (head to head, last opponent, P-TB-4, P-TB-6); None: at
    random.
    """

    rounds_left: int
    cuts: Mapping[str, int]
    day2_rounds: int = 0
    points_win: int = 3
    points_tie: int = 1
    draw_rate: float = 0.0
    age_modified: bool = False
    measure: WinMeasure | None = POKEMON
    rounds_total: int = 0
    day2_total: int = 0
    played: int = 0
    rank: Ranker | None = None


@dataclass(frozen=True, slots=True)
class Chance:
    """One player's outlook for one cut.

    verdict: IN / OUT when proven, else OPEN. share: simulated endings in which they
    made it, 0–1. if_win / if_loss: the same among the endings where they win (a bye
    counts) / lose the next round; None when no such ending was simulated.
    if_win_verdict: IN when a win next round proves it, else OPEN.
    """

    verdict: Verdict
    share: float
    if_win: float | None = None
    if_loss: float | None = None
    if_win_verdict: Verdict = Verdict.OPEN


@dataclass(frozen=True, slots=True)
class RecordChance:
    """A final number of match points in one cut's division.

    record: the usual record for them (``"6-2-1"``: most wins, then ties). verdict: IN,
    OUT or DEPENDS (proven, ``cutline.record_verdict``). finishes: players finishing
    with them per simulated ending, on average. share: of those, the part that made the
    cut (None when nobody finished with them).
    """

    points: int
    record: str
    verdict: Verdict
    finishes: float
    share: float | None


@dataclass(frozen=True)
class CutOutlook:
    """The outlook of one cut: a division's top cut, or a group's Day 2 (``division``
    None: every division of the group)."""

    kind: CutKind
    division: str | None
    places: int
    qualify: int | None
    records: tuple[RecordChance, ...]
    players: Mapping[str, Chance]


@dataclass(frozen=True)
class GroupOutlook:
    """Every cut's outlook for the group, with the simulation's parameters."""

    cuts: tuple[CutOutlook, ...]
    simulations: int
    seed: int
    rounds_left: int
    draw_rate: float


def simulations_for(players: int) -> int:
    """How many endings to simulate for a group of ``players``: at least
    :data:`SIMULATIONS`, more for small groups (:data:`WORK`, :data:`MOST_SIMULATIONS`)."""
    by_work = WORK // max(players, 1) // 1_000 * 1_000  # a round number of endings
    return max(SIMULATIONS, min(MOST_SIMULATIONS, by_work))
