"""Age divisions: which Swiss style an event needs, its round basis and its cuts (P-AGE).

``division_for(birth_year, season_end)`` (P-AGE-1, with the one-year shift from the
season ending 2021 that a real TOM file confirms) lives in ``interchange.formats.tdf``:
the engine needs only the divisions, never birth years. Pairing an age-modified pod is ``pair_swiss(...,
age_modified=True)`` (P-AGE-3, I-4).

Decisions where docs/rules.md is silent:

* A division with no players does not exist for P-AGE-2: 0 Juniors, 8 Seniors and 30
  Masters is age-separated (every division that has players has at least 6).
* P-AGE-5 "approximately the same percentage": see :func:`division_cuts`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rulesets.i18n import Text, gettext_noop, text

__all__ = [
    "DIVISIONS",
    "AgeMode",
    "AgeStructure",
    "AgeStyle",
    "GroupStructure",
    "age_mode",
    "age_structure",
    "division_cuts",
    "pairing_groups",
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


def pairing_groups(mode: AgeMode, counts: Mapping[str, int]) -> list[list[str]]:
    """The Swiss pairing groups of ``counts`` (division → players) in ``mode``: each
    division alone (age-separated, open); age-modified: Junior and Senior share one group
    (R-5), Masters joins it when Masters has 1-5 players, when the shared group would
    otherwise hold one small division alone, or when there is no Junior or Senior
    (P-AGE-3)."""
    present = [d for d in (*DIVISIONS, OPEN) if counts.get(d)]
    if mode.style is not AgeStyle.MODIFIED:
        return [[d] for d in present]
    shared = [d for d in ("junior", "senior") if d in present]
    alone_small = len(shared) == 1 and shared[0] in mode.small_divisions
    if "masters" in present and ("masters" in mode.small_divisions or alone_small or not shared):
        return [[*shared, "masters"]]
    return [shared] + ([["masters"]] if "masters" in present else [])


@dataclass(frozen=True, slots=True)
class GroupStructure:
    """One pairing group's structure: its divisions' players, the players the round
    table is read with (its largest division, P-AGE-4), its Swiss rounds, each division's
    top cut (P-AGE-5) and the table's row (a ``rulesets.tables.Recommendation``)."""

    counts: dict[str, int]
    basis: int
    rounds: int
    cuts: dict[str, int]
    recommendation: Any

    @property
    def key(self) -> str:
        """The group's key: its divisions joined by ``+`` (``junior+senior``)."""
        return "+".join(self.counts)


@dataclass(frozen=True, slots=True)
class AgeStructure:
    """The structure of an event's divisions: the age mode and one GroupStructure per
    pairing group (:func:`age_structure`)."""

    mode: AgeMode
    groups: tuple[GroupStructure, ...]

    def division(self, code: str) -> tuple[int, int]:
        """``(Swiss rounds, top cut)`` of division ``code``; KeyError for a division
        without players."""
        for group in self.groups:
            if code in group.counts:
                return group.rounds, group.cuts[code]
        raise KeyError(code)


def age_structure(
    counts: Mapping[str, int],
    recommend: Callable[[int], Any],
    *,
    rounds: int | None = None,
    top_cut: int | None = None,
    cuts: bool = True,
    fallback_rounds: int = 0,
) -> AgeStructure:
    """Swiss rounds and top cut of every division: the one source of truth of closing
    check-in (``pairings.checkin_services.age_plan``), the planner
    (``pairings.engine.planner.plan``) and the staff pages.

    counts: players per division (``junior`` / ``senior`` / ``masters``, or ``open``);
    recommend: ``players → Recommendation`` (the event's round table, P-RT-1 … P-RT-7).
    Each pairing group (:func:`pairing_groups`) reads the table with its largest division
    (P-AGE-4); its rounds are ``rounds`` (the organiser's choice, S-3), else the table's,
    else ``fallback_rounds`` (a row without Swiss rounds in a Swiss event). Cuts
    (P-AGE-5, :func:`division_cuts`): age-separated divisions each read the table with
    their own players (P-AGE-2: independent tournaments); age-modified divisions share
    the share of the largest division's cut. ``top_cut``: the organiser's cut of the
    largest division instead of the table's; ``cuts=False``: a Swiss-only event, no cut.
    A single division keeps a cut that is not a power of two (pods, MP-SE-1).

    Junior 6, Senior 8, Masters 16 (Pokémon, P-RT-1): age-separated, 3 rounds no cut /
    3 rounds no cut / 5 rounds top 4. Junior 5, Senior 8, Masters 17: age-modified,
    Masters top 4 (4/17) → Seniors top 2, Juniors none. Raises ValueError like
    :func:`age_mode`, or for a ``top_cut`` that is not 0 or a power of two with several
    divisions.
    """
    mode = age_mode(counts)
    present = _present(counts)

    def cut_of(players: int) -> int:
        if not cuts:
            return 0
        return recommend(players).cut if top_cut is None else top_cut

    groups = []
    for codes in pairing_groups(mode, present):
        pod = {c: present[c] for c in codes}
        basis = round_basis(pod)
        rec = recommend(basis)
        largest = cut_of(basis)
        if len(pod) == 1 and largest & (largest - 1):  # a pod cut (MP-SE-1): as it is
            group_cuts = dict.fromkeys(pod, largest)
        else:
            group_cuts = division_cuts(pod, largest)
        planned = rounds or rec.rounds or fallback_rounds
        groups.append(GroupStructure(pod, basis, planned, group_cuts, rec))
    if mode.age_modified:  # P-AGE-5: about the same share of every division
        shared = division_cuts(present, cut_of(max(present.values())))
        groups = [
            GroupStructure(g.counts, g.basis, g.rounds, {d: shared[d] for d in g.counts},
                           g.recommendation)
            for g in groups
        ]  # fmt: skip
    return AgeStructure(mode, tuple(groups))
