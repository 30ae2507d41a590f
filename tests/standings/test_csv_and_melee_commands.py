"""docs/interfaces.md commands ``export_csv`` and ``import_melee``, on the real events."""

from __future__ import annotations

import csv
import json

import pytest
from django.core.management import CommandError

from interchange.formats.melee import melee_published_standings
from tests.standings.test_other_rulesets import MELEE, WER, run
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_export_csv_standings_of_a_wer_event_has_the_rulesets_columns(tmp_path):
    slug = run("import_wer", str(WER)).strip().splitlines()[-1]
    path = tmp_path / "standings.csv"
    run("export_csv", slug, "standings", str(path))
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM
    rows = list(csv.reader(raw.decode("utf-8-sig").splitlines()))
    assert rows[0] == [
        "division", "place", "player id", "name", "record", "match points", "OMW %", "GW %", "OGW %",
        "dropped",
    ]  # fmt: skip
    data = json.loads(run("standings", slug, "--json"))
    (lines,) = data["divisions"].values()
    assert [r[2] for r in rows[1:]] == [line["player"] for line in lines]
    first = lines[0]
    assert rows[1][5] == str(first["match_points"])
    assert float(rows[1][6]) == pytest.approx(first["tiebreakers"]["omw"])


def test_export_csv_pairings_lists_the_last_round_by_table(tmp_path):
    slug = run("import_wer", str(WER)).strip().splitlines()[-1]
    path = tmp_path / "pairings.csv"
    run("export_csv", slug, "pairings", str(path))
    rows = list(csv.reader(path.read_text(encoding="utf-8-sig").splitlines()))
    assert rows[0][:5] == ["round", "group", "table", "player 1 id", "player 1"]
    event = Event.objects.get(slug=slug)
    last = event.rounds.order_by("number").last()
    assert {r[0] for r in rows[1:]} == {str(last.number)}
    assert len(rows) - 1 == last.matches.count()


def test_export_csv_refuses_an_unknown_event(tmp_path):
    with pytest.raises(CommandError, match="No event with slug 'nope'"):
        run("export_csv", "nope", "standings", str(tmp_path / "x.csv"))


@pytest.mark.parametrize("path", MELEE[:2], ids=lambda p: p.stem)
def test_R_7_import_melee_reproduces_the_published_ranking(path):
    slug = run("import_melee", str(path)).strip().splitlines()[-1]
    event = Event.objects.get(slug=slug)
    assert event.options["mwp_floor"] == "1/3" and event.options["melee_ranking"] is True
    data = json.loads(run("standings", slug, "--json"))
    (lines,) = data["divisions"].values()
    published = melee_published_standings(json.loads(path.read_text()))
    ranked = [row.player for row in sorted(published, key=lambda r: r.rank)]
    # melee.gg ranks by the Swiss; players outside a top cut keep that order (P-TC-2).
    outside = [line["player"] for line in lines if not line["top_cut"]]
    assert outside == [p for p in ranked if p in set(outside)]
    assert {line["player"] for line in lines} == set(ranked)


def test_import_melee_refuses_a_malformed_file_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"Rounds": [{"Matches": [{"Result": "2-0-0"}]}]}')
    with pytest.raises(CommandError, match="bad.json"):
        run("import_melee", str(bad))
    bad.write_bytes(b"\xff\xfe not json")
    with pytest.raises(CommandError, match="bad.json"):
        run("import_melee", str(bad))
    assert not Event.objects.exists()


def test_standings_command_prints_the_rulesets_own_columns_as_text():
    slug = run("import_wer", str(WER)).strip().splitlines()[-1]
    text = run("standings", slug)
    header = text.splitlines()[0]
    assert "OMW %" in header and "GW %" in header and "OGW %" in header
    assert "OWP" not in header
    first = text.splitlines()[2]
    assert first.count("%") == 3


def test_an_imported_event_shows_its_standings_at_once(client, django_capture_on_commit_callbacks):
    """Nothing computed standings after an import, so the public page said
    'Standings appear here after the first round is complete' with every round played."""
    from django.urls import reverse

    with django_capture_on_commit_callbacks(execute=True):
        slug = run("import_wer", str(WER)).strip().splitlines()[-1]
    page = client.get(reverse("public:standings", args=[slug])).content.decode()
    assert "Standings appear here" not in page
    assert '<table class="standings">' in page and "OMW %" in page
