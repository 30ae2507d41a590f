"""Deck lists read and checked without a card database (
``rulesets.decklists``, ``rulesets.deck_rules``): the lines players paste, set codes
tolerated, section headers, and each game's rules — Pokémon exactly 60 with at most 4 of
a name except basic Energy; Magic a main deck of 60 or more, a sideboard of at most 15,
at most 4 of a name (main deck and sideboard together) except basic lands. Every
refusal names its line or the count. Pure: no database."""

from __future__ import annotations

import pytest

from rulesets import RULESETS, get_ruleset
from rulesets.deck_rules import MAGIC_HEADERS, POKEMON_HEADERS
from rulesets.decklists import (
    ANY_DECK,
    MAX_LINES,
    DeckListError,
    DeckRules,
    Section,
    card_key,
    parse_decklist,
)
from rulesets.i18n import Text

POKEMON = get_ruleset("pokemon").decklist
MAGIC = get_ruleset("mtg").decklist
assert isinstance(POKEMON, DeckRules) and isinstance(MAGIC, DeckRules)


def messages(rules: DeckRules, text: str, example: str = "") -> list[str]:
    """Every refusal of ``text`` in English ([] when the list is legal); ``example``: the
    card line an unreadable line's refusal shows."""
    try:
        rules.validate(text, example)
    except DeckListError as e:
        return [str(p.message) for p in e.problems]
    return []


# A 60-card list as the Pokémon TCG Live export writes it.
PTCGL = """Pokémon: 12
2 Pikachu ex SVI 057
2 Pikachu ex OBF 63
4 Raichu SVI 58
4 Jirachi PR-SV 161

Trainer: 36
4 Professor's Research SVI 189
4 Ultra Ball SVI 196
4 Nest Ball SVI 181
4 Pokégear 3.0 SVI 186
4 Pokémon Catcher SVI 187
4 Iono PAL 185
4 Boss's Orders PAL 172
4 Switch SVI 194
4 Rare Candy SVI 191

Energy: 12
8 Basic {L} Energy SVE 4
4 Lightning Energy Energy 4

Total Cards: 60
"""


def test_a_pokemon_tcg_live_list_of_60_is_legal_set_codes_and_headers_tolerated():
    deck = POKEMON.validate(PTCGL)
    assert deck.total() == 60 and deck.total(Section.SIDEBOARD) == 0
    names = [c.name for c in deck.lines]
    assert names[:4] == ["Pikachu ex", "Pikachu ex", "Raichu", "Jirachi"]
    assert "Pokégear 3.0" in names  # the name's own "3.0" stays; only "SVI 186" goes
    assert names[-2:] == ["Basic {L} Energy", "Lightning Energy"]
    assert deck.lines[0].line == 2  # line numbers count the headers and blank lines


def test_61_cards_are_refused_naming_the_count():
    text = PTCGL.replace("4 Rare Candy SVI 191", "5 Rare Candy SVI 191")
    assert messages(POKEMON, text) == [
        "Line 16: 5 cards named Rare Candy; at most 4.",
        "The deck has 61 cards; it must have exactly 60.",
    ]
    short = PTCGL.replace("4 Rare Candy SVI 191", "3 Rare Candy SVI 191")
    assert messages(POKEMON, short) == ["The deck has 59 cards; it must have exactly 60."]


def test_two_printings_of_one_name_count_together_and_name_both_lines():
    text = PTCGL.replace("2 Pikachu ex OBF 63", "3 Pikachu ex OBF 63").replace(
        "4 Rare Candy SVI 191", "3 Rare Candy SVI 191"
    )
    assert messages(POKEMON, text) == ["Lines 2, 3: 5 cards named Pikachu ex together; at most 4."]


@pytest.mark.parametrize(
    "energy",
    [
        "Lightning Energy",
        "Basic Lightning Energy",
        "Basic {L} Energy SVE 4",
        "Lightning Energy Energy 4",
        "lightning energy",
        "Energía Rayo",
        "Darkness Energy",
        "Basic {M} Energy",
    ],
)
def test_basic_energy_is_exempt_from_the_four_copies(energy):
    deck = "4 Pikachu ex SVI 57\n" + f"56 {energy}\n"
    assert messages(POKEMON, deck) == []


@pytest.mark.parametrize(
    "special", ["Double Turbo Energy BRS 151", "Jet Energy PAL 190", "Reversal Energy PAL 192"]
)
def test_special_energy_is_not_basic_energy(special):
    deck = f"5 {special}\n55 Lightning Energy\n"
    name = special.rsplit(" ", 2)[0]
    assert messages(POKEMON, deck) == [f"Line 1: 5 cards named {name}; at most 4."]


def test_names_are_compared_case_accent_and_apostrophe_blind():
    deck = "3 Pokémon Catcher\n2 pokemon catcher\n3 Boss’s Orders\n2 Boss's Orders\n50 Fire Energy"
    assert messages(POKEMON, deck) == [
        "Lines 1, 2: 5 cards named Pokémon Catcher together; at most 4.",
        "Lines 3, 4: 5 cards named Boss’s Orders together; at most 4.",
    ]
    assert card_key("  Pokémon   Catcher ") == "pokemon catcher"


