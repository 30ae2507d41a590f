"""The shapes of a tiebreaker receipt: frozen dataclasses, exact Fractions.

A :class:`Receipt` shows one player how the standings engine counted their tiebreaker
columns: one :class:`RoundLine` per round of their record (an opponent, a bye, a
late-entry loss, or a pod's virtual opponent), each carrying the :class:`Term` it adds to
each column, and one :class:`ColumnReceipt` per column of the ruleset holding the very
terms the engine averaged or added and the engine's own value. :meth:`ColumnReceipt.total`
does the arithmetic again from the terms, so a page (and a test) can show that the
receipt adds up to the standings.

Every value the engine changed on the way — a floor, a cap, a record frozen at a drop, a
bye left out, a virtual opponent — is an :class:`Applied` naming the rule IDs of
docs/rules.md (P-TB-2, P-TB-5, R-2, M-TB-1, R-7, MP-TB-3 …).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction


class Adjustment(StrEnum):
    """What a rule did to a value or a round."""

    FLOOR = "floor"  # raised to the floor (``bound``)
    CAP = "cap"  # lowered to the cap of a dropped player (``bound``)
    FROZEN = "frozen"  # taken as of an earlier round (``round``): a drop
    BYES_LEFT_OUT = "byes-left-out"  # ``count`` byes in neither part of a win % (P-TB-5)
    LEFT_OUT = "left-out"  # a round that adds nothing to a column (a bye, P-TB-5)
    VIRTUAL = "virtual"  # a virtual opponent at the floor (``bound``), MP-TB-3
    DEFAULT = "default"  # nothing to average: the rule's default value (``bound``)
    PLAYOFF = "playoff"  # a single-elimination match counted in the tiebreakers
    DAY2 = "day2"  # Day 2 rounds only, Day 1 not carried (P-D2-2, R-3)


@dataclass(frozen=True, slots=True)
class Applied:
    """One rule that made a counted value or round differ from the plain one.

    rules: the rule IDs (``("P-TB-2",)``, ``("M-TB-1", "R-7")``); bound: the floor, cap or
    default (a Fraction 0–1, or match points); round: as of which round (FROZEN); count:
    how many (BYES_LEFT_OUT).
    """

    adjustment: Adjustment
    rules: tuple[str, ...]
    bound: Fraction | None = None
    round: int | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class Term:
    """One summand of a column as counted: ``raw`` before the rules of ``applied``,
    ``value`` after (a Fraction 0–1 for a percentage, a whole Fraction for a count or
    match points). ``parts``: the numerator and denominator ``raw`` was divided from, as
    the page writes them (``(7, 10)`` for 3 wins and a tie in 5 rounds counted), when it
    is one division."""

    raw: Fraction
    value: Fraction
    applied: tuple[Applied, ...] = ()
    parts: tuple[Fraction, Fraction] | None = None


class Combine(StrEnum):
    """How a column is made of its terms."""

    MEAN = "mean"  # the average of one term per opponent (OWP, OOWP, OMW, OGW, OAMP, OMWP)
    SUM = "sum"  # the sum of the terms (wins against, game wins)
    OWN = "own"  # the player's own figure, one term (GW %, MWP, win %)


@dataclass(frozen=True, slots=True)
class ColumnReceipt:
    """One tiebreaker column of the player's standings line.

    key: the column key (the Standings JSON ``tiebreakers`` key). combine: how the terms
    make the column. terms: the engine's own terms, in the order it summed them.
    value: the engine's value (equal to :meth:`total`). empty: the value without any term
    (no opponent: 0 or the floor). applied: rules applied to the column as a whole
    (frozen at a drop, Day 2 only, playoffs counted, the default without opponents).
    """

    key: str
    combine: Combine
    terms: tuple[Term, ...]
    value: Fraction
    empty: Fraction = Fraction(0)
    applied: tuple[Applied, ...] = ()

    def total(self) -> Fraction:
        """The column done again from the terms: their mean, their sum, or the own term
        (``empty`` without terms). Equal to ``value`` when the receipt adds up."""
        if not self.terms:
            return self.empty
        if self.combine is Combine.MEAN:
            return sum((t.value for t in self.terms), Fraction(0)) / len(self.terms)
        if self.combine is Combine.SUM:
            return sum((t.value for t in self.terms), Fraction(0))
        return self.terms[0].value

    @property
    def sum(self) -> Fraction:
        """The sum of the terms' values (the numerator of a mean)."""
        return sum((t.value for t in self.terms), Fraction(0))


