"""``import_event`` and ``standings --json`` for every 1v1 ruleset, with the
tiebreaker keys docs/interfaces.md lists, hand-checked values (M-PTS-1, M-TB, W-TB-1,
W-TB-2, P-TB with 1 point per win) and ``export_event`` keeping the game records."""

from __future__ import annotations

import json
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db

#: 5 players, 2 rounds; e has the round-1 bye. Final: a 2-0, b 1-1, c 1-1, e 1-1, d 0-2.
ROUNDS = [
    [("ab", "a", [2, 1, 0]), ("cd", "c", [2, 0, 0]), ("e", "bye", None)],
    [("ac", "a", [2, 0, 0]), ("eb", "b", [1, 2, 0]), ("d", "bye", None)],
]


def document(ruleset: str, rounds=ROUNDS, games: bool = True) -> dict:
    def match(table, ids, result, record):
        m = {"table": table, "players": list(ids), "result": result}
        return m | ({"games": record} if games and record else {})

    return {
        "format": "matchslip.event.v1",
        "name": f"Tiny {ruleset}",
        "ruleset": ruleset,
        "players": [{"id": p, "name": p.upper()} for p in "abcde"],
        "rounds": [
            {"number": n, "matches": [match(t, *m) for t, m in enumerate(ms, start=1)]}
            for n, ms in enumerate(rounds, start=1)
        ],
    }


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def standings(tmp_path, doc) -> tuple[str, dict, str]:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(doc))
    slug = run("import_event", str(path)).strip().splitlines()[-1]
    text = run("standings", slug, "--json")
    return slug, json.loads(text), text


@pytest.mark.parametrize(
    ("ruleset", "keys"),
    [
        ("pokemon", {"owp", "oowp"}),
        ("pokemon-2009", {"owp", "oowp"}),
        ("mtg", {"omw", "gw", "ogw"}),
        ("bo3-wins-against", {"wins_against", "game_wins", "win_pct"}),
    ],
)
def test_standings_json_of_every_ruleset_has_the_interface_tiebreaker_keys(tmp_path, ruleset, keys):
    games = ruleset in ("mtg", "bo3-wins-against")
    _, data, _ = standings(tmp_path, document(ruleset, games=games))
    (rows,) = data["divisions"].values()
    assert data["ruleset"] == ruleset
    assert all(set(r["tiebreakers"]) == keys for r in rows)
    assert rows[0]["player"] == "a" and rows[0]["record"] == "2-0-0"


def test_pokemon_2009_scores_1_point_per_win(tmp_path):
    _, data, _ = standings(tmp_path, document("pokemon-2009", games=False))
    points = {r["player"]: r["match_points"] for r in data["divisions"]["open"]}
    assert points == {"a": 2, "b": 1, "c": 1, "e": 1, "d": 1}  # d's round-2 bye is a win


def test_M_TB_mtg_json_values_are_exact_with_six_decimals(tmp_path):
    _, data, text = standings(tmp_path, document("mtg"))
    rows = {r["player"]: r for r in data["divisions"]["open"]}
    # a: games 2-1, 2-0 → 12 game points of 15 = 0.8 (M-PTS-2, M-TB-2)
    assert Fraction(str(rows["a"]["tiebreakers"]["gw"])) == Fraction(4, 5)
    # a's opponents b (1-1: 3/6 = 0.5) and c (1-1: 0.5) → OMW 0.5 (M-TB-3)
    assert Fraction(str(rows["a"]["tiebreakers"]["omw"])) == Fraction(1, 2)
    assert rows["e"]["match_points"] == 3 and rows["d"]["match_points"] == 3  # M-PTS-1 byes
    assert len(text.split('"gw": ')[1].split(",")[0]) >= 8


def test_W_TB_1_W_TB_2_bo3_wins_against_json_values(tmp_path):
    _, data, _ = standings(tmp_path, document("bo3-wins-against"))
    rows = data["divisions"]["open"]
    tb = {r["player"]: r["tiebreakers"] for r in rows}
    assert tb["a"]["wins_against"] == 2  # beat b (1 win) and c (1 win)
    # b beat e and c beat d, each ending with 1 win (their bye): 1 each; a bye adds 0
    assert (tb["b"]["wins_against"], tb["c"]["wins_against"], tb["e"]["wins_against"]) == (1, 1, 0)
    assert (tb["a"]["game_wins"], tb["b"]["game_wins"]) == (4, 3)
    assert [r["player"] for r in rows][:2] == ["a", "b"]


@pytest.mark.parametrize("ruleset", ["mtg", "bo3-wins-against"])
def test_export_event_keeps_the_game_records_of_best_of_3_rulesets(tmp_path, ruleset):
    slug, before, _ = standings(tmp_path, document(ruleset))
    path = tmp_path / "out.json"
    run("export_event", slug, str(path))
    doc = json.loads(path.read_text())
    assert doc["rounds"][0]["matches"][0]["games"] == [2, 1, 0]
    again = json.loads(run("standings", run("import_event", str(path)).strip(), "--json"))
    assert again["divisions"] == before["divisions"]


@pytest.mark.parametrize(
    ("ruleset", "match", "phase", "message"),
    [
        ("pokemon-2009", ("ab", "draw", None), "swiss", "rules have no ties"),
        ("bo3-wins-against", ("ab", "draw", [1, 1, 1]), "swiss", "rules have no ties"),
        ("mtg", ("ab", "draw", [1, 1, 1]), "top-cut", "cannot be a draw \\(M-SE-2\\)"),
        ("pokemon", ("ab", "draw", None), "top-cut", "cannot be a draw \\(M-SE-2\\)"),
        # beyond any best-of-5 (a 3-0 is an official record, kept as recorded)
        ("mtg", ("ab", "a", [4, 0, 0]), "swiss", "nobody wins more than 2 games"),
        ("mtg", ("ab", "a", [1, 2, 0]), "swiss", "does not give this result"),
        ("bo3-wins-against", ("ab", "b", [2, 2, 0]), "swiss", "does not give this result"),
    ],
)
def test_M_SE_2_M_MATCH_1_import_event_refuses_results_a_slip_would_refuse(
    tmp_path, ruleset, match, phase, message
):
    doc = document(ruleset, [[match, ("cd", "c", None), ("e", "bye", None)]], games=True)
    doc["rounds"][0]["phase"] = phase
    with pytest.raises(CommandError, match=f"rounds\\[0\\].matches\\[0\\].*{message}"):
        standings(tmp_path, doc)
