"""The ruleset registry: every ruleset is one pure module declaring what
differs, and the declarations say what docs/rules.md and docs/interfaces.md say."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest

import rulesets
from rulesets import RULESETS, MatchFormat, get_ruleset
from rulesets.base import as_decimal, as_integer, as_percent

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "rulesets").glob("*.py"))
ALLOWED_PREFIXES = ("rulesets", "standings.engine", "__future__")


def _imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_ruleset_modules_are_plain_python_every_app_may_import(path):
    project = ("django", "tournaments", "pairings", "standings", "config")
    bad = [
        name
        for name in _imports(path)
        if name.split(".")[0] in project and not name.startswith(ALLOWED_PREFIXES)
    ]
    assert bad == []


def test_the_registry_holds_the_five_rulesets_of_rules_md_in_form_order():
    assert list(RULESETS) == [
        "pokemon",
        "pokemon-2009",
        "mtg",
        "mtg-multiplayer",
        "bo3-wins-against",
    ]
    assert rulesets.choices()[0] == ("pokemon", "Play! Pokémon (2019 procedures)")
    with pytest.raises(KeyError, match="unknown ruleset 'chess'"):
        get_ruleset("chess")


@pytest.mark.parametrize(
    ("ruleset", "keys"),
    [
        ("pokemon", ("owp", "oowp")),
        ("pokemon-2009", ("owp", "oowp")),
        ("mtg", ("omw", "gw", "ogw")),
        ("mtg-multiplayer", ("mwp", "oamp", "omwp")),
        ("bo3-wins-against", ("wins_against", "game_wins", "win_pct")),
    ],
)
def test_tiebreaker_columns_are_the_standings_json_keys_of_interfaces_md(ruleset, keys):
    rs = get_ruleset(ruleset)
    assert rs.tiebreakers == keys
    for column in rs.columns:
        assert column.heading and column.abbreviation and column.explanation


def test_M_TB_columns_are_headed_omw_gw_ogw_percent():
    assert [c.heading for c in get_ruleset("mtg").columns] == ["OMW %", "GW %", "OGW %"]


@pytest.mark.parametrize(
    ("ruleset", "win", "tie", "draw_word"),
    [
        ("pokemon", 3, 1, "Tie"),
        ("pokemon-2009", 1, 0, ""),
        ("mtg", 3, 1, "Draw"),
        ("bo3-wins-against", 1, 0, ""),
    ],
)
def test_points_and_the_word_for_a_drawn_match(ruleset, win, tie, draw_word):
    rs = get_ruleset(ruleset)
    assert (rs.match_points(1, 0), rs.match_points(0, 1)) == (win, tie)
    assert rs.draw_word == draw_word
    assert rs.allows_ties is bool(draw_word)


def test_MP_PTS_1_a_pod_win_is_2n_minus_1_points():
    rs = get_ruleset("mtg-multiplayer")
    assert rs.points_per_win({}) == 7
    assert rs.points_per_win({"pod_size": 3}) == 5
    assert rs.match_points(2, 1, {"pod_size": 4}) == 15


def test_match_formats_follow_the_ruleset_table():
    formats = {r.id: r.match_format for r in RULESETS.values()}
    assert formats == {
        "pokemon": MatchFormat.SINGLE_GAME,
        "pokemon-2009": MatchFormat.SINGLE_GAME,
        "mtg": MatchFormat.BEST_OF_3,
        "mtg-multiplayer": MatchFormat.POD,
        "bo3-wins-against": MatchFormat.BEST_OF_3,
    }
    assert get_ruleset("mtg").game_verdict((2, 1, 0), elimination=False) == ("win", 0)
    with pytest.raises(ValueError, match="no drawn matches"):
        get_ruleset("bo3-wins-against").game_verdict((1, 1, 1), elimination=False)
    with pytest.raises(ValueError, match="record match results, not games"):
        get_ruleset("pokemon").game_verdict((2, 0, 0), elimination=False)


def test_pokemon_only_procedures_are_off_for_other_games():
    for rs in RULESETS.values():
        features = rs.features
        pokemon = rs.id.startswith("pokemon")
        assert features.age_divisions is pokemon
        assert features.day2 is (rs.id == "pokemon")
        assert features.championship_points is (rs.id == "pokemon")


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_P_RT_5_five_to_eight_magic_players_play_three_single_elimination_rounds(players):
    rec = get_ruleset("mtg").recommend(players)
    assert (rec.rounds, rec.cut, rec.elimination_rounds) == (0, 0, 3)
    assert rec.structure == "single-elimination"


@pytest.mark.parametrize(
    ("ruleset", "players", "structure", "rounds", "cut"),
    [
        ("mtg", 9, "swiss-top-cut", 5, 4),
        ("mtg", 40, "swiss-top-cut", 6, 8),
        ("bo3-wins-against", 8, "swiss", 3, 0),  # P-RT-7
        ("bo3-wins-against", 12, "swiss-top-cut", 4, 4),
        ("mtg-multiplayer", 22, "swiss-top-cut", 3, 7),  # P-RT-6 with two 3-pods
        ("pokemon", 8, "swiss", 3, 0),  # P-RT-1
        ("pokemon", 24, "swiss-top-cut", 5, 8),
    ],
)
def test_P_RT_recommendations_say_which_structure_to_announce(
    ruleset, players, structure, rounds, cut
):
    rec = get_ruleset(ruleset).recommend(players)
    assert (rec.structure, rec.rounds, rec.cut) == (structure, rounds, cut)


def test_P_RT_5_draft_playoff_option_reads_the_draft_table():
    rec = get_ruleset("mtg").recommend(12, options={"playoff_seating": "draft"})
    assert (rec.rounds, rec.cut) == (4, 8)


@pytest.mark.parametrize(
    ("structure", "rounds", "cut", "problem"),
    [
        ("swiss-top-cut", 5, 0, "needs a top cut"),
        ("swiss", 3, 8, "has no top cut"),
        ("swiss", 0, 0, "at least one round"),
        ("single-elimination", 3, 0, "no Swiss rounds"),
        ("swiss-top-cut", 5, 7, "top cut has 2, 4, 8, 16, 32, 64"),
        ("swiss-top-cut", 5, 8, ""),
        ("single-elimination", 0, 0, ""),
        ("swiss", 3, 0, ""),
    ],
)
def test_S_1_a_structure_that_cannot_run_is_named(structure, rounds, cut, problem):
    found = get_ruleset("mtg").structure_problem(structure, rounds, cut)
    assert (problem in found) if problem else found == ""


def test_MP_SE_1_pod_events_take_pod_cuts_and_no_standalone_bracket():
    rs = get_ruleset("mtg-multiplayer")
    assert rs.allowed_cuts() == (0, 4, 7, 10, 13, 16, 40, 64)
    assert "not Single elimination" in rs.structure_problem("single-elimination", 0, 0)


def test_P_TB_8_column_formatters_round_only_for_display():
    assert as_percent(Fraction(49, 80)) == "61.25%"
    assert as_percent(0.61245) == "61.25%"
    assert as_percent(None) == ""
    assert as_decimal(7.5) == "7.50"
    assert as_integer(3) == "3"
