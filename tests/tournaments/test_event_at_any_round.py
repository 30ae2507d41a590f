"""Event files at any point: the shared TOM event cut after each round imports
as running with the official standings of that round and pairs a valid next round; event
JSON without ``divisions`` infers its structure; an unreported round is continued; real
official records a live slip would refuse are kept with a warning and a note."""

from __future__ import annotations

import io
import json
from collections import defaultdict
from pathlib import Path

import pytest
from django.core.management import call_command

from interchange.formats.event_json import parse_event_json
from interchange.formats.melee import melee_to_event_data
from interchange.formats.tdf import parse_tdf, player_division
from interchange.formats.tdf_event import tdf_event_data
from interchange.services.exports import event_export
from interchange.services.imports import event_import
from pairings.procedures import event_group_keys, event_groups, next_step
from pairings.procedures.base import StepKind
from standings.engine.ranking import pokemon_standings
from standings.engine.types import Entrant, MatchRecord, Outcome
from standings.services import standings_data
from tests.paths import DATA
from tournaments import services
from tournaments.groups import in_group
from tournaments.models import Event, EventStatus, GroupPhase, Match
from tournaments.models import Outcome as MatchOutcome
from tournaments.services import Result
from tournaments.stored_text import shown

pytestmark = pytest.mark.django_db

TDF = DATA / "pokemon/2025-dg-nov-cup.tdf"
MELEE = DATA / "mtg/melee-legacy-2025-05-15.json"


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def cut_after(doc: dict, k: int) -> dict:
    """The event JSON as it stood after round ``k``: later rounds gone, later drops not
    yet made."""
    doc = json.loads(json.dumps(doc))
    doc["rounds"] = [r for r in doc["rounds"] if r["number"] <= k]
    for p in doc["players"]:
        if p["dropped_after_round"] is not None and p["dropped_after_round"] > k:
            p["dropped_after_round"] = None
    return doc


@pytest.fixture(scope="module")
def cup():
    return parse_tdf(TDF.read_bytes())


@pytest.fixture
def tom_doc(cup) -> dict:
    return event_export(event_import(data=tdf_event_data(cup), by=None))


def official_swiss_order(cup, division: str, k: int) -> list[str]:
    """The division's Swiss order after round ``k`` computed from the official file
    (as ``tests/engine/test_tdf_official_standings`` reads it)."""
    pod = next(p for p in cup.pods if division in p.divisions)
    rounds = [r for r in pod.swiss_rounds if r.number <= k]
    people = [
        Entrant(
            pid,
            late=not cup.player(pid).starter,
            dropped_after_round=d if (d := cup.player(pid).dropped_round) and d <= k else None,
        )
        for pid in pod.player_ids
    ]
    records = [
        MatchRecord(r.number, m.players, Outcome(m.result.value), m.winner)
        for r in rounds
        for m in r.matches
    ]
    rows = pokemon_standings(people, records, rounds=len(rounds))
    return [row.player for row in rows if player_division(cup, row.player) == division]