class Result(StrEnum):
    """The player's result in a round, as the tiebreakers count it."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    BYE = "bye"
    NONE = "none"  # a virtual opponent: no match of its own


class LineKind(StrEnum):
    """What a round line is."""

    MATCH = "match"  # a match or pod against real opponents
    BYE = "bye"
    LATE_LOSS = "late-loss"  # the automatic loss of a late entrant (P-LATE-1, I-5)
    VIRTUAL = "virtual"  # a virtual opponent of a smaller pod (MP-TB-3)


@dataclass(frozen=True, slots=True)
class RoundLine:
    """One opponent in one round, or a round without one (a bye, a late-entry loss), or a
    pod's virtual opponent.

    round: the round as the standings call numbered it (Day 2 from 1). opponent: the
    opponent's id, None without one. result: the player's result. games: the game record
    from the player's side (won, lost, drawn) where there is one. record: the opponent's
    record as counted for these terms (W-L-T, byes left out for Pokémon), "" without an
    opponent. as_of: the round the opponent's figures are taken as of. terms: column key
    → this line's term (a column absent here gets nothing from the line). applied: what
    happened to the line as a whole (a bye left out, a playoff match counted, the
    opponent's byes left out).
    """

    round: int
    kind: LineKind
    opponent: str | None
    result: Result
    record: str = ""
    as_of: int = 0
    games: tuple[int, int, int] | None = None
    terms: Mapping[str, Term] = field(default_factory=dict)
    applied: tuple[Applied, ...] = ()


@dataclass(frozen=True, slots=True)
class Receipt:
    """How one player's tiebreaker columns were counted, after round ``rounds``.

    record: the player's own record (W-L-T, byes as wins) over the rounds counted.
    as_of: the round the player's own columns are taken as of (their drop round when
    frozen, R-2; else ``rounds``). own: the player's own percentage as their opponents
    count it (Pokémon win %, Magic match-win %, pod MWP), None where no opponent counts
    one. lines: the rounds in order. columns: the ruleset's columns in order.
    """

    player: str
    rounds: int
    as_of: int
    record: str
    own: Term | None
    lines: tuple[RoundLine, ...]
    columns: tuple[ColumnReceipt, ...]

    def column(self, key: str) -> ColumnReceipt:
        """The column ``key``; raises KeyError naming it when the ruleset has none."""
        for c in self.columns:
            if c.key == key:
                return c
        raise KeyError(f"no column {key!r} in this receipt")


@dataclass(frozen=True, slots=True)
class ColumnChange:
    """A column before and after the last round: ``before`` None when the player had no
    line before (their first round)."""

    key: str
    before: Fraction | None
    now: Fraction

    @property
    def delta(self) -> Fraction | None:
        return None if self.before is None else self.now - self.before


@dataclass(frozen=True, slots=True)
class TermChange:
    """One opponent's term in one column, before and after the last round (an opponent met
    earlier whose record moved, or a new opponent: ``before`` None)."""

    round: int
    opponent: str | None
    key: str
    before: Fraction | None
    now: Fraction


def changes(
    now: Receipt, before: Receipt | None
) -> tuple[tuple[ColumnChange, ...], tuple[TermChange, ...]]:
    """How ``now`` differs from ``before`` (the same player's receipt one round earlier):
    every column's change, and every term that changed or is new, line by line (lines
    are matched by round and opponent). ``before`` None: every column and term is new."""
    columns = tuple(
        ColumnChange(c.key, before.column(c.key).value if before else None, c.value)
        for c in now.columns
    )
    earlier = {_line_key(line): line for line in (before.lines if before else ())}
    terms = [
        TermChange(line.round, line.opponent, key, old, term.value)
        for line in now.lines
        for key, term in line.terms.items()
        if (old := _term_value(earlier.get(_line_key(line)), key)) != term.value
    ]
    return columns, tuple(terms)


def _line_key(line: RoundLine) -> tuple[int, str | None, LineKind]:
    return (line.round, line.opponent, line.kind)


def _term_value(line: RoundLine | None, key: str) -> Fraction | None:
    if line is None or key not in line.terms:
        return None
    return line.terms[key].value


def limit(ids: Iterable[str], only: Iterable[str] | None) -> list[str]:
    """``ids`` restricted to ``only`` (None: every id), in the order of ``ids``."""
    if only is None:
        return list(ids)
    wanted = set(only)
    return [pid for pid in ids if pid in wanted]
