"""Infractions as ruleset data and repeated infractions: pure, no
database. RULES.md is silent on penalties; the names are the Play! Pokémon penalty
guidelines' categories and the Magic Infraction Procedure Guide's."""

from __future__ import annotations

import pytest

from rulesets import RULESETS, get_ruleset
from rulesets.penalties import infraction_key, infraction_named, repeated_infractions


@pytest.mark.parametrize(
    ("ruleset", "names"),
    [
        (
            "pokemon",
            {"Procedural Error – Minor", "Gameplay Error – Major", "Unsporting Conduct – Severe"},
        ),
        ("pokemon-2009", {"Tardiness", "Marked Cards", "Cheating"}),
        ("mtg", {"Missed Trigger", "Looking at Extra Cards", "Failure to Maintain Game State"}),
        ("mtg-multiplayer", {"Slow Play", "Outside Assistance", "Insufficient Shuffling"}),
    ],
)
def test_each_card_game_ruleset_names_its_infractions(ruleset, names):
    listed = {i.name for i in get_ruleset(ruleset).infractions}
    assert names <= listed
    assert len(listed) == len(get_ruleset(ruleset).infractions)  # each name once


def test_magic_infractions_carry_the_procedure_guides_sections_in_order():
    sections = [i.section for i in get_ruleset("mtg").infractions]
    assert sections[:3] == ["2.1", "2.2", "2.3"] and sections[-1] == "4.8"
    assert sections == sorted(sections, key=lambda s: tuple(map(int, s.split("."))))


def test_a_ruleset_without_a_penalty_document_lists_none():
    assert get_ruleset("bo3-wins-against").infractions == ()
    assert all(isinstance(r.infractions, tuple) for r in RULESETS.values())


@pytest.mark.parametrize(
    "spelling",
    [
        "Gameplay Error – Minor",
        "gameplay error - minor",
        "  GAMEPLAY   ERROR—MINOR ",
        "Gameplay Error-Minor",
    ],
)
def test_an_infraction_is_found_whatever_its_case_spaces_or_dash(spelling):
    found = infraction_named(get_ruleset("pokemon").infractions, spelling)
    assert found is not None and found.name == "Gameplay Error – Minor"
    assert infraction_key(spelling) == "gameplay error-minor"


def test_an_unlisted_name_is_not_an_infraction_of_the_ruleset():
    assert infraction_named(get_ruleset("mtg").infractions, "Rude remarks") is None


def test_an_infraction_noted_twice_for_one_player_is_repeated_with_its_count():
    notes = [
        (1, "Slow Play"),
        (2, "Slow Play"),
        (1, "slow play"),
        (1, "Marked Cards"),
        (1, "Slow  Play"),
        (3, "Tardiness"),
        (3, "Cheating"),
    ]
    assert repeated_infractions(notes) == {1: {"Slow Play": 3}}


def test_no_note_repeated_gives_nothing_and_blank_names_never_count():
    assert repeated_infractions([(1, "Tardiness"), (2, "Tardiness"), (1, " "), (1, "")]) == {}
