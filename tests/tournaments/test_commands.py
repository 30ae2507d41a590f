"""The stable commands of docs/interfaces.md, driven as an organiser or a script would."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from interchange.formats.tdf import parse_tdf
from tests.paths import DATA
from tournaments.models import Event, Registration

pytestmark = pytest.mark.django_db

TDF = DATA / "pokemon" / "2025-dg-nov-cup.tdf"
DIVISION_CATEGORY = {"masters": 2, "senior": 1, "junior": 0}


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def official_places() -> dict[str, list[str]]:
    t = parse_tdf(TDF.read_bytes())
    return {d: list(t.official_places(c)) for d, c in DIVISION_CATEGORY.items()}


def places(standings_json: str) -> dict[str, list[str]]:
    data = json.loads(standings_json)
    return {d: [row["player"] for row in rows] for d, rows in data["divisions"].items()}


def test_R_5_import_tdf_reproduces_every_official_place_in_every_division():
    slug = run("import_tdf", str(TDF)).strip().splitlines()[-1]
    assert Event.objects.filter(slug=slug).exists()
    assert places(run("standings", slug, "--json")) == official_places()


def test_standings_json_has_the_interface_fields_with_six_decimals():
    slug = run("import_tdf", str(TDF)).strip().splitlines()[-1]
    text = run("standings", slug, "--json")
    data = json.loads(text)
    first = data["divisions"]["masters"][0]
    assert data["ruleset"] == "pokemon" and data["event"] == slug
    assert set(first) >= {
        "place",
        "player",
        "name",
        "match_points",
        "record",
        "dropped",
        "top_cut",
        "tiebreakers",
    }
    assert first["place"] == 1 and first["top_cut"] is True
    assert set(first["tiebreakers"]) == {"owp", "oowp"}
    assert '"owp": 0.' in text and len(text.split('"owp": ')[1].split(",")[0]) >= 8


def test_export_then_import_event_gives_the_same_standings(tmp_path):
    slug = run("import_tdf", str(TDF)).strip().splitlines()[-1]
    path = tmp_path / "event.json"
    run("export_event", slug, str(path))
    doc = json.loads(path.read_text())
    assert doc["format"] == "matchslip.event.v1" and len(doc["players"]) == 29
    slug2 = run("import_event", str(path)).strip().splitlines()[-1]
    assert slug2 != slug
    assert places(run("standings", slug2, "--json")) == places(run("standings", slug, "--json"))


def test_malformed_tdf_is_refused_naming_the_fault_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.tdf"
    text = TDF.read_text().replace('<player1 userid="9000016"/>', '<player1 userid="nobody"/>', 1)
    bad.write_text(text)
    with pytest.raises(CommandError, match="nobody"):
        run("import_tdf", str(bad))
    assert Event.objects.count() == 0 and Registration.objects.count() == 0


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"format": "other"}, "format"),
        (
            {"format": "matchslip.event.v1", "name": "X", "players": [{"id": "a"}]},
            r"players\[0\].name",
        ),
        (
            {"format": "matchslip.event.v1", "name": "X", "options": {"colour": 1}, "players": []},
            "unknown option",
        ),
        (
            {
                "format": "matchslip.event.v1",
                "name": "X",
                "players": [{"id": "a", "name": "A"}],
                "rounds": [{"number": 1, "matches": [{"players": ["a", "zz"], "result": "a"}]}],
            },
            r"rounds\[0\].matches\[0\].players: unknown player id 'zz'",
        ),
        (
            {
                "format": "matchslip.event.v1",
                "name": "X",
                "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
                "rounds": [{"number": 1, "matches": [{"players": ["a", "b"], "result": "c"}]}],
            },
            r"rounds\[0\].matches\[0\].result",
        ),
    ],
)
def test_malformed_event_json_is_refused_naming_the_field(tmp_path, doc, message):
    path = tmp_path / "e.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(CommandError, match=message):
        run("import_event", str(path))
    assert Event.objects.count() == 0


def test_pair_command_pairs_and_is_refused_while_results_are_missing(tmp_path):
    doc = {
        "format": "matchslip.event.v1",
        "name": "Tiny",
        "ruleset": "pokemon",
        "divisions": [{"code": "open", "group": "open", "swiss_rounds": 3}],
        "players": [{"id": f"p{i}", "name": f"P {i}"} for i in range(1, 6)],
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(doc))
    slug = run("import_event", str(path)).strip()
    out = json.loads(run("pair", slug, "--seed", "7", "--publish", "--json"))
    assert out["round"] == 1 and out["phase"] == "swiss"
    assert sorted(len(m["players"]) for m in out["matches"]) == [1, 2, 2]
    with pytest.raises(CommandError, match="Round 1 is published"):
        run("pair", slug, "--json")