def assert_valid_next_round(event: Event, doc: dict, paired: dict) -> None:
    """Every active player of each paired Swiss group once, no rematch, the bye (if any)
    to a player without one from the lowest bracket (P-SW-5)."""
    active = {
        p["id"]
        for p in doc["players"]
        if p["dropped_after_round"] is None and not p["disqualified"]
    }
    met: dict[str, set[str]] = defaultdict(set)
    byes: set[str] = set()
    points: dict[str, int] = defaultdict(int)
    for r in doc["rounds"]:
        for m in r["matches"]:
            for pid in m["players"]:
                met[pid].update(set(m["players"]) - {pid})
            if m["result"] == "bye":
                byes.add(m["players"][0])
            for pid in m["players"]:
                points[pid] += 3 if m["result"] in (pid, "bye") else int(m["result"] == "draw")
    matches = paired["matches"]
    by_group: dict[str, list[dict]] = defaultdict(list)
    for m in matches:
        by_group[m.get("group", "")].append(m)
    for group_matches in by_group.values():
        seated = [pid for m in group_matches for pid in m["players"]]
        assert len(seated) == len(set(seated))
        assert set(seated) <= active
        for m in group_matches:
            if len(m["players"]) == 2:
                a, b = m["players"]
                assert b not in met[a], f"avoidable rematch {a} vs {b}"
            else:
                (bye,) = m["players"]
                assert bye not in byes
                group = set(seated)
                lowest = min(points[p] for p in group if p not in byes)
                assert points[bye] == lowest
    swiss_groups = [g for g in event_groups(event) if g.phase == GroupPhase.SWISS]
    for swiss in swiss_groups:  # every active player of a paired group is seated
        everyone_seated = {pid for m in matches for pid in m["players"]}
        group_players = {
            r.external_id
            for r in event.registrations.filter(in_group(swiss))
            if r.external_id in active
        }
        assert group_players <= everyone_seated or not (group_players & everyone_seated)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_shared_tom_event_cut_after_each_swiss_round_imports_running_and_pairs(
    cup, tom_doc, tmp_path: Path, k: int
):
    path = tmp_path / f"after-{k}.json"
    doc = cut_after(tom_doc, k)
    assert "divisions" in doc
    path.write_text(json.dumps(doc), encoding="utf-8")
    out, err = run("import_event", str(path))
    slug = out.strip().splitlines()[-1]
    event = Event.objects.get(slug=slug)
    assert event.status == EventStatus.SWISS and err == ""
    data = standings_data(event)
    for division in ("masters", "senior", "junior"):
        order = [row["player"] for row in data["divisions"][division]]
        assert order == official_swiss_order(cup, division, k), division
    steps = {p: next_step(event, p).kind for p in event_group_keys(event)}
    # Junior+Senior plays 4 Swiss rounds, Masters 5 (P-RT-1 for 11 and 18 players)
    assert steps == {
        "junior+senior": StepKind.SWISS if k < 4 else StepKind.TOP_CUT,
        "masters": StepKind.SWISS,
    }
    out, _ = run("pair", slug, "--seed", "3", "--json", *(("--group", "masters") if k == 4 else ()))
    paired = json.loads(out)
    assert paired["round"] == k + 1 and paired["phase"] == "swiss"
    assert_valid_next_round(event, doc, paired)


def test_shared_tom_event_cut_after_round_5_goes_on_to_the_top_cuts(cup, tom_doc):
    """After round 5 Masters' Swiss is over (cut next) and Junior+Senior is in its cut."""
    event = event_import(data=parse_event_json(cut_after(tom_doc, 5)), by=None)
    assert event.status == EventStatus.TOP_CUT
    steps = {p: next_step(event, p).kind for p in event_group_keys(event)}
    assert steps["masters"] == StepKind.TOP_CUT
    assert steps["senior-top-cut"] == StepKind.ELIMINATION
    masters = [r["player"] for r in standings_data(event)["divisions"]["masters"]]
    assert masters == official_swiss_order(cup, "masters", 5)


def test_shared_tom_event_whole_imports_finished_with_the_official_places(cup, tom_doc):
    event = event_import(data=parse_event_json(tom_doc), by=None)
    assert event.status == EventStatus.FINISHED
    data = standings_data(event)
    for division, category in (("masters", 2), ("senior", 1), ("junior", 0)):
        assert tuple(r["player"] for r in data["divisions"][division]) == cup.official_places(
            category
        )


def regional(players: int, rounds: list[dict], divisions: list | None = None) -> dict:
    doc = {
        "format": "matchslip.event.v1",
        "name": "Regional",
        "ruleset": "pokemon",
        "players": [
            {"id": f"p{i}", "name": f"Player {i}", "division": "masters"}
            for i in range(1, players + 1)
        ],
        "rounds": rounds,
    }
    if divisions is not None:
        doc["divisions"] = divisions
    return doc


