"""What a ruleset declares: the :class:`Ruleset` record and its parts.

Pure Python (no Django): every app, the engines' adapters and the file formats import
these declarations. A ruleset module builds one :class:`Ruleset`; the registry
(:mod:`rulesets`) lists the modules. Percentages are exact ``Fraction`` values 0–1 until
a :class:`Column` formats them for a page; times are in seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from standings.engine.games import GameRecordError
from standings.engine.placement import top_cut_places
from standings.engine.receipts import Receipt
from standings.engine.types import Entrant, MatchRecord

from .decklists import DeckExample, DeckRules
from .i18n import Text, gettext_noop, text
from .penalties import Infraction
from .tables import Recommendation, RoundTable, get_table, recommend


class MatchFormat(StrEnum):
    """How a match is played and reported.

    SINGLE_GAME: the slip carries the match result only (Pokémon: best-of-1 or best-of-3
    reported as a result). BEST_OF_3: the slip carries the game record W-L-D
    (M-MATCH-1). POD: a multiplayer pod of 3–5 players with one winner (MP-POD-1).
    """

    SINGLE_GAME = "single-game"
    BEST_OF_3 = "best-of-3"
    POD = "pod"


class StructureId(StrEnum):
    """S-1 structures (the values of ``Event.structure``)."""

    SWISS = "swiss"
    SWISS_TOP_CUT = "swiss-top-cut"
    SINGLE_ELIMINATION = "single-elimination"


STRUCTURE_LABELS = {
    StructureId.SWISS: gettext_noop("Swiss"),
    StructureId.SWISS_TOP_CUT: gettext_noop("Swiss plus top cut"),
    StructureId.SINGLE_ELIMINATION: gettext_noop("Single elimination"),
}


# --- display formatters (values arrive as the Standings JSON writes them) -------------


def _decimal(value: Any) -> Decimal:
    """A Fraction, float, int or numeric string as a Decimal (a Fraction exactly to 12
    places, enough for two-decimal display)."""
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(str(value))


def as_percent(value: Any) -> str:
    """A 0–1 fraction as a percentage with two decimals, half up (P-TB-8):
    0.6125 → ``"61.25%"``; None → ``""``."""
    if value is None or value == "":
        return ""
    quantum = (_decimal(value) * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{quantum}%"


def as_decimal(value: Any) -> str:
    """A number with two decimals, half up (OAMP, in match points): 7.5 → ``"7.50"``."""
    if value is None or value == "":
        return ""
    return str(_decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def as_integer(value: Any) -> str:
    """A count (wins against, game wins): 3 → ``"3"``; None → ``""``."""
    if value is None or value == "":
        return ""
    return str(int(_decimal(value)))


@dataclass(frozen=True)
class Column:
    """One tiebreaker column of the standings, in the ruleset's order.

    key: the key in the Standings JSON ``tiebreakers`` (docs/interfaces.md). heading: the
    column heading on pages and CSV (``"OMW %"``). abbreviation: the short form players
    know (``"OMW"``). explanation: one line in plain words for the help page and the
    heading's tooltip. format: value (a number 0–1 or a count) → display text.
    """

    key: str
    heading: str
    abbreviation: str
    explanation: str
    format: Callable[[Any], str] = as_percent

    def show(self, value: Any) -> str:
        """The value as the page shows it."""
        return self.format(value)


@dataclass(frozen=True)
class OptionSpec:
    """One event option of a ruleset: ``kind`` is ``bool`` or ``choice`` (``choices``
    lists the allowed values, strings or integers); ``default`` applies when unset.
    ``fixed_once_played``: the option cannot change once the event has a recorded result
    (the match length: the results already recorded were checked against it)."""

    name: str
    label: str
    kind: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] = ()
    fixed_once_played: bool = False

    def clean(self, value: Any) -> Any:
        """The value if allowed (a choice may be written as text: "4" for 4); raises
        ValueError naming the option and the bad value (a ``rulesets.i18n.Text``)."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise ValueError(
                text(
                    gettext_noop("%(name)s: %(value)s is not true or false"),
                    name=self.name,
                    value=repr(value),
                )
            )
        for choice in self.choices:
            if not isinstance(value, bool) and str(value) == str(choice):
                return choice
        allowed = ", ".join(repr(c) for c in self.choices)
        raise ValueError(
            text(
                gettext_noop("%(name)s: %(value)s is not one of %(allowed)s"),
                name=self.name,
                value=repr(value),
                allowed=allowed,
            )
        )


