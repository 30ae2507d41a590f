"""``import_wer`` with playoff rounds and a drop, through the database and the
``standings --json`` command: the playoff goes to the top-cut bracket, cut players are
placed by the round they went out in (R-4), the dropped player is marked, and the
Wizards Event Reporter options are set (R-7 floor 0.33, R-8 playoffs in tiebreakers)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from tests.engine.test_wer import _doc
from tournaments.models import Event, Phase

pytestmark = pytest.mark.django_db

SWISS = (
    '<round number="1"><match person="a" opponent="b" outcome="1" win="2" loss="1" draw="0" />'
    '<match person="c" opponent="d" outcome="1" win="1" loss="0" draw="2" /></round>'
    '<round number="2"><match person="a" opponent="c" outcome="1" win="2" loss="0" draw="0" />'
    '<match person="b" opponent="d" outcome="1" win="2" loss="0" draw="0" /></round>'
)
FINAL = (
    '<round number="3"><match person="c" opponent="a" outcome="1" win="2" loss="1" draw="0" />'
    "</round>"
)
DROP = '<team status="3" eliminationround="2"><member person="d" /></team>'


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_R_4_R_8_import_wer_with_a_playoff_round_and_a_drop(tmp_path):
    path = tmp_path / "event.wer"
    path.write_text(_doc(SWISS + FINAL, DROP, event_attrs='playoffstartround="3"'))
    slug = run("import_wer", str(path)).strip().splitlines()[-1]
    event = Event.objects.get(slug=slug)
    assert event.options == {"mwp_floor": "0.33", "playoffs_in_tiebreakers": True}
    final = event.rounds.get(number=3)
    assert final.phase == Phase.TOP_CUT and final.group.key != "open"
    assert final.matches.get().games == [2, 1, 0]
    rows = json.loads(run("standings", slug, "--json"))["divisions"]["open"]
    assert [r["player"] for r in rows] == ["c", "a", "b", "d"]  # the final decides 1st
    assert [r["top_cut"] for r in rows] == [True, True, False, False]
    assert {r["player"]: r["dropped"] for r in rows}["d"] is True
    assert set(rows[0]["tiebreakers"]) == {"omw", "gw", "ogw"}
