"""Age divisions: which Swiss style an event needs, its round basis and its cuts (P-AGE).

``division_for(birth_year, season_end)`` (P-AGE-1, with the one-year shift from the
season ending 2021 that a real TOM file confirms) lives in ``tournaments.formats.tdf``:
the engine needs only the divisions, never birth years. Pairing an age-modified pod is ``pair_swiss(...,
age_modified=True)`` (P-AGE-3, I-4).

Decisions where RULES.md is silent:

* A division with no players does not exist for P-AGE-2: 0 Juniors, 8 Seniors and 30
  Masters is age-separated (every division that has players has at least 6).
* P-AGE-5 "approximately the same percentage": see :func:`division_cuts`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rulesets.i18n import Text, gettext_noop, text

__all__ = [
    "DIVISIONS",
    "AgeMode",
    "AgeStyle",
    "age_mode",
    "division_cuts",
    "round_basis",
]

DIVISIONS = ("junior", "senior", "masters")
OPEN = "open"
MIN_SEPARATED = 6  # P-AGE-2: at least 6 players in every division
_LABEL = {"junior": "Junior", "senior": "Senior", "masters": "Masters", OPEN: "Open"}


class AgeStyle(StrEnum):
    SEPARATED = "age-separated"  # P-AGE-2: one independent Swiss per division
    MODIFIED = "age-modified"  # P-AGE-3: divisions paired together, division over record
    OPEN = "open"  # P-AGE-6: no age divisions


@dataclass(frozen=True, slots=True)
class AgeMode:
    """The Swiss style an event's division counts call for.

    style: see :class:`AgeStyle`. reason: one sentence for the organiser, naming the
    counts and the rule. small_divisions: divisions with 1-5 players (age-modified only).
    """

    style: AgeStyle
    reason: str
    small_divisions: tuple[str, ...] = ()

    @property
    def age_modified(self) -> bool:
        return self.style is AgeStyle.MODIFIED


def age_mode(counts: Mapping[str, int]) -> AgeMode:
    """Age-separated, age-modified or open Swiss for players per division (P-AGE-2,
    P-AGE-3, P-AGE-6).

    counts: division (``junior`` / ``senior`` / ``masters``, or ``open`` alone) → players.
    Every present division with at least 6 players → age-separated; one or more with 1-5
    → age-modified (required); ``open`` → open. Raises ValueError for an unknown division,
    ``open`` mixed with age divisions, a negative count, or no players at all.
    """
    present = _present(counts)
    shown = _counts(present)
    if OPEN in present:
        return AgeMode(
            AgeStyle.OPEN,
            text(gettext_noop("Open event (%(counts)s): one division."), counts=shown),
        )
    small = tuple(d for d, n in present.items() if n < MIN_SEPARATED)
    if not small:
        reason = text(
            gettext_noop(
                "Every division has at least %(least)s players (%(counts)s): age-separated"
                " Swiss, each division is its own tournament."
            ),
            least=MIN_SEPARATED,
            counts=shown,
        )
        return AgeMode(AgeStyle.SEPARATED, reason)
    labels = [text(_LABEL[d]) for d in small]  # translated where shown (the division names)
    if len(small) == 1:
        msgid = gettext_noop(
            "%(divisions)s has only 1-5 players (%(counts)s): age-modified Swiss is required;"
            " players meet their own division first, division over record."
        )
        names: Any = labels[0]
    else:
        msgid = gettext_noop(
            "%(divisions)s have only 1-5 players (%(counts)s): age-modified Swiss is required;"
            " players meet their own division first, division over record."
        )
        names = text(gettext_noop("%(first)s and %(second)s"), first=labels[0], second=labels[1])
        if len(labels) == 3:
            names = text(
                gettext_noop("%(first)s, %(second)s and %(third)s"),
                first=labels[0],
                second=labels[1],
                third=labels[2],
            )
    reason = text(msgid, divisions=names, counts=shown)
    return AgeMode(AgeStyle.MODIFIED, reason, small)


def _counts(present: Mapping[str, int]) -> Text:
    """ "Junior 5, Senior 11, Masters 16" with each division's name translated where it is
    shown (a list: its separators and numbers read the same in every language)."""
    msgid = ", ".join(f"%(division{i})s %(players{i})s" for i in range(len(present)))
    params: dict[str, Any] = {}
    for i, (division, players) in enumerate(present.items()):
        params[f"division{i}"], params[f"players{i}"] = text(_LABEL[division]), players
    return Text(msgid, params)


def _present(counts: Mapping[str, int]) -> dict[str, int]:
    unknown = sorted(set(counts) - {*DIVISIONS, OPEN})
    if unknown:
        raise ValueError(f"Unknown division {unknown[0]!r}; known: junior, senior, masters, open.")
    if any(n < 0 for n in counts.values()):
        raise ValueError("A division cannot have a negative number of players.")
    present = {d: counts[d] for d in (*DIVISIONS, OPEN) if counts.get(d, 0) > 0}
    if not present:
        raise ValueError("No players: the age style needs at least one player.")
    if OPEN in present and len(present) > 1:
        raise ValueError("An open event has no age divisions: 'open' cannot be mixed with them.")
    return present


def round_basis(counts: Mapping[str, int]) -> int:
    """Players that set the Swiss round count of an age-modified event: the largest
    division, not the total (P-AGE-4: 5 Juniors, 11 Seniors, 16 Masters → 16, which the
    2009 table turns into 4 rounds where the 32 players in total would give 5). Read the
    round-count table (``tournaments.round_tables.recommend``) with it. Raises ValueError
    like :func:`age_mode`."""
    return max(_present(counts).values())


def division_cuts(counts: Mapping[str, int], largest_cut: int) -> dict[str, int]:
    """Top cut per division with about the same share of each division (P-AGE-5).

    counts: players per division; largest_cut: the cut of the largest division (read from
    the round-count table with its size), 0 for none. Returns division → cut (0 = no top
    cut; the division's best Swiss player wins it, P-AGE-3).

    Formula (our decision: the rules say only "approximately the same percentage"): the
    share is ``s = largest_cut / largest``. Every other division gets the power of two
    nearest to ``s × players`` *in ratio* (geometric rounding: ``2^k`` when ``2^k/√2 ≤
    s × players < 2^k×√2``), never more than its players; below √2 players it gets none.
    5 Juniors, 11 Seniors, 16 Masters with a top 4 for Masters (25 %): Seniors 2.75 → top
    2, Juniors 1.25 → none. Ties in size take the same cut. Raises ValueError for a cut
    that is not 0 or a power of two ≥ 2, or counts :func:`age_mode` refuses.
    """
    present = _present(counts)
    if largest_cut and (largest_cut < 2 or largest_cut & (largest_cut - 1)):
        raise ValueError(f"A top cut is a power of two (2, 4, 8, …) or 0, got {largest_cut}.")
    largest = max(present.values())
    share = Fraction(largest_cut, largest)
    return {d: _nearest_power(share * n, n) for d, n in present.items()}


def _nearest_power(target: Fraction, players: int) -> int:
    """The power of two nearest ``target`` in ratio, at most ``players``; 0 below √2."""
    if target * target < 2:
        return 0
    power = 1
    while (2 * power) <= target:
        power *= 2
    if target * target >= 2 * power * power:  # target ≥ power × √2: round up
        power *= 2
    while power > players:
        power //= 2
    return power if power >= 2 else 0