#: Every ruleset's option: dropped players below the active players
#: with the same match points (``standings.engine.drops``); off by default. Wizards Event
#: Reporter does not do it (its shared real file ranks dropped players by tiebreakers).
DROPS_BELOW_ACTIVE = OptionSpec(
    "drops_below_active",
    gettext_noop("Dropped players below active players with the same points"),
    "bool",
    False,
    gettext_noop(
        "As Limitless does. Off: a dropped player keeps the place their tiebreakers give."
    ),
)

#: The ``match_length`` option's values and the games each means (M-MATCH-1: best-of-3
#: unless announced otherwise).
MATCH_LENGTHS = {"best-of-3": 3, "best-of-1": 1}


@dataclass(frozen=True)
class Features:
    """Which Pokémon procedures a ruleset uses (everything off for other games).

    age_divisions: Junior / Senior / Masters by birth year, seasons, age-modified
    pairing (P-AGE). championship_points: the late-entry override (P-LATE-1) and deck
    lists (P-POST-5). day2: two-day events (P-D2). flights: P-FL. tom_files: the
    Pokémon Tournament Operations Manager ``.tdf`` download and upload.
    """

    age_divisions: bool = False
    championship_points: bool = False
    day2: bool = False
    flights: bool = False
    tom_files: bool = False


@dataclass(frozen=True)
class Line:
    """One player's Swiss standing, ruleset-neutral.

    tiebreakers: the ruleset's column keys, exact Fractions 0–1 (or plain integers, e.g.
    wins against).
    """

    player: str
    match_points: int
    record: str
    tiebreakers: Mapping[str, Fraction | int]


@dataclass(frozen=True)
class Context:
    """What a standings function needs besides the results: rounds counted, the I-6 seed,
    event options (docs/interfaces.md ``options``) and the elimination matches (R-8)."""

    rounds: int
    seed: int
    options: Mapping[str, Any]
    playoff_matches: Sequence[MatchRecord] = ()


#: (entrants, Swiss matches, context) → standings lines in order.
StandingsFunction = Callable[[Sequence[Entrant], Sequence[MatchRecord], Context], list[Line]]
#: (entrants, Swiss matches, context, the players wanted or None for all) → {player id:
#: Receipt}: the tiebreaker receipts of the standings call with the same inputs, built
#: from the same counting (``standings.engine.receipts``).
ReceiptsFunction = Callable[
    [Sequence[Entrant], Sequence[MatchRecord], Context, Collection[str] | None],
    Mapping[str, Receipt],
]
#: (Swiss order of player ids, top-cut matches) → final order of every player.
CutPlaces = Callable[[Sequence[str], Sequence[MatchRecord]], tuple[str, ...]]
#: (structure, options, two_day) → the round-table id an event reads.
TableChoice = Callable[[str, Mapping[str, Any], bool], str]
#: (games (a, b, drawn), elimination, best of) → (outcome "win"/"draw", winner seat index
#: or None).
GameCheck = Callable[[tuple[int, int, int], bool, int], tuple[str, int | None]]

HEAD_TO_HEAD_CUTS = (2, 4, 8, 16, 32, 64)  # P-TC-1: powers of two
ALL_STRUCTURES = tuple(StructureId)