@pytest.mark.parametrize(
    ("line", "count", "name"),
    [
        ("4 Pikachu ex SVI 057", 4, "Pikachu ex"),
        ("4x Pikachu ex", 4, "Pikachu ex"),
        ("4 x Pikachu ex", 4, "Pikachu ex"),
        ("* 4 Pikachu ex SVI 57", 4, "Pikachu ex"),
        ("1 Jirachi PR-SV 161", 1, "Jirachi"),
        ("2 Charizard ex OBF 223a", 2, "Charizard ex"),
        ("1 Pikachu TG05", 1, "Pikachu TG05"),  # a lone number is no set code
        ("4 Zacian V", 4, "Zacian V"),  # no number: the V stays
        ("4 Lugia VSTAR SIT 139", 4, "Lugia VSTAR"),
        ("3 Xerneas", 3, "Xerneas"),  # an X that starts a name is no "x"
        ("4 Lightning Bolt (2XM) 141", 4, "Lightning Bolt"),
        ("4 Lightning Bolt (2XM)", 4, "Lightning Bolt"),
        ("4 Lightning Bolt [2XM]", 4, "Lightning Bolt"),
        ("1 Ragavan, Nimble Pilferer (MH2) 138 *F*", 1, "Ragavan, Nimble Pilferer"),
        ("2 Fable of the Mirror-Breaker", 2, "Fable of the Mirror-Breaker"),
    ],
)
def test_set_codes_and_collector_numbers_are_tolerated(line, count, name):
    (card,) = parse_decklist(line, {}).lines
    assert (card.count, card.name, card.line) == (count, name, 1)


def test_an_unreadable_line_and_a_count_of_zero_are_refused_naming_each_line():
    text = "4 Pikachu ex\nPikachu ex x4\n\n0 Raichu\n// a comment\nTotal Cards: 60"
    with pytest.raises(DeckListError) as refused:
        POKEMON.validate(text, "4 Pikachu ex")
    assert [(str(p.message), p.lines) for p in refused.value.problems] == [
        (
            "Line 2: “Pikachu ex x4” is not a card line: write the count, then the card's "
            "name (4 Pikachu ex).",
            (2,),
        ),
        ("Line 4: “0 Raichu”: 0 is not a number of cards (1–999).", (4,)),
    ]
    assert isinstance(refused.value.problems[0].message, Text)  # translated where shown
    assert refused.value.problems[0].message.msgid.startswith("Line %(line)s")


def test_a_header_of_another_game_is_an_unreadable_line():
    assert messages(POKEMON, "Sideboard\n60 Fire Energy", "4 Pikachu ex") == [
        "Line 1: “Sideboard” is not a card line: write the count, then the card's name "
        "(4 Pikachu ex)."
    ]
    assert (
        POKEMON_HEADERS["total cards"] is None and MAGIC_HEADERS["sideboard"] is Section.SIDEBOARD
    )


def test_pokemon_has_no_sideboard():
    assert messages(POKEMON, "60 Fire Energy\nSB: 2 Fire Energy") == [
        "This game has no sideboard: 2 cards are under one."
    ]


def test_an_overlong_paste_is_refused_at_once():
    with pytest.raises(DeckListError, match=f"at most {MAX_LINES} are read"):
        POKEMON.parse("1 Fire Energy\n" * (MAX_LINES + 1))


ARENA = """Deck
4 Lightning Bolt (2XM) 141
4 Monastery Swiftspear (BRO) 144
4 Play with Fire (MID) 154
4 Kumano Faces Kakkazan (NEO) 152
4 Light Up the Stage (SNC) 117
4 Fireblast (VIS) 79
4 Skewer the Critics (RNA) 115
4 Lava Spike (CHK) 178
4 Rift Bolt (TSP) 176
4 Chain Lightning (SMA) 6
20 Mountain (NEO) 293

Sideboard
3 Roiling Vortex (ZNR) 156
4 Smash to Smithereens (SHM) 100
4 Path of Peril (VOW) 124
4 Pyroclasm (M11) 149
"""


def test_an_arena_magic_list_with_a_sideboard_of_15_is_legal():
    deck = MAGIC.validate(ARENA)
    assert (deck.total(Section.MAIN), deck.total(Section.SIDEBOARD)) == (60, 15)
    assert deck.sideboard[0].name == "Roiling Vortex" and deck.sideboard[0].line == 15


def test_magic_sideboard_of_16_is_refused_naming_the_count():
    text = ARENA.replace("3 Roiling Vortex", "4 Roiling Vortex")
    assert messages(MAGIC, text) == ["The sideboard has 16 cards; at most 15."]


