"""Which procedures a pairing group plays, in order: the one place the procedure flags of
an event (structure, multiplayer pods, Day 2, flights, top cut) are read.

A pairing group (:class:`~tournaments.models.PairingGroup`: its divisions, flight, phase
and parent) plays a list of stages. The pairing layer keeps one module per stage
(``pairings.procedures``, found in its ``PROCEDURES`` table) that says what the stage
needs next and pairs it; the standings layer keeps the stage's ordering (``standings``:
``group_standings`` applies Day 2's order when the group plays Day 2, and a standalone
bracket's places). Both read the stages here, so adding a procedure is a line in
:func:`group_stages`, a module and a table entry in ``pairings.procedures``, and its
ordering in ``standings``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from .models import PairingGroup, Structure
from .multiplayer import uses_pods


class Stage(StrEnum):
    """One procedure of a pairing group, with the rules it follows."""

    SWISS = "swiss"  # P-SW; age-modified when the group spans divisions (P-AGE-3, R-5)
    DAY2 = "day2"  # a two-day event's Day 2 Swiss (P-D2, R-3)
    FLIGHTS = "flights"  # a flight waits for the others; the cut is merged (P-FL-5)
    TOP_CUT = "top-cut"  # the cut from the Swiss (P-TC-1; MTG draft playoff, M-SE-1)
    BRACKET = "bracket"  # a top-cut group's later rounds, 3rd/4th playoff (P-TC, P-SE-6)
    SINGLE_ELIMINATION = "single-elimination"  # a standalone bracket (P-SE)
    POD_SWISS = "pod-swiss"  # Swiss rounds of multiplayer pods (MP-POD, MP-PAIR)
    POD_CUT = "pod-cut"  # the multiplayer top cut from the Swiss (MP-SE-1, I-3)
    POD_BRACKET = "pod-bracket"  # a multiplayer cut group's later rounds (MP-SE-2)


def standalone_bracket(event: Any) -> bool:
    """True for an event that is one single-elimination bracket per division, no Swiss
    (structure ``single-elimination``, P-SE): its standings are the bracket's places."""
    return bool(event.structure == Structure.SINGLE_ELIMINATION)


def plans_ages_at_checkin(event: Any) -> bool:
    """Closing check-in plans the age divisions' groups, rounds and cuts (P-AGE-2 …
    P-AGE-6): a Swiss event of head-to-head matches; not a standalone bracket (P-SE), not
    multiplayer pods (no age divisions; P-RT-6 cuts are not powers of 2)."""
    return not standalone_bracket(event) and not uses_pods(event)


def flights_possible(event: Any) -> bool:
    """A division of ``event`` may be flighted (P-FL-1): the ruleset plays flights and
    the event is Swiss with a top cut, which the flights' merged cut needs (P-FL-5)."""
    return bool(event.rules.features.flights) and event.structure == Structure.SWISS_TOP_CUT


def pairs_round_again_whole(event: Any, group: PairingGroup) -> bool:
    """A corrected Swiss round of ``group`` is paired again whole (multiplayer pods are
    filled top to bottom by standing, MP-PAIR-1), not repaired table by table (P-SW-9)."""
    return Stage.POD_SWISS in group_stages(event, group)


def group_stages(event: Any, group: PairingGroup) -> tuple[Stage, ...]:
    """The stages of pairing group ``group`` of ``event``, in the order they are played.

    ``event``: an Event (its ``ruleset``, ``structure``, ``day2_rounds``); ``group``: the
    group (its ``phase`` and ``flight``). A multiplayer event plays pod Swiss then the pod cut (MP-SE-1); a
    standalone bracket only its bracket (P-SE); a top-cut group only its bracket
    (P-TC); any other group Swiss, then Day 2 when announced (P-D2-1), then — for a flight —
    waits for the other flights (P-FL-5), then the top cut of its divisions that have one.
    Reads no database row.
    """
    if uses_pods(event):
        return (Stage.POD_BRACKET,) if group.is_cut else (Stage.POD_SWISS, Stage.POD_CUT)
    if standalone_bracket(event):
        return (Stage.SINGLE_ELIMINATION,)
    if group.is_cut:
        return (Stage.BRACKET,)
    stages = [Stage.SWISS]
    if event.day2_rounds:
        stages.append(Stage.DAY2)
    if group.flight is not None:
        stages.append(Stage.FLIGHTS)
    stages.append(Stage.TOP_CUT)
    return tuple(stages)