@dataclass(frozen=True)
class Ruleset:
    """A named bundle of rules an organiser picks for an event (docs/rules.md, the ruleset
    table). Everything a page, form, file or service needs to treat the ruleset right.

    points_win / points_tie / points_loss: match points (a bye scores as a win);
    ``win_points`` overrides the win points from the options (MP-PTS-1: 2n−1).
    draw_word: what a drawn match is called on every page ("Tie", "Draw"); empty when
    the ruleset has no drawn matches (``allows_ties`` is then False).
    match_format: :class:`MatchFormat`. options: the event options it reads.
    columns: the standings tiebreaker columns in order (their keys are the Standings
    JSON ``tiebreakers``). standings / cut_places: the ordering functions.
    round_table: the id of its round-count table (P-RT-1…7); ``table_choice`` picks
    another table by structure, options and two days. structures: the S-1 structures
    it runs. cuts: allowed top-cut sizes. features: :class:`Features`.
    round_seconds / elimination_seconds: the round clock's time (None: untimed).
    extra_turns: turns played after time is called (W-TIME-2: three), which the event
    planner (``pairings.engine.planner``) adds to a round's length.
    time_called: the W-TIME-1 time-called helper applies. game_check: the game-record
    rule for ``BEST_OF_3`` (M-MATCH-1), for the games a match has (:meth:`best_of`: a
    ruleset declaring the ``match_length`` option plays best-of-1 or best-of-3 events).
    glossary: extra lines for the help page. receipts: how each player's columns were
    counted (:data:`ReceiptsFunction`; None: no receipts).
    decklist: the game's deck-construction rules (:class:`rulesets.decklists.DeckRules`:
    deck and sideboard sizes, copies of a name, exempt names, when lists are collected
    by default); None: any readable list (``decklists.ANY_DECK``), not collected unless
    the organiser turns lists on. deck_example: how the game's lists are written (a card
    line, its set codes: :class:`rulesets.decklists.DeckExample`), shown beside the list
    box and in the refusal of an unreadable line; None: no game's example.
    """

    id: str
    label: str
    points_win: int
    points_tie: int
    points_loss: int
    draw_word: str
    match_format: MatchFormat
    columns: tuple[Column, ...]
    standings: StandingsFunction
    round_table: str
    cut_places: CutPlaces = top_cut_places
    options: tuple[OptionSpec, ...] = ()
    structures: tuple[StructureId, ...] = ALL_STRUCTURES
    cuts: tuple[int, ...] = HEAD_TO_HEAD_CUTS
    features: Features = field(default_factory=Features)
    round_seconds: int | None = 50 * 60
    elimination_seconds: int | None = 50 * 60
    extra_turns: int = 0
    time_called: bool = False
    win_points: Callable[[Mapping[str, Any]], int] | None = None
    table_choice: TableChoice | None = None
    game_check: GameCheck | None = None
    glossary: tuple[tuple[str, str], ...] = ()
    receipts: ReceiptsFunction | None = None  # tiebreaker receipts
    implemented: bool = True
    decklist: DeckRules | None = None  # rulesets.decklists
    deck_example: DeckExample | None = None
    # the infraction names the penalty form offers (data; none: the
    # judge types the infraction).
    infractions: tuple[Infraction, ...] = ()

    # --- results -----------------------------------------------------------------
    @property
    def allows_ties(self) -> bool:
        """Whether a drawn match is a valid result (``pokemon-2009``: no)."""
        return bool(self.draw_word)

    @property
    def game_record(self) -> bool:
        """Match slips carry a best-of-3 game record (M-MATCH-1)."""
        return self.match_format is MatchFormat.BEST_OF_3

    @property
    def uses_pods(self) -> bool:
        """Matches are multiplayer pods (MP-POD-1)."""
        return self.match_format is MatchFormat.POD

    @property
    def tiebreakers(self) -> tuple[str, ...]:
        """The Standings JSON ``tiebreakers`` keys, in order (docs/interfaces.md)."""
        return tuple(c.key for c in self.columns)

    def points_per_win(self, options: Mapping[str, Any] | None = None) -> int:
        """Match points of a win (and a bye) under the event's options: ``points_win``, or
        the ruleset's ``win_points`` strategy (pods: MP-PTS-1's ``2n − 1``, whose one
        home is ``standings.engine.multiplayer.points_per_win``). Pages and services
        ask this method, never the ruleset id."""
        return self.win_points(options or {}) if self.win_points else self.points_win

    def match_points(self, wins: int, ties: int, options: Mapping[str, Any] | None = None) -> int:
        """Match points of ``wins`` wins and ``ties`` drawn matches."""
        return wins * self.points_per_win(options) + ties * self.points_tie

    def option_defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def best_of(self, options: Mapping[str, Any] | None = None) -> int:
        """Games in a match of an event with ``options`` (M-MATCH-1: 3 unless announced
        otherwise): 1 when the ruleset declares the ``match_length`` option and the event
        chose ``"best-of-1"``, else 3 (another ruleset's option in a file is ignored)."""
        spec = next((o for o in self.options if o.name == "match_length"), None)
        if spec is None:
            return 3
        return MATCH_LENGTHS.get(str((options or {}).get(spec.name, spec.default)), 3)

    def game_verdict(
        self,
        games: tuple[int, int, int],
        *,
        elimination: bool,
        options: Mapping[str, Any] | None = None,
    ) -> tuple[str, int | None]:
        """The match result a game record stands for (M-MATCH-1, M-SE-2) in a match of
        :meth:`best_of` games under the event's ``options``: ``("win", 0 or 1)`` (the
        winner's seat index) or ``("draw", None)``. Raises ValueError saying why a record
        is impossible (3-0, 2-2, a draw in elimination; 2-0 or 1-1 in a best-of-1)."""
        if self.game_check is None:
            raise ValueError(
                text(
                    gettext_noop("the %(label)s rules record match results, not games"),
                    label=Text(self.label),
                )
            )
        record = (games[0], games[1], games[2])
        outcome, winner = self.game_check(record, elimination, self.best_of(options))
        if outcome == "draw" and not self.allows_ties:
            raise GameRecordError(
                gettext_noop(
                    "%(record)s: equal game wins; the %(rules)s rules have no drawn matches: "
                    "resolve time by sudden death"
                ),
                record="-".join(map(str, games)),
                rules=self.label,
            )
        return outcome, winner

    # --- structure ---------------------------------------------------------------
    def table(
        self, structure: str = "", options: Mapping[str, Any] | None = None, two_day: bool = False
    ) -> RoundTable:
        """The round-count table an event of this ruleset reads (P-RT-1…7)."""
        table_id = self.round_table
        if self.table_choice is not None:
            table_id = self.table_choice(structure, options or {}, two_day)
        return get_table(table_id)

    def recommend(
        self,
        players: int,
        structure: str = "",
        options: Mapping[str, Any] | None = None,
        two_day: bool = False,
    ) -> Recommendation:
        """The table's recommendation for ``players`` (read at the table's first row for
        fewer players). Raises ValueError below two players."""
        table = self.table(structure, options, two_day)
        first = table.rows[0].low if table.rows else 2
        return recommend(table, max(players, first) if players >= 2 else players)

    def allowed_cuts(self) -> tuple[int, ...]:
        """Top-cut sizes an event may announce, 0 (none) first."""
        return (0, *self.cuts)

    def cut_problem(self, cut: int | None) -> str:
        """Why an event of this ruleset cannot announce a top cut of ``cut`` players (a
        ``rulesets.i18n.Text``), or ``""`` (None, no override, and 0, no cut, are always
        fine): the registry's sizes, MP-SE-1 pod cuts or P-TC-1 brackets."""
        if not cut or cut in self.cuts:
            return ""
        sizes = ", ".join(map(str, self.cuts))
        return text(
            gettext_noop("A %(rules)s top cut has 0 (none) or %(sizes)s players, not %(cut)s."),
            rules=Text(self.label),
            sizes=sizes,
            cut=cut,
        )

    def structure_problem(self, structure: str, swiss_rounds: int, top_cut: int) -> str:
        """Why an announced structure cannot run under this ruleset (a
        ``rulesets.i18n.Text``), or ``""`` (S-1).

        Swiss needs at least one round and no cut; Swiss plus top cut needs rounds and a
        cut; single elimination has no Swiss rounds and no cut.
        """
        labels = {s.value: STRUCTURE_LABELS[s] for s in StructureId}
        if structure not in {s.value for s in self.structures}:
            allowed = [Text(STRUCTURE_LABELS[s]) for s in self.structures]
            return text(
                gettext_noop("The %(rules)s rules run %(allowed)s; not %(structure)s."),
                rules=Text(self.label),
                allowed=_listed(allowed),
                structure=Text(labels.get(structure, structure)),
            )
        if top_cut and top_cut not in self.cuts:
            sizes = ", ".join(map(str, self.cuts))
            return text(
                gettext_noop("A %(rules)s top cut has %(sizes)s players."),
                rules=Text(self.label),
                sizes=sizes,
            )
        if structure == StructureId.SINGLE_ELIMINATION:
            if swiss_rounds or top_cut:
                return text(
                    gettext_noop(
                        "Single elimination has no Swiss rounds and no top cut: set both to 0."
                    )
                )
        elif swiss_rounds < 1:
            return text(gettext_noop("Swiss needs at least one round."))
        elif structure == StructureId.SWISS_TOP_CUT and not top_cut:
            return text(
                gettext_noop(
                    "Swiss plus top cut needs a top cut: choose its size, or choose Swiss."
                )
            )
        elif structure == StructureId.SWISS and top_cut:
            return text(
                gettext_noop("Swiss alone has no top cut: choose Swiss plus top cut, or no cut.")
            )
        return ""


def _listed(items: Sequence[Text]) -> Text:
    """``items`` joined with ", " as one Text whose parts are translated where shown."""
    placeholders = ", ".join(f"%(item{i})s" for i in range(len(items)))
    return Text(placeholders, {f"item{i}": item for i, item in enumerate(items)})


def fraction_option(value: Any, default: Fraction) -> Fraction:
    """An option written as "0.33", "1/3" or a number, as an exact Fraction."""
    return default if value in (None, "") else Fraction(str(value))
