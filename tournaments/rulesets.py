"""Rulesets as data: points, ties and tiebreaker keys per ruleset id (RULES.md table).

One place for what differs between rulesets; views and services ask the ruleset object
instead of testing ``event.ruleset == ...``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ruleset:
    """A named bundle of rules an organiser picks for an event.

    points_win / points_tie / points_loss: match points (a bye scores as a win).
    allows_ties: whether a tie is a valid match result (``pokemon-2009``: no).
    tiebreakers: keys written in the standings JSON (INTERFACES.md).
    implemented: whether pairing/standings exist for it yet (others are refused clearly).
    """

    id: str
    label: str
    points_win: int
    points_tie: int
    points_loss: int
    allows_ties: bool
    tiebreakers: tuple[str, ...]
    implemented: bool

    def match_points(self, wins: int, ties: int) -> int:
        return wins * self.points_win + ties * self.points_tie


RULESETS: dict[str, Ruleset] = {
    r.id: r
    for r in (
        Ruleset("pokemon", "Play! Pokémon (2019 procedures)", 3, 1, 0, True, ("owp", "oowp"), True),
        Ruleset(
            "pokemon-2009", "Pokémon (2009 procedures)", 1, 0, 0, False, ("owp", "oowp"), False
        ),
        Ruleset(
            "mtg", "Magic: The Gathering, head-to-head", 3, 1, 0, True, ("omw", "gw", "ogw"), False
        ),
        Ruleset(
            "mtg-multiplayer",
            "Magic multiplayer pods",
            7,
            1,
            0,
            True,
            ("mwp", "oamp", "omwp"),
            False,
        ),
        Ruleset(
            "bo3-wins-against",
            "Best-of-3, wins-against tiebreaker",
            1,
            0,
            0,
            False,
            ("wins_against", "game_wins", "win_pct"),
            False,
        ),
    )
}


def get_ruleset(ruleset_id: str) -> Ruleset:
    """Return the ruleset for an id; raises KeyError naming the unknown id."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(RULESETS)}") from None
