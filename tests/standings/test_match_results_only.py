"""Magic match results without game records and best-of-1 melee.gg
events (item 3), imported through the commands and read back as standings.

``games`` is optional in the event JSON (docs/interfaces.md): a Magic match without it
is imported as recorded, with a warning; its match points and OMW are exact, GW and OGW
count the games known, and the standings pages say so. Live slips stay strict."""

from __future__ import annotations

import json
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from standings.services import standings_compute, standings_data
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import Event, Match, Outcome, Phase, StaffRole
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def magic(rounds: list[list[dict]]) -> dict:
    return {
        "format": "matchslip.event.v1",
        "name": "Results Only Magic",
        "ruleset": "mtg",
        "players": [{"id": p, "name": p.upper()} for p in "abcd"],
        "rounds": [{"number": n, "matches": ms} for n, ms in enumerate(rounds, start=1)],
    }


def match(table: int, players: str, result: str, games: list[int] | None = None) -> dict:
    found = {"table": table, "players": list(players), "result": result}
    return found | ({"games": games} if games is not None else {})


# Round 1 with games, round 2 as topdeck.gg publishes it: results only.
WITH_GAMES = [
    [match(1, "ab", "a", [2, 1, 0]), match(2, "cd", "draw", [1, 1, 1])],
    [match(1, "ac", "c", [0, 2, 0]), match(2, "bd", "b", [2, 0, 0])],
]
RESULTS_ONLY = [WITH_GAMES[0], [match(1, "ac", "c"), match(2, "bd", "b")]]


def imported(tmp_path, rounds, name="event.json") -> tuple[Event, str]:
    path = tmp_path / name
    path.write_text(json.dumps(magic(rounds)))
    out, err = run("import_event", str(path))
    return Event.objects.get(slug=out.strip().splitlines()[-1]), err


def standings(event: Event) -> dict:
    """``standings_data``: the Standings JSON with the exact Fractions (``exact``) and the
    stored snapshot's extra keys."""
    return standings_data(event)


def test_a_magic_event_json_with_match_results_only_imports_with_a_warning(tmp_path):
    event, err = imported(tmp_path, RESULTS_ONLY)
    assert (
        "warning: " in err
        and "match results without a game record: 2 (rounds[1].matches[0], rounds[1].matches[1])"
        in err
    )
    assert "match points and OMW are exact" in err
    assert len(event.import_notes) == 1  # the same note on the staff dashboard
    assert list(Match.objects.filter(round__number=2).values_list("games", flat=True)) == [
        None,
        None,
    ]


def test_M_TB_3_match_points_and_omw_exact_game_columns_from_the_games_known(tmp_path):
    full, _ = imported(tmp_path, WITH_GAMES, "full.json")
    partial, _ = imported(tmp_path, RESULTS_ONLY, "partial.json")
    whole, known = standings(full), standings(partial)
    assert "games_unrecorded" not in whole and known["games_unrecorded"] == 2
    rows = {r["player"]: r for r in known["divisions"]["open"]}
    ref = {r["player"]: r for r in whole["divisions"]["open"]}
    for p in "abcd":
        assert (rows[p]["match_points"], rows[p]["record"], rows[p]["exact"]["omw"]) == (
            ref[p]["match_points"],
            ref[p]["record"],
            ref[p]["exact"]["omw"],
        )
    # a: 2-1 in round 1 (6 game points of 3 games), round 2 unknown → GW 2/3 (with it:
    # 0-2 → 6/15 = 2/5); c: drew 1-1-1 (4 of 3) → 4/9 (with 2-0 in round 2: 10/15).
    assert (Fraction(rows["a"]["exact"]["gw"]), Fraction(ref["a"]["exact"]["gw"])) == (
        Fraction(2, 3),
        Fraction(2, 5),
    )
    assert Fraction(rows["c"]["exact"]["gw"]) == Fraction(4, 9)


def test_the_standings_pages_mark_the_game_columns(client, tmp_path):
    event, _ = imported(tmp_path, RESULTS_ONLY)
    standings_compute(event=event)  # the snapshot the pages show (a task after commit)
    page = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert 'id="games-unrecorded"' in page
    assert "count only the games recorded: 2 match results were imported" in page
    spanish = client.get(
        reverse("public:standings", args=[event.slug]), headers={"Accept-Language": "es"}
    ).content.decode()
    assert "2 resultados de partida se importaron sin sus juegos" in spanish
    full, _ = imported(tmp_path, WITH_GAMES, "full.json")
    standings_compute(event=full)
    page = client.get(reverse("public:standings", args=[full.slug])).content.decode()
    assert 'id="games-unrecorded"' not in page


def test_M_MATCH_1_live_slips_still_need_the_game_score(organiser):
    ev = factories.event_with_players(2, by=organiser, ruleset="mtg")
    a, b = ev.registrations.order_by("pk")
    rnd = services.round_create(
        event=ev,
        group=factories.group_row(ev, "open"),
        number=1,
        phase=Phase.SWISS,
        by=organiser,
        tables=[(1, [a, b], "")],
    )
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    client_staff = factories.staff(ev, StaffRole.SCOREKEEPER)
    with pytest.raises(InvalidInput, match="Enter the game score"):
        services.slip_enter(match=rnd.matches.get(), result=Result.win(a), by=client_staff)
    assert rnd.matches.get().outcome == Outcome.PENDING


