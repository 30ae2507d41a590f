"""Recommended Swiss rounds and top cuts by number of players (P-RT-1 … P-RT-7, S-3).

Pure data and functions (no Django): every table of docs/rules.md section 7 as rows, and
:func:`recommend` to read one. The organiser may accept the recommendation or choose
within ``allowed_rounds`` / ``allowed_cuts`` (S-3). Tables are read per age division
(per pod for age-modified events: the largest division, P-AGE-4).

Decisions where the rules are silent:

* Pokémon 2019 tables start with a row "8": fewer players (2-7) use it too, with a note.
* A table whose last row is closed (2009 Swiss 129-256, 2009 Swiss plus SE 512, seed 002
  257-512) grows by one Swiss round per doubling beyond it and keeps its last cut; the
  recommendation says so in ``notes``. Other tables refuse fewer players than their
  first row (ValueError).
* S-3 "one less Swiss round" applies to every Pokémon 2019 table (Day 1 rounds for two-day
  events). The 2009 Swiss plus SE table lists its own choices ("5 or 6"); we recommend the
  larger, and the largest allowed cut.
* P-RT-4 cuts: at most 25 % of the division, 12.5 % from 256 players on ("large events"):
  the only threshold that reproduces every row of seed 000 §3.3.5 (129-255 keep top 32,
  256 does not get top 64). Beyond 512 the same rule makes the cuts.
* P-RT-6 lists 512 in two rows: 512 is 8 rounds, top 40; 513+ is 9, top 64.
* MTG lists "4 (Team/2HG only) → 2 single-elimination rounds" (seed 004); kept as a row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from .i18n import Text, gettext_noop, text

#: Multiplayer top cut → single-elimination rounds of pods down to the final (MP-SE-1).
POD_CUT_ROUNDS = {4: 1, 7: 2, 10: 2, 13: 2, 16: 2, 40: 3, 64: 3}
POD_SIZE = 4
DAY2_NOTE = text(  # P-D2-1, in plain words for staff
    gettext_noop(
        "Day 2: every player with at least 19 match points, or the top 32, whichever is the "
        "larger group."
    )
)


@dataclass(frozen=True, slots=True)
class Row:
    """Players ``low``..``high`` (``None``: and more) → Swiss rounds and cut (0 = none).

    rounds: Swiss rounds (Day 1 of a two-day event); 0 when the row is single elimination
    only, then ``elimination_rounds`` says how many. allowed_rounds / allowed_cuts: the
    choices a table lists itself (2009: "5 or 6", "Top 8, 4 or 2").
    """

    low: int
    high: int | None
    rounds: int
    cut: int = 0
    day2_rounds: int = 0
    elimination_rounds: int = 0
    allowed_rounds: tuple[int, ...] = ()
    allowed_cuts: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"


@dataclass(frozen=True, slots=True)
class RoundTable:
    """One round-count table: id, the rule it implements, and its rows in order.

    one_less_round: S-3 (Pokémon 2019). counting: ``players``; ``awarded-byes`` (P-RT-5);
    ``small-pods`` (P-RT-6). first_row_covers_fewer: the first row also serves smaller
    events. single_elimination: rounds = ceil(log2 N), no rows (P-RT-4 §3.2.2).
    """

    id: str
    rule: str
    label: str
    rows: tuple[Row, ...]
    one_less_round: bool = False
    counting: str = "players"
    first_row_covers_fewer: bool = False
    single_elimination: bool = False
    multiplayer: bool = False


@dataclass(frozen=True, slots=True)
class Recommendation:
    """What a table recommends for an event (or one age division).

    rounds: Swiss rounds (Day 1 of a two-day event); 0 = no Swiss, single elimination only.
    cut: top cut size, 0 = none. day2_rounds: Swiss rounds on Day 2 (P-D2-1), else 0.
    allowed_rounds / allowed_cuts: what the organiser may choose instead (S-3, P-RT-4).
    elimination_rounds: single-elimination rounds (standalone, or of the top cut).
    counted_players: the number the table was read with (awarded byes, invisible players).
    row / rule / notes: which row of which rule, and any decision applied.
    """

    rounds: int
    cut: int
    day2_rounds: int = 0
    allowed_rounds: tuple[int, ...] = ()
    allowed_cuts: tuple[int, ...] = ()
    elimination_rounds: int = 0
    counted_players: int = 0
    row: str = ""
    rule: str = ""
    notes: tuple[str, ...] = ()

    @property
    def structure(self) -> str:
        """The S-1 structure the recommendation stands for: ``single-elimination`` when
        the row has no Swiss rounds (P-RT-5 5–8, P-RT-6 4–5), else Swiss with or without
        a top cut."""
        if not self.rounds:
            return "single-elimination"
        return "swiss-top-cut" if self.cut else "swiss"


def _rows(*specs: tuple[int, int | None, int, int]) -> tuple[Row, ...]:
    return tuple(Row(low, high, rounds, cut) for low, high, rounds, cut in specs)


_TCG_TO_226 = _rows(
    (8, 8, 3, 0), (9, 12, 4, 4), (13, 20, 5, 4), (21, 32, 5, 8), (33, 64, 6, 8),
    (65, 128, 7, 8), (129, 226, 8, 8),
)  # fmt: skip
_TWO_DAY = (*_TCG_TO_226, Row(227, 799, 9, 8, day2_rounds=5), Row(800, None, 9, 8, day2_rounds=6))
_TOP = (64, 32, 16, 8, 4, 2)


def _r2009(low: int, high: int, rounds: tuple[int, int], top: int) -> Row:
    cuts = tuple(c for c in _TOP if c <= top)
    return Row(low, high, rounds[1], max(cuts, default=0), allowed_rounds=rounds, allowed_cuts=cuts)


TABLES: dict[str, RoundTable] = {
    t.id: t
    for t in (
        RoundTable(
            "pokemon-tcg", "P-RT-1", gettext_noop("Pokémon TCG, single day (2019)"),
            (*_TCG_TO_226, *_rows((227, 409, 9, 8), (410, None, 10, 8))),
            one_less_round=True, first_row_covers_fewer=True,
        ),
        RoundTable(
            "pokemon-tcg-two-day", "P-RT-2", gettext_noop("Pokémon TCG, two days (2019)"), _TWO_DAY,
            one_less_round=True, first_row_covers_fewer=True,
        ),
        RoundTable(
            "pokemon-vg", "P-RT-3",
            gettext_noop("Pokémon VG Premier Challenge, Midseason Showdown, Regionals (2019)"),
            _rows(
                (8, 8, 3, 2), (9, 16, 4, 4), (17, 32, 5, 8), (33, 64, 6, 8), (65, 128, 7, 8),
                (129, 226, 8, 8), (227, 256, 8, 16), (257, 409, 9, 16), (410, 512, 9, 32),
                (513, None, 10, 32),
            ),
            one_less_round=True, first_row_covers_fewer=True,
        ),
        RoundTable(
            "pokemon-vg-international", "P-RT-3", gettext_noop("Pokémon VG International Championships"),
            _TWO_DAY, one_less_round=True, first_row_covers_fewer=True,
        ),
        RoundTable(
            "pokemon-2009-swiss", "P-RT-4", gettext_noop("Pokémon 2009, Swiss"),
            _rows(
                (6, 8, 3, 0), (9, 16, 4, 0), (17, 32, 5, 0), (33, 64, 6, 0), (65, 128, 7, 0),
                (129, 256, 8, 0),
            ),
        ),
        RoundTable(
            "pokemon-2009-swiss-top-cut", "P-RT-4", gettext_noop("Pokémon 2009, Swiss plus single elimination"),
            (
                _r2009(6, 7, (2, 3), 0), _r2009(8, 8, (2, 3), 2), _r2009(9, 15, (3, 4), 2),
                _r2009(16, 16, (3, 4), 4), _r2009(17, 31, (4, 5), 4), _r2009(32, 32, (4, 5), 8),
                _r2009(33, 63, (5, 6), 8), _r2009(64, 64, (5, 6), 16),
                _r2009(65, 127, (6, 7), 16), _r2009(128, 128, (6, 7), 32),
                _r2009(129, 255, (7, 8), 32), _r2009(256, 256, (7, 8), 32),
                _r2009(257, 511, (8, 9), 32), _r2009(512, 512, (8, 9), 64),
            ),
        ),
        RoundTable(
            "pokemon-2009-single-elimination", "P-RT-4", gettext_noop("Pokémon 2009, single elimination"),
            (), single_elimination=True,
        ),
        RoundTable(
            "mtg", "P-RT-5", gettext_noop("Magic (MTR Appendix E)"),
            (
                Row(4, 4, 0, elimination_rounds=2), Row(5, 8, 0, elimination_rounds=3),
                *_rows((9, 16, 5, 4), (17, 32, 5, 8), (33, 64, 6, 8), (65, 128, 7, 8),
                       (129, 226, 8, 8), (227, 409, 9, 8), (410, None, 10, 8)),
            ),
            counting="awarded-byes",
        ),
        RoundTable(
            "mtg-multiplayer", "P-RT-6", gettext_noop("Magic multiplayer, pods of 4"),
            (
                Row(4, 5, 0, elimination_rounds=1),
                *_rows((6, 16, 2, 4), (17, 24, 3, 7), (25, 32, 4, 10), (33, 40, 5, 13),
                       (41, 64, 5, 16), (65, 128, 6, 16), (129, 256, 7, 40), (257, 512, 8, 40),
                       (513, None, 9, 64)),
            ),
            counting="small-pods", multiplayer=True,
        ),
        RoundTable(
            "bo3-wins-against", "P-RT-7", gettext_noop("Best-of-3 wins-against (1v1)"),
            _rows(
                (5, 8, 3, 0), (9, 16, 4, 4), (17, 32, 5, 4), (33, 64, 6, 8), (65, 128, 7, 8),
                (129, 256, 8, 16), (257, 512, 9, 16),
            ),
        ),
    )
}  # fmt: skip
# P-RT-5 with a Booster Draft playoff: 9-16 players play 4 rounds into a top 8.
TABLES["mtg-draft-playoff"] = replace(
    TABLES["mtg"],
    id="mtg-draft-playoff",
    label=gettext_noop("Magic (MTR Appendix E), Booster Draft playoff"),
    rows=tuple(replace(r, rounds=4, cut=8) if r.low == 9 else r for r in TABLES["mtg"].rows),
)


def get_table(table: str | RoundTable) -> RoundTable:
    """A table by its id (ruleset ids name their own tables); raises KeyError naming the
    known ids."""
    if isinstance(table, RoundTable):
        return table
    found = TABLES.get(table)
    if found is None:
        raise KeyError(f"unknown round table {table!r}; known: {', '.join(TABLES)}")
    return found


def recommend(
    ruleset_table: str | RoundTable,
    players: int,
    *,
    awarded_byes: Mapping[int, int] | None = None,
    small_pods: int | None = None,
) -> Recommendation:
    """Swiss rounds, top cut and Day 2 rounds recommended for ``players`` (P-RT-1 … P-RT-7).

    ruleset_table: a table id of :data:`TABLES` (each ruleset's own table has the
        ruleset's id, e.g. ``mtg``); players: in the age division (P-AGE-4: the largest
        division of an age-modified pod).
    awarded_byes: MTG only (P-RT-5): {bye rounds 1/2/3: players}; each such player counts
        as 2/4/8 players.
    small_pods: multiplayer only (P-RT-6): pods of 3 in a pods-of-4 event, each counting
        one invisible player; default: the fewest smaller pods (MP-POD-1), none when the
        event is single elimination only (4-5 players).

    Raises ValueError for fewer players than the table's first row, or a count argument
    the table does not take; KeyError for an unknown table.
    """
    table = get_table(ruleset_table)
    counted = _counted(table, players, awarded_byes, small_pods)
    if table.single_elimination:
        return _single_elimination(table, counted)
    row, notes = _row(table, counted)
    if row.day2_rounds:
        notes += (DAY2_NOTE,)
    allowed = row.allowed_rounds or _one_less(table, row.rounds)
    return Recommendation(
        rounds=row.rounds,
        cut=row.cut,
        day2_rounds=row.day2_rounds,
        allowed_rounds=allowed,
        allowed_cuts=row.allowed_cuts or ((row.cut,) if row.cut else ()),
        elimination_rounds=row.elimination_rounds or _cut_rounds(table, row.cut),
        counted_players=counted,
        row=row.label,
        rule=table.rule,
        notes=notes,
    )


def _counted(
    table: RoundTable,
    players: int,
    awarded_byes: Mapping[int, int] | None,
    small_pods: int | None,
) -> int:
    """Players as the table counts them (P-RT-5 awarded byes, P-RT-6 invisible players)."""
    if players < 2:
        raise ValueError(
            text(gettext_noop("An event needs at least two players, got %(got)s."), got=players)
        )
    if awarded_byes and table.counting != "awarded-byes":
        raise ValueError(
            text(
                gettext_noop("Awarded byes do not change the %(table)s table."),
                table=Text(table.label),
            )
        )
    if small_pods is not None and table.counting != "small-pods":
        raise ValueError(
            text(
                gettext_noop("Smaller pods do not change the %(table)s table."),
                table=Text(table.label),
            )
        )
    if table.counting == "awarded-byes":
        byes = dict(awarded_byes or {})
        if set(byes) - {1, 2, 3} or any(n < 0 for n in byes.values()):
            raise ValueError(
                text(
                    gettext_noop(
                        "Awarded byes are 1, 2 or 3 rounds, each for zero or more players."
                    )
                )
            )
        if sum(byes.values()) > players:
            raise ValueError(text(gettext_noop("More players with awarded byes than players.")))
        return players + sum(n * ((1 << rounds) - 1) for rounds, n in byes.items())
    if table.counting == "small-pods":
        if small_pods is None:
            small_pods = (-players) % POD_SIZE if players > 5 else 0
        return players + small_pods
    return players


def _row(table: RoundTable, counted: int) -> tuple[Row, tuple[str, ...]]:
    """The row for ``counted`` players, extended past a closed last row (module notes)."""
    first, last = table.rows[0], table.rows[-1]
    if counted < first.low:
        if not table.first_row_covers_fewer:
            raise ValueError(
                text(
                    gettext_noop("The %(table)s table starts at %(low)s players, got %(got)s."),
                    table=Text(table.label),
                    low=first.low,
                    got=counted,
                )
            )
        note = text(
            gettext_noop("Fewer players than the table's first row (%(row)s): using it."),
            row=first.label,
        )
        return first, (note,)
    for row in table.rows:
        if row.high is None or counted <= row.high:
            return row, ()
    assert last.high is not None
    extra = 0
    while last.high << extra < counted:
        extra += 1
    low, high = (last.high << (extra - 1)) + 1, last.high << extra
    rounds = tuple(r + extra for r in last.allowed_rounds)
    cuts = _capped_cuts(counted) if last.allowed_cuts else last.allowed_cuts
    grown = Row(low, high, last.rounds + extra, max(cuts, default=last.cut), 0, 0, rounds, cuts)
    note = text(
        gettext_noop("Beyond the table's last row (%(row)s): one more Swiss round per doubling."),
        row=last.label,
    )
    return grown, (note,)


def _capped_cuts(players: int) -> tuple[int, ...]:
    """P-RT-4 allowed cuts: powers of two ≥ 2, at most 25 % of the division (12.5 % from
    256 players on)."""
    share = 8 if players >= 256 else 4  # 1/8 = 12.5 %, 1/4 = 25 %
    return tuple(c for c in (1 << k for k in range(20, 0, -1)) if c * share <= players)


def _one_less(table: RoundTable, rounds: int) -> tuple[int, ...]:
    """S-3: Pokémon organisers may run one Swiss round less."""
    if not rounds:
        return ()
    return (rounds - 1, rounds) if table.one_less_round and rounds > 1 else (rounds,)


def _cut_rounds(table: RoundTable, cut: int) -> int:
    if not cut:
        return 0
    return POD_CUT_ROUNDS[cut] if table.multiplayer else cut.bit_length() - 1


def _single_elimination(table: RoundTable, players: int) -> Recommendation:
    """P-RT-4 §3.2.2: ceil(log2 N) rounds, no Swiss."""
    if players < 2:
        raise ValueError(
            text(
                gettext_noop("Single elimination needs at least two players, got %(got)s."),
                got=players,
            )
        )
    rounds = (players - 1).bit_length()
    return Recommendation(
        rounds=0, cut=0, elimination_rounds=rounds, counted_players=players, rule=table.rule,
        row=f"{(1 << (rounds - 1)) + 1}–{1 << rounds}",
    )  # fmt: skip
