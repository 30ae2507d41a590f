"""Each game's deck-construction rules as data: what the ruleset
modules declare as ``Ruleset.decklist`` (:class:`rulesets.decklists.DeckRules`).

Pure Python, no card database: the names a rule exempts are listed here by name, in
English and in Spanish (the languages the pages speak), as :func:`decklists.keys`
compares them.

* **Pokémon** (``pokemon``, ``pokemon-2009``): exactly 60 cards, no sideboard, at most 4
  cards of one name except basic Energy. Lists are collected by default at a
  Championship Point event (P-POST-5).
* **Magic** (``mtg``): a main deck of at least 60 cards, a sideboard of at most 15, at
  most 4 of one name in main deck and sideboard together except basic lands (MTR 100.2a,
  100.4a) and the few cards whose text allows any number, or a number of their own.
  Lists are collected by default at Competitive and Professional rules enforcement
  (the ``rules_enforcement_level`` option).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .decklists import DeckExample, DeckRules, Section, keys

_ENERGY_TYPES = {
    "grass": "g",
    "fire": "r",
    "water": "w",
    "lightning": "l",
    "psychic": "p",
    "fighting": "f",
    "darkness": "d",
    "metal": "m",
    "fairy": "y",
}
_ENERGIA = ("planta", "fuego", "agua", "rayo", "psíquica", "lucha", "oscura", "metálica", "hada")

#: Basic Energy as lists write it: "Lightning Energy", "Basic Lightning Energy",
#: "Basic {L} Energy" (the Pokémon TCG Live export), "Energía Rayo".
BASIC_ENERGY = keys(
    *(f"{t} Energy" for t in _ENERGY_TYPES),
    *(f"Basic {t} Energy" for t in _ENERGY_TYPES),
    *(f"Basic {{{s}}} Energy" for s in _ENERGY_TYPES.values()),
    *(f"{{{s}}} Energy" for s in _ENERGY_TYPES.values()),
    *(f"Energía {t}" for t in _ENERGIA),
)

POKEMON_HEADERS: Mapping[str, Section | None] = {
    "pokemon": Section.MAIN,
    "trainer": Section.MAIN,
    "trainers": Section.MAIN,
    "trainer cards": Section.MAIN,
    "energy": Section.MAIN,
    "energies": Section.MAIN,
    "deck": Section.MAIN,
    "total cards": None,
    "entrenador": Section.MAIN,
    "entrenadores": Section.MAIN,
    "energia": Section.MAIN,
    "energias": Section.MAIN,
    "mazo": Section.MAIN,
    "total de cartas": None,
}


#: How Pokémon lists are written: the help beside the list box and the refusal of an
#: unreadable line show it (``Ruleset.deck_example``).
POKEMON_EXAMPLE = DeckExample("4 Pikachu ex", "SVI 057, PR-SV 161")


def _championship_points(championship_points: bool, options: Mapping[str, Any]) -> bool:
    """P-POST-5: lists are collected for Championship Point events."""
    return championship_points


POKEMON_DECK = DeckRules(
    main_min=60,
    main_max=60,
    sideboard_max=0,
    copies=4,
    any_number=BASIC_ENERGY,
    headers=POKEMON_HEADERS,
    required_by_default=_championship_points,
)

_BASIC_LANDS = ("Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes")
_TIERRAS = (
    ("Llanura", "Llanura nevada"),
    ("Isla", "Isla nevada"),
    ("Pantano", "Pantano nevado"),
    ("Montaña", "Montaña nevada"),
    ("Bosque", "Bosque nevado"),
)

#: Basic lands (MTR 100.2a), snow-covered too, and the cards whose own text says "a deck
#: can have any number of cards named …".
MAGIC_ANY_NUMBER = keys(
    *_BASIC_LANDS,
    *(f"Snow-Covered {land}" for land in _BASIC_LANDS),
    *(name for pair in _TIERRAS for name in pair),
    "Relentless Rats",
    "Rat Colony",
    "Persistent Petitioners",
    "Shadowborn Apostle",
    "Dragon's Approach",
    "Slime Against Humanity",
    "Hare Apparent",
)

#: Cards whose text sets a number of their own ("up to seven cards named …").
MAGIC_OWN_LIMITS = {k: 7 for k in keys("Seven Dwarves")} | {k: 9 for k in keys("Nazgûl")}

_MAIN_WORDS = [
    "deck",
    "main",
    "maindeck",
    "mainboard",
    "creature",
    "creatures",
    "land",
    "lands",
    "spell",
    "spells",
    "instant",
    "instants",
    "sorcery",
    "sorceries",
    "artifact",
    "artifacts",
    "enchantment",
    "enchantments",
    "planeswalker",
    "planeswalkers",
    "battle",
    "battles",
    "other",
    "mazo",
    "criaturas",
    "tierras",
    "hechizos",
]
MAGIC_HEADERS: Mapping[str, Section | None] = {
    **{w: Section.MAIN for w in _MAIN_WORDS},
    "main deck": Section.MAIN,
    "other spells": Section.MAIN,
    "mazo principal": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "side": Section.SIDEBOARD,
    "sb": Section.SIDEBOARD,
    "banquillo": Section.SIDEBOARD,
    "total cards": None,
    "total de cartas": None,
}

#: How Magic lists are written (MTG Arena's export: the set code in brackets, then the
#: collector number); Commander decks hold one copy of a card.
MAGIC_EXAMPLE = DeckExample("4 Lightning Bolt", "(2XM) 141")
COMMANDER_EXAMPLE = DeckExample("1 Sol Ring", "(2XM) 141")

#: The ``rules_enforcement_level`` values at which a Magic event collects lists.
LISTS_AT = ("competitive", "professional")


def _competitive(championship_points: bool, options: Mapping[str, Any]) -> bool:
    """Magic events at Competitive or Professional rules enforcement collect lists."""
    return options.get("rules_enforcement_level", "regular") in LISTS_AT


MAGIC_CONSTRUCTED_DECK = DeckRules(
    main_min=60,
    main_max=None,
    sideboard_max=15,
    copies=4,
    any_number=MAGIC_ANY_NUMBER,
    own_limits=MAGIC_OWN_LIMITS,
    headers=MAGIC_HEADERS,
    required_by_default=_competitive,
)