def test_magic_main_deck_of_59_is_refused_and_more_than_60_is_legal():
    assert messages(MAGIC, ARENA.replace("20 Mountain", "19 Mountain")) == [
        "The main deck has 59 cards; it needs at least 60."
    ]
    assert messages(MAGIC, ARENA.replace("20 Mountain", "25 Mountain")) == []


def test_magic_four_copies_count_the_main_deck_and_sideboard_together():
    """MTR 100.2a: four of a card in the main deck and sideboard combined."""
    text = ARENA.replace("3 Roiling Vortex (ZNR) 156", "1 Roiling Vortex\n2 Lightning Bolt")
    assert messages(MAGIC, text) == [
        "Lines 2, 16: 6 cards named Lightning Bolt together; at most 4."
    ]


@pytest.mark.parametrize(
    "land", ["Mountain", "Snow-Covered Mountain", "Wastes", "Montaña", "Relentless Rats"]
)
def test_basic_lands_and_any_number_cards_are_exempt(land):
    assert messages(MAGIC, f"4 Lightning Bolt\n56 {land}\n") == []


def test_a_card_with_a_number_of_its_own_keeps_it():
    assert messages(MAGIC, "7 Seven Dwarves\n53 Mountain") == []
    assert messages(MAGIC, "8 Seven Dwarves\n52 Mountain") == [
        "Line 1: 8 cards named Seven Dwarves; at most 7."
    ]


def test_magic_sideboard_by_line_prefix_and_headers_with_counts():
    deck = MAGIC.parse("Creatures (24)\n24 Goblin Guide\nLands: 36\n36 Mountain\nSB: 2 Duress")
    assert [(c.name, c.section) for c in deck.lines] == [
        ("Goblin Guide", Section.MAIN),
        ("Mountain", Section.MAIN),
        ("Duress", Section.SIDEBOARD),
    ]


def test_a_ruleset_without_deck_rules_takes_any_readable_list():
    assert get_ruleset("bo3-wins-against").decklist is None
    assert messages(ANY_DECK, "1 Anything at all\nSideboard\n30 Other") == []
    assert messages(ANY_DECK, "Sideboard\n") == ["The main deck has 0 cards; it needs at least 1."]


@pytest.mark.parametrize(
    ("ruleset", "championship_points", "options", "collected"),
    [
        ("pokemon", True, {}, True),  # P-POST-5
        ("pokemon", False, {}, False),
        ("mtg", False, {"rules_enforcement_level": "competitive"}, True),
        ("mtg", False, {"rules_enforcement_level": "professional"}, True),
        ("mtg", False, {"rules_enforcement_level": "regular"}, False),
        ("mtg", False, {}, False),
    ],
)
def test_P_POST_5_lists_are_collected_by_default_at_cp_and_competitive_events(
    ruleset, championship_points, options, collected
):
    rules = get_ruleset(ruleset).decklist
    assert rules is not None
    assert rules.required_by_default(championship_points, options) is collected


def test_every_ruleset_declares_deck_rules_or_none_and_the_option_is_declared():
    for ruleset in RULESETS.values():
        assert ruleset.decklist is None or isinstance(ruleset.decklist, DeckRules)
    spec = {o.name: o for o in get_ruleset("mtg").options}["rules_enforcement_level"]
    assert (spec.default, spec.choices) == ("regular", ("regular", "competitive", "professional"))


# --- each game's own example -------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "line", "codes"),
    [
        ("pokemon", "4 Pikachu ex", "SVI 057, PR-SV 161"),
        ("pokemon-2009", "4 Pikachu ex", "SVI 057, PR-SV 161"),
        ("mtg", "4 Lightning Bolt", "(2XM) 141"),
        ("mtg-multiplayer", "1 Sol Ring", "(2XM) 141"),
    ],
)
def test_each_game_declares_its_own_deck_list_example(ruleset, line, codes):
    example = get_ruleset(ruleset).deck_example
    assert example is not None and (example.line, example.set_codes) == (line, codes)


def test_a_ruleset_of_no_known_game_has_no_example():
    assert get_ruleset("bo3-wins-against").deck_example is None


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if get_ruleset(r).deck_example])
def test_every_example_is_a_card_line_and_its_set_codes_are_tolerated(ruleset):
    example = get_ruleset(ruleset).deck_example
    assert example is not None
    (card,) = parse_decklist(example.line, {}).lines
    count, name = example.line.split(" ", 1)
    assert (card.count, card.name) == (int(count), name)
    for code in example.set_codes.split(", "):
        (coded,) = parse_decklist(f"{example.line} {code}", {}).lines
        assert coded.name == name, code


def test_an_unreadable_line_names_the_games_own_example_or_none():
    assert messages(MAGIC, "Lightning Bolt x4", "4 Lightning Bolt") == [
        "Line 1: “Lightning Bolt x4” is not a card line: write the count, then the card's "
        "name (4 Lightning Bolt)."
    ]
    assert messages(ANY_DECK, "Lightning Bolt x4") == [
        "Line 1: “Lightning Bolt x4” is not a card line: write the count, then the card's name."
    ]
