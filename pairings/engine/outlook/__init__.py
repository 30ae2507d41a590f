"""The cut-line outlook of one pairing group: after a Swiss round, each player's chance
of making the top cut (and Day 2, P-D2-1), which final records are in, out or depend on
the rest, and what a win next round would change.

Two kinds of answer, never mixed:

* **Proven** (``standings.engine.cutline``): "in" and "out" on match points alone, true
  for any pairing and any result. Only these are shown as "in" / "out".
* **Estimated**: endings of the remaining Swiss rounds simulated with the pairing rules
  of ``swiss.pair_swiss`` in compact form (``_rounds``: score brackets, pair-downs, the
  bye, division over record, rematches avoided in groups of up to 63 players) and the
  event's own state: its byes, its drops so far (nobody else drops), the draw rate seen
  so far, results otherwise even. Each ending is ranked as the standings rank
  (``_ending``): match points, on time before late (P-TB-1), the ruleset's first
  tiebreaker (Pokémon OWP, Magic OMW) and, where the ruleset has it, the second (OOWP);
  a tie still left at the last place is settled by the ruleset's own standings in
  groups of up to :data:`EXACT_FINISH` players (head to head, the last opponent's
  standing, P-TB-4, P-TB-6, and I-6), at random in larger ones. A two-day event still
  in Day 1 plays the Day 2 cut (19 points or the top 32, P-D2-1) and the Day 2 rounds
  with Day 2 tiebreakers (R-3).

At least :data:`SIMULATIONS` endings are played, more for small groups
(:func:`simulations_for`). They are seeded (``seed``) and reproducible: the same group,
plan, seed and count give the same figures. Probabilities are floats 0–1: they are
estimates, not tiebreakers, so no exact arithmetic is owed.

A Swiss of multiplayer pods has its own simulation (``pods``: :func:`pod_outlook`, the
pod pairing engine's rounds played forward, ranked on match points).

Modules: ``model`` (inputs and outputs), ``inputs`` (players from the standings
engine's inputs), ``simulate`` (:func:`outlook`), ``tally`` (what the endings add up to,
beside the proofs), ``pods`` (:func:`pod_outlook`), and the private ``_arrays``,
``_rounds`` and ``_ending`` (the NumPy simulation), ``_pod_rounds``, ``_pod_fill`` and
``_pod_swaps`` (the pod engine's fill and swaps on NumPy arrays), ``_pod_engine`` (the
endings the pod engine pairs itself).
"""

from .inputs import draw_rate, outlook_players
from .model import (
    EXACT_FINISH,
    MEASURES,
    MOST_SIMULATIONS,
    POKEMON,
    SIMULATIONS,
    WORK,
    Chance,
    CutKind,
    CutOutlook,
    GroupOutlook,
    OutlookPlan,
    OutlookPlayer,
    Ranker,
    RecordChance,
    WinMeasure,
    magic,
    measure_for,
    mwp_floor,
    simulations_for,
)
from .pods import PodRules, pod_outlook
from .simulate import outlook
from .tally import record_label

__all__ = [
    "EXACT_FINISH",
    "MEASURES",
    "MOST_SIMULATIONS",
    "POKEMON",
    "SIMULATIONS",
    "WORK",
    "Chance",
    "CutKind",
    "CutOutlook",
    "GroupOutlook",
    "OutlookPlan",
    "OutlookPlayer",
    "PodRules",
    "Ranker",
    "RecordChance",
    "WinMeasure",
    "draw_rate",
    "magic",
    "measure_for",
    "mwp_floor",
    "outlook",
    "outlook_players",
    "pod_outlook",
    "record_label",
    "simulations_for",
]