def all_win_round(number: int, ids: list[str], phase: str = "swiss") -> dict:
    matches = [
        {"table": t + 1, "players": [ids[2 * t], ids[2 * t + 1]], "result": ids[2 * t]}
        for t in range(len(ids) // 2)
    ]
    if len(ids) % 2:
        matches.append({"table": 0, "players": [ids[-1]], "result": "bye"})
    return {"number": number, "phase": phase, "matches": matches}


def test_531_player_regional_after_round_1_imports_running_from_the_round_table():
    ids = [f"p{i}" for i in range(1, 532)]
    data = parse_event_json(regional(531, [all_win_round(1, ids)]))
    (division,) = data.divisions
    assert (division.swiss_rounds, division.top_cut, division.day2_rounds) == (10, 8, 0)
    event = event_import(data=data, by=None)
    assert event.status == EventStatus.SWISS
    step = next_step(event, "masters")
    assert (step.kind, step.number) == (StepKind.SWISS, 2)


def test_two_day_regional_infers_day_2_and_the_cut_from_its_phases():
    ids = [f"p{i}" for i in range(1, 9)]
    rounds = [
        all_win_round(1, ids),
        all_win_round(2, ids),
        all_win_round(3, ids[:4], "swiss-day2"),
        {
            "number": 4,
            "phase": "top-cut",
            "matches": [
                {"table": 1, "players": ["p1", "p4"], "result": "p1"},
                {"table": 2, "players": ["p2", "p3"], "result": "p2"},
            ],
        },
    ]
    data = parse_event_json(regional(8, rounds))
    (division,) = data.divisions
    # 8 players: the table's 3 rounds, but the file holds 2 on Day 1 and 1 on Day 2
    assert (division.swiss_rounds, division.day2_rounds, division.top_cut) == (3, 1, 4)
    assert data.day2_rounds == 1
    explicit = parse_event_json(
        regional(
            8, rounds, [{"code": "masters", "swiss_rounds": 2, "day2_rounds": 1, "top_cut": 4}]
        )
    )
    event = event_import(data=explicit, by=None)
    assert (event.day2_rounds, event.divisions.get().swiss_rounds) == (1, 2)
    step = next_step(event, "masters-top-cut")
    assert (step.kind, step.number) == (StepKind.ELIMINATION, 5)
    assert event.status == EventStatus.TOP_CUT


def test_divisions_never_plan_fewer_rounds_than_the_file_holds():
    ids = [f"p{i}" for i in range(1, 5)]
    doc = regional(
        4, [all_win_round(n, ids) for n in (1, 2, 3)], [{"code": "masters", "swiss_rounds": 1}]
    )
    (division,) = parse_event_json(doc).divisions
    assert division.swiss_rounds == 3


def test_an_unreported_round_imports_running_and_staff_enter_it(organiser):
    ids = [f"p{i}" for i in range(1, 5)]
    pending = all_win_round(2, ids)
    for m in pending["matches"]:
        m["result"] = None
    doc = regional(
        4, [all_win_round(1, ids), pending], [{"code": "masters", "swiss_rounds": 3, "top_cut": 0}]
    )
    event = event_import(data=parse_event_json(doc), by=organiser)
    assert event.status == EventStatus.SWISS
    assert next_step(event, "masters").kind == StepKind.WAIT
    rnd = event.rounds.get(number=2)
    for m in rnd.matches.all():
        winner = m.seats.order_by("seat").first().registration
        services.slip_enter(
            match=m, result=Result.of(outcome=MatchOutcome.WIN, winner=winner), by=organiser
        )
    rnd.refresh_from_db()
    assert rnd.status == "complete"
    assert next_step(event, "masters").kind == StepKind.SWISS
    out, _ = run("pair", event.slug, "--seed", "1", "--json")
    assert json.loads(out)["round"] == 3


def melee_with_a_3_0(tmp_path: Path) -> Path:
    doc = json.loads(MELEE.read_text(encoding="utf-8"))
    first = doc["Rounds"][0]["Matches"][0]
    first["Result"] = "3-0-0"
    path = tmp_path / "melee-3-0.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_3_0_in_best_of_3_is_kept_with_a_warning_and_a_note(tmp_path: Path, client, organiser):
    path = melee_with_a_3_0(tmp_path)
    out, err = run("import_melee", str(path))
    event = Event.objects.get(slug=out.strip().splitlines()[-1])
    doc = json.loads(path.read_text(encoding="utf-8"))
    p1, p2 = doc["Rounds"][0]["Matches"][0]["Player1"], doc["Rounds"][0]["Matches"][0]["Player2"]
    note = (
        f"Rounds[0].Matches[0].games: {p1} vs {p2}: game record 3-0-0 kept as recorded, "
        "though the live rules refuse it (3-0-0: nobody wins more than 2 games in a "
        "best-of-3 match)"
    )
    assert err == f"warning: {path}: {note}\n"
    assert [shown(n) for n in event.import_notes] == [note]  # stored language-neutrally
    match = Match.objects.get(
        round__event=event, round__number=1, seats__registration__external_id=p1
    )
    assert match.games == [3, 0, 0]
    assert match.winner is not None and match.winner.external_id == p1
    # counted as recorded: 9 game points over 3 games for the winner's GW%
    rows = {r["player"]: r for r in standings_data(event)["divisions"]["open"]}
    assert rows[p1]["match_points"] >= 3
    from tournaments.models import EventStaff, StaffRole

    EventStaff.objects.create(event=event, user=organiser, role=StaffRole.ORGANISER)
    client.force_login(organiser)
    page = client.get(f"/e/{event.slug}/staff/").content.decode()
    assert "Imported as recorded" in page and "game record 3-0-0 kept as recorded" in page
    client.cookies["django_language"] = "es"
    page = client.get(f"/e/{event.slug}/staff/").content.decode()
    assert "registro de juegos 3-0-0 conservado tal como se registró" in page


def test_live_slip_entry_still_refuses_a_3_0(tmp_path: Path, organiser):
    from pairings.services import round_pair
    from tests import factories
    from tournaments.errors import InvalidInput

    ev = factories.event_with_players(4, by=organiser, ruleset="mtg", swiss_rounds=3)
    (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    with pytest.raises(InvalidInput, match="nobody wins more than 2 games"):
        services.slip_enter(
            match=rnd.matches.order_by("pk")[0], result=Result.of(games=(3, 0, 0)), by=organiser
        )


def test_a_self_contradicting_record_is_refused_naming_the_field_and_writes_nothing(tmp_path):
    doc = regional(
        2,
        [{"number": 1, "matches": [{"players": ["p1", "p2"], "result": "p2", "games": [3, 0, 0]}]}],
    )
    doc["ruleset"] = "mtg"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    before = Event.objects.count()
    with pytest.raises(
        Exception, match=r"rounds\[0\]\.matches\[0\]\.games: \[3, 0, 0\] does not give this result"
    ):
        run("import_event", str(path))
    assert Event.objects.count() == before


def test_the_shared_melee_file_still_reproduces_without_notes():
    data = melee_to_event_data(json.loads(MELEE.read_text(encoding="utf-8")))
    event = event_import(data=data, by=None)
    assert event.import_notes == [] and event.status == EventStatus.FINISHED


WER = DATA / "mtg/wer-modern-weekly-2018-10-29.wer"


def test_import_wer_writes_the_structure_the_file_implies(tmp_path: Path):
    out, _ = run("import_wer", str(WER))
    event = Event.objects.get(slug=out.strip().splitlines()[-1])
    assert (event.structure, event.swiss_rounds, event.top_cut_size) == ("swiss", 4, 0)
    assert event.status == EventStatus.FINISHED
    # the same file saved after round 2 of its 4 (numberofrounds) imports running
    import re

    text = WER.read_text(encoding="utf-8")
    text = re.sub(r'<round number="[34]" PlayFormat.*?</round>', "", text, flags=re.S)
    path = tmp_path / "after-2.wer"
    path.write_text(text, encoding="utf-8")
    out, _ = run("import_wer", str(path))
    event = Event.objects.get(slug=out.strip().splitlines()[-1])
    assert (event.swiss_rounds, event.status) == (4, EventStatus.SWISS)
    step = next_step(event, "open")
    assert (step.kind, step.number) == (StepKind.SWISS, 3)