# --- best-of-1 melee.gg events -----------------------------------------

# A generated best-of-1 melee.gg event: five players, three rounds, a bye every round
# (melee writes a bye as the Result of Player1 against "-").
BO1_ROUNDS = [
    [("A", "B", "1-0-0"), ("C", "D", "1-0-0"), ("E", "-", "1-0-0")],
    [("A", "C", "1-0-0"), ("E", "B", "0-0-1"), ("D", "-", "1-0-0")],
    [("E", "A", "1-0-0"), ("D", "B", "1-0-0"), ("C", "-", "1-0-0")],
]


def melee_doc(rounds) -> dict:
    return {
        "Tournament": {"Name": "Weekly Bo1", "Date": "2025-06-01T18:00:00", "Formats": "Arena"},
        "Rounds": [
            {
                "RoundName": f"Round {n}",
                "Matches": [{"Player1": a, "Player2": b, "Result": r} for a, b, r in ms],
            }
            for n, ms in enumerate(rounds, start=1)
        ],
        "Standings": [{"Player": p} for p in "ABCDE"],
    }


def test_M_TB_2_import_melee_detects_best_of_1_and_gives_melees_game_win_values(tmp_path):
    path = tmp_path / "bo1.json"
    path.write_text(json.dumps(melee_doc(BO1_ROUNDS)))
    out, _ = run("import_melee", str(path))
    event = Event.objects.get(slug=out.strip().splitlines()[-1])
    assert event.options["match_length"] == "best-of-1" and event.best_of == 1
    rows = {r["player"]: r for r in standings(event)["divisions"]["open"]}
    # melee.gg's GWP: a bye is 1 game won of 1. E: bye 3/1, draw 1/1, won 3/1 → 7/9;
    # C and D: won, lost, bye → 6/9; B: lost, drew, lost → 1/9, shown at the 1/3 floor.
    gw = {p: Fraction(r["exact"]["gw"]) for p, r in rows.items()}
    assert gw == {
        "A": Fraction(2, 3),
        "B": Fraction(1, 3),
        "C": Fraction(2, 3),
        "D": Fraction(2, 3),
        "E": Fraction(7, 9),
    }
    # OGWP: A met B (1/3), C (2/3), E (7/9) → 16/27; E met B and A → 1/2.
    assert Fraction(rows["A"]["exact"]["ogw"]) == Fraction(16, 27)
    assert Fraction(rows["E"]["exact"]["ogw"]) == Fraction(1, 2)
    assert [r["player"] for r in standings(event)["divisions"]["open"]] == list("ECADB")


def test_a_best_of_3_melee_event_keeps_best_of_3(tmp_path):
    rounds = [[("A", "B", "2-1-0"), ("C", "D", "1-0-0"), ("E", "-", "2-0-0")]]
    path = tmp_path / "bo3.json"
    path.write_text(json.dumps(melee_doc(rounds)))
    out, _ = run("import_melee", str(path))
    event = Event.objects.get(slug=out.strip().splitlines()[-1])
    assert "match_length" not in event.options and event.best_of == 3


def test_an_exported_event_without_games_imports_again_the_same(tmp_path):
    event, _ = imported(tmp_path, RESULTS_ONLY)
    path = tmp_path / "again.json"
    run("export_event", event.slug, str(path))
    assert "games" not in json.loads(path.read_text())["rounds"][1]["matches"][0]
    out, err = run("import_event", str(path))
    again = Event.objects.get(slug=out.strip().splitlines()[-1])
    assert "match results without a game record: 2" in err
    assert [r["exact"] for r in standings(again)["divisions"]["open"]] == [
        r["exact"] for r in standings(event)["divisions"]["open"]
    ]


def test_M_MATCH_1_an_event_json_best_of_1_is_checked_as_best_of_1(tmp_path):
    doc = magic([[match(1, "ab", "a", [1, 0, 0]), match(2, "cd", "draw", [0, 0, 1])]])
    path = tmp_path / "bo1.json"
    path.write_text(json.dumps(doc | {"options": {"match_length": "best-of-1"}}))
    out, err = run("import_event", str(path))
    assert err == "" and Event.objects.get(slug=out.strip()).best_of == 1
    # A best-of-3 score in a best-of-1 event is an official record the live slip refuses:
    # kept as recorded, with a warning (as melee.gg's 3-0 in a best-of-3).
    doc = magic([[match(1, "ab", "a", [2, 0, 0]), match(2, "cd", "draw", [0, 0, 1])]])
    path.write_text(json.dumps(doc | {"options": {"match_length": "best-of-1"}}))
    _, err = run("import_event", str(path))
    assert "game record 2-0-0 kept as recorded" in err and "best-of-1" in err
