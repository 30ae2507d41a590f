"""Rulesets as data: points, ties, tiebreaker keys and options per ruleset id (RULES.md table).

One place for what differs between rulesets; views and services ask the ruleset object
instead of testing ``event.ruleset == ...``. Event options (INTERFACES.md ``options``)
are declared here as :class:`OptionSpec` rows: the event JSON, the settings page and the
services all validate through :func:`clean_options`.

Game records (M-MATCH-1) are checked by ``standings.engine.games``; ``tournaments`` does
not import ``standings`` (STYLE.md layout), so the standings app registers its checker
here at start-up (:func:`register_game_check`) and :meth:`Ruleset.game_verdict` calls it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class OptionSpec:
    """One event option of a ruleset: ``kind`` is ``bool`` or ``choice`` (``choices``
    lists the allowed values, strings or integers); ``default`` applies when unset."""

    name: str
    label: str
    kind: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] = ()

    def clean(self, value: Any) -> Any:
        """The value if allowed (a choice may be written as text: "4" for 4); raises
        ValueError naming the option and the bad value."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise ValueError(f"{self.name}: {value!r} is not true or false")
        for choice in self.choices:
            if not isinstance(value, bool) and str(value) == str(choice):
                return choice
        allowed = ", ".join(repr(c) for c in self.choices)
        raise ValueError(f"{self.name}: {value!r} is not one of {allowed}")


#: A game-record checker: (games (a, b, drawn), elimination) → (outcome, winner seat
#: index or None); raises ValueError with the reason for an impossible record.
GameCheck = Callable[[tuple[int, int, int], bool], tuple[str, int | None]]
_GAME_CHECKS: dict[str, GameCheck] = {}


def register_game_check(check: GameCheck) -> None:
    """Install the game-record rule (called by ``standings.apps.StandingsConfig.ready``)."""
    _GAME_CHECKS["best-of-3"] = check


@dataclass(frozen=True)
class Ruleset:
    """A named bundle of rules an organiser picks for an event.

    points_win / points_tie / points_loss: match points (a bye scores as a win).
    allows_ties: whether a tie is a valid match result (``pokemon-2009``: no).
    tiebreakers: keys written in the standings JSON (INTERFACES.md).
    implemented: whether pairing/standings exist for it yet (others are refused clearly).
    options: the event options it reads (:class:`OptionSpec`).
    game_record: match slips carry a best-of-3 game record (M-MATCH-1, seed 002).
    time_called: the W-TIME-1 time-called helper applies (``bo3-wins-against``).
    """

    id: str
    label: str
    points_win: int
    points_tie: int
    points_loss: int
    allows_ties: bool
    tiebreakers: tuple[str, ...]
    implemented: bool
    options: tuple[OptionSpec, ...] = ()
    game_record: bool = False
    time_called: bool = False

    def match_points(self, wins: int, ties: int) -> int:
        return wins * self.points_win + ties * self.points_tie

    def option_defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def game_verdict(
        self, games: tuple[int, int, int], *, elimination: bool
    ) -> tuple[str, int | None]:
        """The match result a best-of-3 game record stands for (M-MATCH-1, M-SE-2):
        ``("win", 0 or 1)`` (the winner's seat index) or ``("draw", None)``. Raises
        ValueError saying why a record is impossible (3-0, 2-2, a draw in elimination)."""
        if not self.game_record:
            raise ValueError(f"the {self.label} rules record match results, not games")
        check = _GAME_CHECKS.get("best-of-3")
        if check is None:  # a bug: the standings app is not installed
            raise RuntimeError("no game-record check registered (standings app missing)")
        outcome, winner = check(tuple(games), elimination)  # type: ignore[arg-type]
        if outcome == "draw" and not self.allows_ties:
            raise ValueError(
                f"{'-'.join(map(str, games))}: equal game wins; the {self.label} rules have "
                "no drawn matches: resolve time by sudden death (W-TIME-1)"
            )
        return outcome, winner


MTG_OPTIONS = (
    OptionSpec(
        "mwp_floor",
        "Match-win and game-win % floor",
        "choice",
        "0.33",
        "0.33 as the MTR and Wizards Event Reporter; 1/3 as melee.gg (R-7).",
        ("0.33", "1/3"),
    ),
    OptionSpec(
        "playoffs_in_tiebreakers",
        "Count playoff matches in the final tiebreakers",
        "bool",
        False,
        "Wizards Event Reporter does; melee.gg does not (R-8).",
    ),
    OptionSpec(
        "melee_ranking",
        "Rank as melee.gg",
        "bool",
        False,
        "Rank by the player's own game-win % without the floor, as melee.gg does.",
    ),
    OptionSpec(
        "playoff_seating",
        "Top 8 playoff pairing",
        "choice",
        "standings",
        "standings: 1-8, 4-5, 2-7, 3-6 by final Swiss standings; draft: after a random-seat "
        "draft, seat 1 vs 5, 3 vs 7, 2 vs 6, 4 vs 8 (M-SE-1).",
        ("standings", "draft"),
    ),
)
MULTIPLAYER_OPTIONS = (
    OptionSpec(
        "pod_size",
        "Players per pod",
        "choice",
        4,
        "Standard pod size n; smaller pods have n-1 players (MP-POD-1).",
        (3, 4),
    ),
)

RULESETS: dict[str, Ruleset] = {
    r.id: r
    for r in (
        Ruleset(
            "pokemon",
            "Play! Pokémon (2019 procedures)",
            3,
            1,
            0,
            True,
            ("owp", "oowp"),
            True,
        ),
        Ruleset("pokemon-2009", "Pokémon (2009 procedures)", 1, 0, 0, False, ("owp", "oowp"), True),
        Ruleset(
            "mtg",
            "Magic: The Gathering, head-to-head",
            3,
            1,
            0,
            True,
            ("omw", "gw", "ogw"),
            True,
            options=MTG_OPTIONS,
            game_record=True,
        ),
        Ruleset(
            "mtg-multiplayer",
            "Magic multiplayer pods",
            7,
            1,
            0,
            True,
            ("mwp", "oamp", "omwp"),
            True,
            options=MULTIPLAYER_OPTIONS,
        ),
        Ruleset(
            "bo3-wins-against",
            "Best-of-3, wins-against tiebreaker",
            1,
            0,
            0,
            False,
            ("wins_against", "game_wins", "win_pct"),
            True,
            game_record=True,
            time_called=True,
        ),
    )
}

#: Every option name some ruleset declares (event JSON: anything else is an error).
KNOWN_OPTIONS = frozenset(o.name for r in RULESETS.values() for o in r.options)
_SPECS = {o.name: o for r in RULESETS.values() for o in r.options}


def get_ruleset(ruleset_id: str) -> Ruleset:
    """Return the ruleset for an id; raises KeyError naming the unknown id."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(RULESETS)}") from None


def clean_options(
    ruleset_id: str, options: Mapping[str, Any], *, own_only: bool = False
) -> dict[str, Any]:
    """Validate event options (INTERFACES.md ``options``) and return them cleaned.

    An option no ruleset declares is an error; so is one of another ruleset when
    ``own_only`` (the settings page). Files may carry another ruleset's options (the
    INTERFACES.md example does), so those are only value-checked. Raises ValueError
    naming the option and the bad value (R-7, R-8 options of ``mtg``).
    """
    own = {o.name for o in get_ruleset(ruleset_id).options}
    allowed = own if own_only else KNOWN_OPTIONS
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ValueError(f"unknown option(s) {unknown}; known: {sorted(allowed)}")
    return {name: _SPECS[name].clean(value) for name, value in options.items()}
