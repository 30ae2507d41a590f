"""Identity as data: a pairing group's divisions, flight, phase and
parent, a match's kind and a cut's seeds are stored when they are made, and nothing is
read back from a group's key or a match's explanation (``why`` is for people only)."""

from __future__ import annotations

import json

import pytest

from interchange.formats.checks import FileRefused
from interchange.formats.event_json import parse_event_json
from interchange.services.exports import event_export
from interchange.services.imports import event_import
from pairings.procedures import next_step
from pairings.services import round_pair
from standings.services import standings_data
from tests import factories
from tests.pairings.test_event_flow import play, top_4_with_playoff
from tournaments.groups import group_seeds
from tournaments.models import GroupPhase, Match, MatchKind, Phase, match_kind


@pytest.mark.django_db(transaction=True)
def test_P_TC_1_P_TC_4_the_cut_is_a_group_with_stored_seeds_and_kinds(organiser):
    event, _, semis, last = top_4_with_playoff(organiser)
    cut = semis.group
    assert (cut.phase, cut.parent.key, cut.flight) == (GroupPhase.TOP_CUT, "open", None)
    assert [d.code for d in cut.divisions.all()] == ["open"]
    swiss_order = [r["player"] for r in standings_data(event)["divisions"]["open"]]
    ext = dict(event.registrations.values_list("pk", "external_id"))
    seeds = sorted(group_seeds(cut).items(), key=lambda kv: kv[1])
    assert [(ext[reg], seed) for reg, seed in seeds] == [
        (pid, n) for n, pid in enumerate(swiss_order[:4], start=1)
    ]
    assert set(semis.matches.values_list("kind", flat=True)) == {MatchKind.BRACKET}
    kinds = list(last.matches.order_by("table").values_list("kind", flat=True))
    assert kinds == [MatchKind.BRACKET, MatchKind.THIRD_PLACE]


@pytest.mark.django_db(transaction=True)
def test_why_is_display_only_rewording_it_changes_no_step_and_no_standing(organiser):
    event, _, _, last = top_4_with_playoff(organiser)
    play(last, organiser, pick=1)
    before = standings_data(event)
    step = next_step(event, "open-top-cut")
    Match.objects.filter(round__event=event).update(why="reworded by a translator")
    assert standings_data(event) == before
    assert next_step(event, "open-top-cut").kind == step.kind == "done"


@pytest.mark.django_db(transaction=True)
def test_the_group_key_is_a_name_only_any_key_pairs_the_same(organiser):
    event = factories.event_with_players(
        6, by=organiser, swiss_rounds=1, divisions={"open": "the big hall, table group A"}
    )
    (rnd,) = round_pair(event=event, group="the big hall, table group A", by=organiser, seed=4)
    assert rnd.group.phase == GroupPhase.SWISS and rnd.phase == Phase.SWISS
    assert rnd.matches.count() == 3
    assert set(rnd.matches.values_list("kind", flat=True)) == {MatchKind.SWISS}


@pytest.mark.django_db(transaction=True)
def test_event_json_keeps_the_playoff_kind_and_the_cut_seeds(organiser):
    event, _, semis, last = top_4_with_playoff(organiser)
    doc = event_export(event)
    playoff = [m for r in doc["rounds"] for m in r["matches"] if m.get("kind")]
    assert [m["kind"] for m in playoff] == ["third-place"]
    for m in playoff:
        m["why"] = "reworded"  # the kind, not the explanation, says what it is
    copy = event_import(data=parse_event_json(json.loads(json.dumps(doc))), by=organiser)
    kinds = Match.objects.filter(round__event=copy, kind=MatchKind.THIRD_PLACE)
    assert kinds.count() == 1
    ext = dict(copy.registrations.values_list("pk", "external_id"))
    orig = dict(event.registrations.values_list("pk", "external_id"))
    cut = copy.groups.get(phase=GroupPhase.TOP_CUT)
    assert {ext[r]: s for r, s in group_seeds(cut).items()} == {
        orig[r]: s for r, s in group_seeds(semis.group).items()
    }


def test_event_json_refuses_an_unknown_match_kind():
    doc = {
        "format": "matchslip.event.v1",
        "name": "Cup",
        "ruleset": "pokemon",
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "rounds": [
            {
                "number": 1,
                "phase": "swiss",
                "matches": [{"table": 1, "players": ["a", "b"], "result": "a", "kind": "final"}],
            }
        ],
    }
    with pytest.raises(FileRefused, match=r"rounds\[0\]\.matches\[0\]\.kind: expected one of"):
        parse_event_json(doc)


@pytest.mark.parametrize(
    ("phase", "outcome", "third_place", "kind"),
    [
        ("swiss", "pending", False, "swiss"),
        ("swiss-day2", "win", False, "swiss"),
        ("swiss", "bye", False, "bye"),
        ("swiss", "loss", False, "late-entry-loss"),
        ("top-cut", "pending", False, "bracket"),
        ("top-cut", "pending", True, "third-place"),
        ("single-elimination", "bye", False, "bye"),
        ("swiss", "pending", True, "swiss"),  # a Swiss round has no playoff
    ],
)
def test_P_SW_5_P_LATE_1_P_TC_4_a_match_kind_is_decided_once(phase, outcome, third_place, kind):
    assert match_kind(phase, outcome, third_place=third_place) == kind
