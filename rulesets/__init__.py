"""The ruleset registry: every ruleset an organiser can pick, each declared in its own
module (docs/rules.md, the ruleset table; docs/style.md principle 8).

Pure Python, no Django: models derive their choices from :func:`choices`, forms their
fields, the file formats their checks, pages their columns and words, and the standings
service its ordering — nothing lists the rulesets again.

To add a ruleset: write ``rulesets/<name>.py`` building one :class:`Ruleset` as
``RULESET`` (id, label, points, draw word, match format, columns, standings function,
round table, options, features) and add the module to :data:`_MODULES` below.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import bo3_wins_against, mtg, mtg_multiplayer, pokemon, pokemon_2009
from .base import (
    Column,
    Context,
    Features,
    Line,
    MatchFormat,
    OptionSpec,
    Ruleset,
    StructureId,
)
from .i18n import gettext_noop, text

__all__ = [
    "Column",
    "Context",
    "Features",
    "KNOWN_OPTIONS",
    "Line",
    "MatchFormat",
    "OptionSpec",
    "RULESETS",
    "Ruleset",
    "StructureId",
    "choices",
    "clean_options",
    "get_ruleset",
]

#: One line per ruleset module, in the order the New-event form offers them.
_MODULES = (pokemon, pokemon_2009, mtg, mtg_multiplayer, bo3_wins_against)

RULESETS: dict[str, Ruleset] = {m.RULESET.id: m.RULESET for m in _MODULES}
DEFAULT = pokemon.RULESET.id

#: Every option name some ruleset declares (event JSON: anything else is an error).
KNOWN_OPTIONS = frozenset(o.name for r in RULESETS.values() for o in r.options)
_SPECS = {o.name: o for r in RULESETS.values() for o in r.options}


def choices() -> list[tuple[str, str]]:
    """``[(id, label)]`` of every registered ruleset (model and form choices)."""
    return [(r.id, r.label) for r in RULESETS.values()]


def get_ruleset(ruleset_id: str) -> Ruleset:
    """Return the ruleset for an id; raises KeyError naming the unknown id."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(RULESETS)}") from None


def clean_options(
    ruleset_id: str, options: Mapping[str, Any], *, own_only: bool = False
) -> dict[str, Any]:
    """Validate event options (docs/interfaces.md ``options``) and return them cleaned.

    An option no ruleset declares is an error; so is one of another ruleset when
    ``own_only`` (the settings page). Files may carry another ruleset's options (the
    docs/interfaces.md example does), so those are only value-checked. Raises ValueError
    naming the option and the bad value (R-7, R-8 options of ``mtg``).
    """
    own = {o.name for o in get_ruleset(ruleset_id).options}
    allowed = own if own_only else KNOWN_OPTIONS
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ValueError(
            text(
                gettext_noop("unknown option(s) %(unknown)s; known: %(known)s"),
                unknown=str(unknown),
                known=str(sorted(allowed)),
            )
        )
    return {name: _SPECS[name].clean(value) for name, value in options.items()}
