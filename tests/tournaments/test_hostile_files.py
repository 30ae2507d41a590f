"""Hostile and broken files are refused cleanly.

Every case goes through its import command (a ``CommandError`` naming the element or
field, nothing in the database) and, for TOM files, through the upload page (200 with
the same message, nothing written). The WER cases of part 4 check that what the live
rules cannot hold is refused, and that what is accepted works with ``standings --json``,
the TOM file and an ``export_event`` → ``import_event`` round trip.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from interchange.formats import checks
from tests import factories
from tests.paths import DATA
from tests.tournaments.roundtrip import view
from tournaments.models import (
    AuditEvent,
    BackgroundRun,
    Division,
    Event,
    Match,
    MatchSeat,
    PairingGroup,
    Player,
    Registration,
    Round,
)

pytestmark = pytest.mark.django_db

TDF = DATA / "pokemon" / "2025-dg-nov-cup.tdf"
WER = DATA / "mtg" / "wer-modern-weekly-2018-10-29.wer"
MELEE = DATA / "mtg" / "melee-legacy-2025-05-15.json"
MODELS = (Event, Division, Player, Registration, Round, Match, MatchSeat, AuditEvent)


def rows() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in MODELS}


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def sub(text: str, old: str, new: str, *, after: str = "") -> str:
    """``text`` with the first ``old`` (a regex) after ``after`` replaced by ``new``."""
    start = text.index(after) if after else 0
    head, tail = text[:start], text[start:]
    changed, n = re.subn(old, new, tail, count=1)
    assert n == 1, f"{old!r} not found"
    return head + changed


# --- the corpus ----------------------------------------------------------------------------


def event_doc(**changes) -> dict:
    """A small valid Pokémon event JSON; ``changes`` replace top-level fields."""
    doc = {
        "format": "matchslip.event.v1",
        "name": "Hostile Cup",
        "ruleset": "pokemon",
        "players": [{"id": p, "name": p.upper()} for p in "abcd"],
        "rounds": [
            {
                "number": 1,
                "matches": [
                    {"table": 1, "players": ["a", "b"], "result": "a"},
                    {"table": 2, "players": ["c", "d"], "result": "draw"},
                ],
            }
        ],
    }
    return doc | changes


def with_match(**fields) -> bytes:
    doc = event_doc()
    doc["rounds"][0]["matches"][0] |= fields
    return json.dumps(doc).encode()


def with_player(**fields) -> bytes:
    doc = event_doc()
    doc["players"][0] |= fields
    return json.dumps(doc).encode()


def with_round(**fields) -> bytes:
    doc = event_doc()
    doc["rounds"][0] |= fields
    return json.dumps(doc).encode()


def doc(**changes) -> bytes:
    return json.dumps(event_doc(**changes)).encode()


def cut_rounds(*rounds: list) -> bytes:
    """Swiss round 1 then top-cut rounds 2, 3… of (players, result) matches."""
    matches = [
        [{"table": t, "players": list(p), "result": r} for t, (p, r) in enumerate(rd, start=1)]
        for rd in rounds
    ]
    return doc(
        rounds=[event_doc()["rounds"][0]]
        + [
            {"number": n, "phase": "top-cut", "matches": ms}
            for n, ms in enumerate(matches, start=2)
        ]
    )


def tdf(old: str, new: str, *, after: str = "") -> Callable[[], bytes]:
    return lambda: sub(TDF.read_text(encoding="utf-8"), old, new, after=after).encode()


def wer(old: str, new: str, *, after: str = "") -> Callable[[], bytes]:
    return lambda: sub(WER.read_text(encoding="utf-8"), old, new, after=after).encode()


def melee(change: Callable[[dict], None]) -> Callable[[], bytes]:
    def make() -> bytes:
        document = json.loads(MELEE.read_text(encoding="utf-8"))
        change(document)
        return json.dumps(document).encode()

    return make


def oversized(path: Path) -> None:
    with path.open("wb") as f:
        f.truncate(checks.MAX_FILE_BYTES + 1)  # a sparse file: no 20 MB written


@dataclass(frozen=True)
class Case:
    command: str
    content: Callable[[], bytes] | bytes | None  # None: the file is made by ``make``
    message: str  # a regex the refusal must match
    make: Callable[[Path], None] | None = None

    def write(self, path: Path) -> None:
        if self.make is not None:
            self.make(path)
        else:
            assert self.content is not None, "a case without content has a make"
            path.write_bytes(self.content() if callable(self.content) else self.content)


def _set_first_result(d: dict, result: str) -> None:
    d["Rounds"][0]["Matches"][0]["Result"] = result


def _long_label(d: dict) -> None:
    old = d["Rounds"][0]["Matches"][0]["Player1"]
    text = json.dumps(d).replace(json.dumps(old), json.dumps("L" * 70))
    d.clear()
    d.update(json.loads(text))


JSON_CASES = {
    "issue-smallest-bad-date": Case(
        "import_event",
        b'{"format":"matchslip.event.v1","name":"x","players":[],"date":"2025-13-45"}',
        r"date: '2025-13-45' is not a date",
    ),
    "year-10-to-the-11": Case(
        "import_event", with_player(birth_year=10**11), r"players\[0\]\.birth_year: 10+ is out"
    ),
    "round-70000": Case("import_event", with_round(number=70000), r"rounds\[0\]\.number: 70000"),
    "round-0": Case("import_event", with_round(number=0), r"rounds\[0\]\.number: 0 is out"),
    "table-99999999999": Case(
        "import_event", with_match(table=99999999999), r"matches\[0\]\.table: 99999999999 is out"
    ),
    "negative-table": Case("import_event", with_match(table=-5), r"matches\[0\]\.table"),
    "negative-drop-round": Case(
        "import_event", with_player(dropped_after_round=-1), r"players\[0\]\.dropped_after_round"
    ),
    "cut-99999": Case(
        "import_event",
        doc(divisions=[{"code": "open", "top_cut": 99999}]),
        r"divisions\[0\]\.top_cut: 99999 is out of range",
    ),
    "swiss-rounds-four": Case(
        "import_event",
        doc(divisions=[{"code": "open", "swiss_rounds": "four"}]),
        r"divisions\[0\]\.swiss_rounds: expected int, got 'four'",
    ),
    "rounds-a-number": Case("import_event", doc(rounds=5), r"rounds: expected list, got 5"),
    "players-an-object": Case("import_event", doc(players={"a": 1}), r"players: expected list"),
    "event-name-too-long": Case("import_event", doc(name="N" * 201), r"name: 201 characters"),
    "event-name-empty": Case("import_event", doc(name="  "), r"name: must not be empty"),
    "player-name-too-long": Case(
        "import_event", with_player(name="N" * 500), r"players\[0\]\.name: 500 characters"
    ),
    "player-id-too-long": Case(
        "import_event", with_player(player_id="9" * 41), r"players\[0\]\.player_id: 41"
    ),
    "nul-in-name": Case("import_event", doc(name="Cup\u0000"), r"name: contains a NUL"),
    # the text rule for names (tournaments.text)
    "vertical-tab-in-player-name": Case(
        "import_event",
        with_player(name="Ash\u000bKetchum"),
        r"players\[0\]\.name: contains the control character U\+000B, which a name cannot hold",
    ),
    "escape-in-event-name": Case(
        "import_event",
        doc(name="Cup\u001b[31m"),
        r"name: contains the control character U\+001B, which a name cannot hold",
    ),
    "zero-width-space-player-name": Case(
        "import_event",
        with_player(name="\u200b \ufeff"),
        r"players\[0\]\.name: has only invisible characters \(U\+200B, U\+FEFF\)",
    ),
    "right-to-left-override-in-player-name": Case(
        "import_event",
        with_player(name="Ash\u202eKetchum"),
        r"players\[0\]\.name: contains the bidirectional control U\+202E",
    ),
    "tab-in-venue": Case(
        "import_event",
        doc(location="Auck\tland"),
        r"location: contains the control character U\+0009",
    ),
    "lone-surrogate": Case(
        "import_event",
        b'{"format":"matchslip.event.v1","name":"\\ud800","players":[]}',
        r"name: is not valid Unicode",
    ),
    "late-not-a-flag": Case("import_event", with_player(late="no"), r"players\[0\]\.late"),
    "twice-in-a-round": Case(
        "import_event", with_match(players=["a", "c"]), r"'c' plays twice in this round"
    ),
    "against-themselves": Case(
        "import_event", with_match(players=["a", "a"]), r"a player cannot play themselves"
    ),
    "repeated-round-number": Case(
        "import_event",
        doc(rounds=[event_doc()["rounds"][0]] * 2),
        r"rounds\[1\]: round 1 \(swiss\) is given twice",
    ),
    "repeated-table": Case(
        "import_event",
        doc(
            rounds=[
                {
                    "number": 1,
                    "matches": [
                        {"table": 3, "players": ["a", "b"]},
                        {"table": 3, "players": ["c", "d"]},
                    ],
                }
            ]
        ),
        r"matches\[1\]: table 3 is given twice",
    ),
    "games-on-pokemon": Case(
        "import_event", with_match(games=[9, 9, 9]), r"games: the .* rules record match results"
    ),
    # (an mtg match without games is imported as recorded with a
    # warning, no longer refused: tests/standings/test_match_results_only.py)
    "knocked-out-plays-on": Case(
        "import_event",
        cut_rounds([("ab", "a"), ("cd", "c")], [("bc", "c")]),
        r"rounds\[2\]\.matches\[0\]: 'b' was knocked out in round 2",
    ),
    "drawn-top-cut": Case(
        "import_event", cut_rounds([("ab", "draw")]), r"cannot be a draw \(M-SE-2\)"
    ),
    "divisions-meet-in-top-cut": Case(
        "import_event",
        doc(
            players=[
                {"id": p, "name": p, "division": d}
                for p, d in zip("abcd", ["junior"] * 2 + ["senior"] * 2, strict=True)
            ],
            rounds=[
                {
                    "number": 1,
                    "matches": [
                        {"table": 1, "players": ["a", "b"], "result": "a"},
                        {"table": 2, "players": ["c", "d"], "result": "c"},
                    ],
                },
                {
                    "number": 2,
                    "phase": "top-cut",
                    "matches": [{"table": 1, "players": ["a", "c"], "result": "a"}],
                },
            ],
        ),
        r"players of different pairing groups meet \(junior-top-cut, senior-top-cut\)",
    ),
    "too-many-players": Case(
        "import_event",
        lambda: doc(
            players=[{"id": str(i), "name": "P"} for i in range(checks.MAX_PLAYERS + 1)], rounds=[]
        ),
        r"players: 20,001 players; at most 20,000",
    ),
    "too-many-rounds": Case(
        "import_event",
        doc(rounds=[{"number": n, "matches": []} for n in range(1, checks.MAX_ROUNDS + 2)]),
        r"rounds: 41 rounds; at most 40",
    ),
    "not-utf-8": Case(
        "import_event",
        b'{"format":"matchslip.event.v1","name":"Caf\xe9","players":[]}',
        r"not UTF-8 text",
    ),
    "deep-nesting": Case(
        "import_event",
        b'{"format":"matchslip.event.v1","name":"x","players":[],"options":'
        + b"[" * 100_000
        + b"]" * 100_000
        + b"}",
        r"nested too deeply",
    ),
    "huge-integer": Case(
        "import_event",
        b'{"format":"matchslip.event.v1","name":"x","players":[],"rounds":' + b"9" * 5000 + b"}",
        r"not JSON we can read",
    ),
    "nan": Case(
        "import_event",
        b'{"format":"matchslip.event.v1","name":"x","players":[],"location":NaN}',
        r"location: expected str, got nan",
    ),
    "too-large": Case("import_event", None, r"files up to 20 MB", make=oversized),
    "melee-9-0": Case(
        "import_melee",
        melee(lambda d: _set_first_result(d, "9-0-0")),
        r"Rounds\[0\]\.Matches\[0\]\.games: impossible game record 9-0-0",
    ),
    "melee-bad-date": Case(
        "import_melee",
        melee(lambda d: d["Tournament"].update(Date="2025-13-45")),
        r"Tournament\.Date: '2025-13-45' is not a date",
    ),
    "melee-label-too-long": Case("import_melee", melee(_long_label), r"player 'LLLL.*id: 70"),
    "melee-nul": Case(
        "import_melee",
        melee(lambda d: d["Tournament"].update(Formats=["Legacy\u0000"])),
        r"Tournament.*contains a NUL",
    ),
}

TDF_CASES = {
    "issue-smallest-table-minus-5": Case(
        "import_tdf",
        tdf(r"<tablenumber>\d+<", "<tablenumber>-5<"),
        r"<pod category=8><round number=1><match #1><tablenumber>: -5 is out of range",
    ),
    "table-99999999999": Case(
        "import_tdf",
        tdf(r"<tablenumber>1<", "<tablenumber>99999999999<"),
        r"<tablenumber>: 99999999999 is out of range",
    ),
    "huge-integer": Case(
        "import_tdf", tdf(r"<tablenumber>1<", f"<tablenumber>{'9' * 5000}<"), r"<tablenumber>"
    ),
    "round-70000": Case(
        "import_tdf",
        tdf(r'<round number="2"', '<round number="70000"'),
        r"<pod category=8><round> number: 70000 is out of range",
    ),
    "repeated-round-number": Case(
        "import_tdf",
        tdf(r'<round number="2"', '<round number="1"'),
        r"<pod category=8><round number=1>: round 1 is given twice",
    ),
    "unknown-pod-category": Case(
        "import_tdf", tdf(r'<pod category="8"', '<pod category="7"'), r"unknown category 7"
    ),
    "two-pods-one-division": Case(
        "import_tdf",
        tdf(r'<pod category="8"', '<pod category="2"'),
        r"<pod category=2>: division 'masters' is given twice",
    ),
    "against-themselves": Case(
        "import_tdf",
        tdf(r'<player2 userid="9000011"/>', '<player2 userid="9000016"/>'),
        r"<match #2> players: a player cannot play themselves",
    ),
    "twice-in-a-round": Case(
        "import_tdf",
        tdf(r'<player1 userid="9000004"/>', '<player1 userid="9000016"/>'),
        r"'9000016' plays twice in round 1",
    ),
    "divisions-meet": Case(
        "import_tdf",
        tdf(
            r'<player2 userid="\d+"/>',
            '<player2 userid="9000002"/>',
            after='<round number="5" type="3"',
        ),
        r"players of different pairing groups meet",
    ),
    "drawn-top-cut": Case(
        "import_tdf",
        tdf(r'<match outcome="[12]">', '<match outcome="3">', after='<round number="5" type="1"'),
        r"cannot be a draw \(M-SE-2\)",
    ),
    "negative-outcome": Case(
        "import_tdf", tdf(r'<match outcome="2">', '<match outcome="-1">'), r"outcome: -1 is out"
    ),
    "cut-99999": Case(
        "import_tdf",
        tdf(r"<cut>4</cut>", "<cut>99999</cut>"),
        r"<categorycut key=2><cut>: 99999 is out of range",
    ),
    "drop-round-70000": Case(
        "import_tdf", tdf(r"<round>2</round>", "<round>70000</round>"), r"<dropped><round>: 70000"
    ),
    "year-10-to-the-11": Case(
        "import_tdf",
        tdf(r"<birthdate>02/27/2006<", "<birthdate>02/27/100000000000<"),
        r"<birthdate>: expected MM/DD/YYYY",
    ),
    "name-too-long": Case(
        "import_tdf",
        tdf(r"<firstname>Player<", f"<firstname>{'P' * 300}<"),
        r"<player userid='9000001'> name: 304 characters long",
    ),
    "userid-too-long": Case(
        "import_tdf",
        lambda: TDF.read_text(encoding="utf-8").replace("9000001", "9" * 41).encode(),
        r"player_id: 41 characters long, at most 40",
    ),
    "event-name-empty": Case(
        "import_tdf", tdf(r"<name>[^<]*</name>", "<name> </name>"), r"<data><name>: must not be"
    ),
    "bad-start-date": Case(
        "import_tdf", tdf(r"<startdate>[^<]*<", "<startdate>13/45/2025<"), r"<startdate>"
    ),
    "not-utf-8": Case(
        "import_tdf",
        lambda: TDF.read_bytes().replace(b"Auckland", "Aucklånd".encode("latin-1")),
        r"not well-formed XML",
    ),
    "nul-byte": Case(
        "import_tdf", lambda: TDF.read_bytes().replace(b"Auckland", b"Auck\x00land"), r"XML"
    ),
    "nul-reference": Case("import_tdf", tdf("Auckland", "Auck&#0;land"), r"not well-formed XML"),
    # what XML 1.0 lets through, the text rule for names refuses
    "tab-in-first-name": Case(
        "import_tdf",
        tdf(r"<firstname>[^<]*</firstname>", "<firstname>Ash&#9;Ketchum</firstname>"),
        r"<player userid='[^']+'> name: contains the control character U\+0009",
    ),
    "c1-control-in-last-name": Case(
        "import_tdf",
        tdf(r"<lastname>[^<]*</lastname>", "<lastname>Ketchum\u009b31m</lastname>"),
        r"<player userid='[^']+'> name: contains the control character U\+009B",
    ),
    "zero-width-name": Case(
        "import_tdf",
        lambda: sub(
            sub(TDF.read_text(encoding="utf-8"), r"<firstname>[^<]*<", "<firstname>&#8203;<"),
            r"<lastname>[^<]*<",
            "<lastname>&#x200E;<",
        ).encode(),
        r"<player userid='[^']+'> name: has only invisible characters \(U\+200B, U\+200E\)",
    ),
    "right-to-left-override-in-event-name": Case(
        "import_tdf",
        tdf(r"<name>[^<]*</name>", "<name>Cup &#x202E;puC</name>"),
        r"<data><name>: contains the bidirectional control U\+202E",
    ),
    "entity-expansion": Case(
        "import_tdf",
        lambda: (
            b'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaa">]><tournament>&a;</tournament>'
        ),
        r"forbidden XML construct",
    ),
    "too-many-players": Case(
        "import_tdf",
        tdf(
            "<players>",
            "<players>"
            + "".join(
                f'<player userid="{n}"><birthdate>01/01/1990</birthdate></player>'
                for n in range(checks.MAX_PLAYERS)
            ),
        ),
        r"<players>: 20,029 players; at most 20,000 can be imported",
    ),
    "too-large": Case("import_tdf", None, r"files up to 20 MB", make=oversized),
}

WER_CASES = {
    "9-0-game-score": Case(
        "import_wer",
        wer(r'win="2" loss="0" draw="0"', 'win="9" loss="0" draw="0"'),
        r"<round number=1><match #1> games: impossible game record 9-0-0",
    ),
    "drawn-playoff-match": Case(
        "import_wer",
        lambda: sub(
            WER.read_text(encoding="utf-8"), 'playoffstartround="0"', 'playoffstartround="4"'
        ).encode(),
        r"<round number=4><match #1> result: a single-elimination match cannot be a draw",
    ),
    "round-0": Case(
        "import_wer", wer(r'<round number="1"', '<round number="0"'), r"round numbers start at 1"
    ),
    "round-70000": Case(
        "import_wer", wer(r'<round number="1"', '<round number="70000"'), r"out of range"
    ),
    "empty-event-name": Case(
        "import_wer", wer(r'title="[^"]*"', 'title=" "'), r"<event title>: must not be empty"
    ),
    "huge-game-count": Case(
        "import_wer", wer(r'loss="0"', 'loss="99999999999"'), r"'loss' is out of range"
    ),
    "negative-game-count": Case("import_wer", wer(r'loss="0"', 'loss="-1"'), r"cannot be negative"),
    "tab-in-first-name": Case(
        "import_wer",
        wer(r'first="Player"', 'first="Pla&#9;yer"'),
        r"<person id='100002'> name: contains the control character U\+0009",
    ),
    "against-themselves": Case(
        "import_wer",
        wer(r'opponent="100003"', 'opponent="100002"'),
        r"person '100002' cannot play themselves",
    ),
    "repeated-round-number": Case(
        "import_wer", wer(r'<round number="2"', '<round number="1"'), r"plays twice|same number"
    ),
    "name-too-long": Case(
        "import_wer",
        wer(r'first="Player"', f'first="{"P" * 300}"'),
        r"<person id='100002'> name: 304 characters",
    ),
}

ALL = {
    f"{c.command}-{k}": c for group in (JSON_CASES, TDF_CASES, WER_CASES) for k, c in group.items()
}


@pytest.mark.parametrize("case", ALL.values(), ids=ALL.keys())
def test_a_hostile_file_is_refused_by_its_command_naming_the_fault_and_writes_nothing(
    tmp_path, case
):
    path = tmp_path / "hostile"
    case.write(path)
    before = rows()
    with pytest.raises(CommandError, match=case.message) as refused:
        run(case.command, str(path))
    assert str(refused.value).startswith(str(path))
    assert rows() == before


# An oversized upload never reaches the page: refused (413) from its Content-Length before
# it is read (config.middleware.UploadLimitMiddleware; tests/deployment/test_upload_limit).
UPLOAD_CASES = {k: c for k, c in TDF_CASES.items() if k != "too-large"}


@pytest.mark.django_db(transaction=True)  # the import job runs when the upload commits
@pytest.mark.parametrize("case", UPLOAD_CASES.values(), ids=UPLOAD_CASES.keys())
def test_a_hostile_tom_file_is_refused_on_the_upload_page_with_the_same_message(
    client, tmp_path, case
):
    client.force_login(factories.user("uploader"))
    path = tmp_path / "hostile.tdf"
    case.write(path)
    before = rows()
    with path.open("rb") as f:
        response = client.post(reverse("staff:tdf_import"), {"file": f})
    assert response.status_code == 200
    (error,) = response.context["form"].errors["file"]
    assert error.startswith("Nothing was imported.") and re.search(case.message, error)
    assert escape(error) in response.content.decode()  # shown on the page
    assert rows() == before


def test_deeply_nested_xml_is_read_without_trouble(tmp_path):
    """ElementTree builds deep trees without recursion; the nesting is simply not read."""
    path = tmp_path / "deep.tdf"
    path.write_bytes(tdf("<city>", "<city>" + "<x>" * 50_000 + "</x>" * 50_000)())
    slug = run("import_tdf", str(path)).strip()
    assert Event.objects.get(slug=slug).location == "New Zealand"


def test_the_limits_are_the_model_fields():
    field = lambda model, name: model._meta.get_field(name)  # noqa: E731
    assert field(Event, "name").max_length == checks.NAME_LENGTH
    assert field(Event, "location").max_length == checks.NAME_LENGTH
    assert field(Player, "name").max_length == checks.NAME_LENGTH
    assert field(Player, "player_id").max_length == checks.PLAYER_ID_LENGTH
    assert field(Registration, "external_id").max_length == checks.EXTERNAL_ID_LENGTH
    assert field(PairingGroup, "key").max_length == checks.POD_LENGTH
    assert field(BackgroundRun, "group").max_length == checks.POD_LENGTH
    assert checks.MAX_ROUNDS <= checks.SMALLINT and checks.MAX_PLAYERS <= checks.SMALLINT
    assert field(Match, "table").get_internal_type() == "PositiveIntegerField"
    for model, name in [(Round, "number"), (Player, "birth_year"), (Division, "top_cut_size")]:
        assert field(model, name).get_internal_type() == "PositiveSmallIntegerField"


# --- part 4: what import_wer accepts must work everywhere ------------------------------------


def assert_works_everywhere(slug: str, tmp_path: Path) -> dict:
    """``standings --json``, the TOM file and export_event → import_event all work."""
    standings = json.loads(run("standings", slug, "--json"))
    run("export_tdf", slug, str(tmp_path / "out.tdf"))
    run("export_event", slug, str(tmp_path / "out.json"))
    again = run("import_event", str(tmp_path / "out.json")).strip().splitlines()[-1]
    assert json.loads(run("standings", again, "--json"))["divisions"] == standings["divisions"]
    return standings


def test_a_wer_file_with_a_playoff_is_accepted_and_works_everywhere(tmp_path):
    """Round 4 as a playoff after the one draw is moved out of it: accepted, and its
    standings, TOM file and event JSON round trip all work."""
    text = WER.read_text(encoding="utf-8")
    text = text.replace('playoffstartround="0"', 'playoffstartround="4"')
    text = text.replace(
        'outcome="2" win="1" loss="1" draw="1"', 'outcome="1" win="2" loss="1" draw="0"'
    )
    path = tmp_path / "playoff.wer"
    path.write_text(text, encoding="utf-8")
    slug = run("import_wer", str(path)).strip().splitlines()[-1]
    assert Round.objects.filter(event__slug=slug, phase="top-cut").exists()
    assert assert_works_everywhere(slug, tmp_path)["ruleset"] == "mtg"


def test_the_shared_real_files_still_import_and_work_everywhere(tmp_path):
    for command, path in [("import_tdf", TDF), ("import_wer", WER), ("import_melee", MELEE)]:
        slug = run(command, str(path)).strip().splitlines()[-1]
        assert_works_everywhere(slug, tmp_path)


# --- fuzz: mutations of the shared real files ------------------------------------------------
#
# Each example mutates one real file a few times (a value replaced by another of the file,
# a number, text or markup; a match duplicated or removed; bytes inserted) and imports it:
# either its command refuses it with a CommandError and nothing is written, or it is
# imported and then works everywhere, and an export → import of it gives the same event
# (``roundtrip.view``). Any other exception fails the test. Longer runs:
# MATCHSLIP_FUZZ_EXAMPLES=2000 (per file).

FUZZ_EXAMPLES = int(os.environ.get("MATCHSLIP_FUZZ_EXAMPLES", "0"))
FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    print_blob=True,
)
_ATTRIBUTE_OR_TEXT = re.compile(r'="([^"]*)"|>([^<>]+)<')
_XML_ELEMENT = re.compile(r"<(match|round|player|person|pod)\b[^>]*?(/>|>.*?</\1>)", re.S)
NUMBERS = st.sampled_from([-5, -1, 0, 1, 2, 3, 4, 5, 9, 40, 41, 70_000, 99_999_999_999, 10**30])
TEXTS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "x" * 300, "\u0000", "\ud800", "<", "&#0;", "2025-13-45", "NaN"]),
    st.sampled_from(["draw", "bye", "loss", "double-loss", "top-cut", "single-elimination"]),
    st.sampled_from(["swiss-day2", "junior", "mtg", "pokemon-2009", "bo3-wins-against"]),
    st.sampled_from(["mtg-multiplayer", "TCG2DAY"]),
)


INDEX = st.integers(0, 10**6)  # taken modulo the number of candidates
XML_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("value"), INDEX, st.one_of(NUMBERS.map(str), TEXTS, INDEX)),
        st.tuples(st.just("element"), INDEX, st.sampled_from(["duplicate", "remove"])),
        st.tuples(st.just("bytes"), INDEX, st.binary(min_size=1, max_size=4)),
    ),
    min_size=1,
    max_size=3,
)


def apply_xml(content: bytes, ops: list[tuple]) -> bytes:
    """``content`` (XML) with each op applied: ``("value", i, new)`` replaces the i-th
    attribute value or element text by ``new`` (an int: a copy of that other value);
    ``("element", i, how)`` duplicates or removes the i-th match, round, player or pod;
    ``("bytes", i, raw)`` inserts raw bytes at offset i."""
    text = content.decode("utf-8")
    for kind, i, arg in ops:
        if kind == "value":
            spans = [
                m.span(1 if m.group(1) is not None else 2)
                for m in _ATTRIBUTE_OR_TEXT.finditer(text)
            ]
            start, end = spans[i % len(spans)]
            if isinstance(arg, int):
                other = spans[arg % len(spans)]
                arg = text[other[0] : other[1]]
            text = text[:start] + arg + text[end:]
        elif kind == "element" and (found := list(_XML_ELEMENT.finditer(text))):
            m = found[i % len(found)]
            kept = m.group(0) * 2 if arg == "duplicate" else ""
            text = text[: m.start()] + kept + text[m.end() :]
    raw = text.encode("utf-8", "surrogatepass")
    for kind, i, arg in ops:
        if kind == "bytes":
            at = i % (len(raw) + 1)
            raw = raw[:at] + arg + raw[at:]
    return raw


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, TEXTS, st.floats(allow_nan=False)),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
JSON_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("replace"), INDEX, JSON_VALUES),
        st.tuples(st.just("copy"), INDEX, INDEX),
        st.tuples(st.sampled_from(["delete", "duplicate"]), INDEX, st.none()),
    ),
    min_size=1,
    max_size=3,
)


def apply_json(content: bytes, ops: list[tuple]) -> bytes:
    """``content`` (JSON) with each op applied to the i-th value of the document (in
    document order): replaced by a new value or a copy of another, deleted, or (in a
    list) duplicated."""
    doc = json.loads(content)
    for kind, i, arg in ops:
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = paths[i % len(paths)]
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if kind == "replace":
            parent[key] = arg
        elif kind == "copy":
            value = doc
            for k in paths[arg % len(paths)]:
                value = value[k]
            parent[key] = json.loads(json.dumps(value))
        elif kind == "delete":
            del parent[key]
        elif isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(parent[key])))
    return json.dumps(doc).encode()


_EXPORTS: dict[str, bytes] = {}


def exported(command: str, path: Path, tmp: Path) -> bytes:
    """The event JSON export of a shared file imported with ``command`` (made once)."""
    if command not in _EXPORTS:
        slug = run(command, str(path)).strip().splitlines()[-1]
        run("export_event", slug, str(tmp / "seed.json"))
        _EXPORTS[command] = (tmp / "seed.json").read_bytes()
    return _EXPORTS[command]


def refused_cleanly_or_works_everywhere(command: str, content: bytes, tmp: Path) -> None:
    path = tmp / "mutated"
    path.write_bytes(content)
    before = rows()
    try:
        out = run(command, str(path))
    except CommandError:
        event("refused")
        assert rows() == before  # nothing written
        return
    event("imported")
    slug = out.strip().splitlines()[-1]
    json.loads(run("standings", slug, "--json"))
    imported = Event.objects.get(slug=slug)
    if imported.rules.features.tom_files:
        run("export_tdf", slug, str(tmp / "out.tdf"))
    run("export_event", slug, str(tmp / "out.json"))
    again = run("import_event", str(tmp / "out.json")).strip().splitlines()[-1]
    json.loads(run("standings", again, "--json"))
    # the copy equals what was imported: standings, next steps, next pairing's input
    assert view(Event.objects.get(slug=again)) == view(imported)


@settings(FUZZ, max_examples=FUZZ_EXAMPLES or 20)
@given(ops=XML_OPS)
def test_fuzzed_tom_files_are_refused_cleanly_or_work_everywhere(tmp_path, ops):
    refused_cleanly_or_works_everywhere("import_tdf", apply_xml(TDF.read_bytes(), ops), tmp_path)


@settings(FUZZ, max_examples=FUZZ_EXAMPLES or 15)
@given(ops=XML_OPS)
def test_fuzzed_wer_files_are_refused_cleanly_or_work_everywhere(tmp_path, ops):
    refused_cleanly_or_works_everywhere("import_wer", apply_xml(WER.read_bytes(), ops), tmp_path)


@settings(FUZZ, max_examples=FUZZ_EXAMPLES or 20)
@given(source=st.sampled_from([("import_tdf", TDF), ("import_wer", WER)]), ops=JSON_OPS)
def test_fuzzed_event_json_exports_are_refused_cleanly_or_work_everywhere(tmp_path, source, ops):
    content = apply_json(exported(*source, tmp_path), ops)
    refused_cleanly_or_works_everywhere("import_event", content, tmp_path)


# --- round gaps, keys given twice, numbers not in plain ASCII digits -------


def two_groups(*rounds: tuple[int, list[tuple[str, str]]]) -> bytes:
    """Juniors a, b and Masters c, d (two pairing groups); each round a list of matches."""
    players = [
        {"id": p, "name": p.upper(), "division": d}
        for p, d in zip("abcd", ["junior"] * 2 + ["masters"] * 2, strict=True)
    ]
    return doc(
        players=players,
        rounds=[
            {
                "number": n,
                "matches": [
                    {"table": t, "players": list(p), "result": p[0]}
                    for t, p in enumerate(ms, start=1)
                ],
            }
            for n, ms in rounds
        ],
    )


def twice(key: str, first: str, *, after: str = "") -> Callable[[bytes], bytes]:
    """JSON bytes with ``"key": first,`` put before the first ``"key":`` after ``after``."""

    def change(content: bytes) -> bytes:
        text = content.decode("utf-8")
        start = text.index(after) if after else 0
        at = text.index(f'"{key}":', start)
        return (text[:at] + f'"{key}": {first}, ' + text[at:]).encode()

    return change


def melee_twice(key: str, first: str) -> Callable[[], bytes]:
    return lambda: twice(key, first)(MELEE.read_bytes())


ROUND_GAP = {"number": 4, "matches": [{"table": 1, "players": ["a", "c"], "result": "a"}]}
ISSUE_21_CASES = {
    # round gaps: over the file, within one pairing group, within a TOM pod, in WER
    "json-rounds-1-2-4": Case(
        "import_event",
        doc(rounds=[event_doc()["rounds"][0] | {"number": n} for n in (1, 2, 4)]),
        r"^\S+: rounds\[2\]\.number: round 3 is missing; rounds run 1, 2, 3 … without a gap$",
    ),
    "json-empty-round-after-a-gap": Case(
        "import_event",
        doc(rounds=[event_doc()["rounds"][0], {"number": 3, "matches": []}]),
        r"rounds\[1\]\.number: round 2 is missing",
    ),
    "json-gap-in-one-pairing-group": Case(
        "import_event",
        two_groups((1, [("a", "b"), ("c", "d")]), (2, [("c", "d")]), (3, [("a", "b"), ("c", "d")])),
        r"rounds\[2\]\.number: round 2 of pairing group 'junior' is missing",
    ),
    "tom-pod-rounds-1-2-9-4": Case(
        "import_tdf",
        tdf(r'<round number="3"', '<round number="9"'),
        r"<pod category=8><round number=4>: round 3 is missing; rounds run 1, 2, 3 … without a gap",
    ),
    "wer-rounds-1-2-5-4": Case(
        "import_wer",
        wer(r'<round number="3" PlayFormat', '<round number="5" PlayFormat'),
        r"<round number=4> number: round 3 is missing",
    ),
    # a key given twice in one JSON object: the last would silently win
    "json-name-twice": Case(
        "import_event",
        twice("name", '"First Cup"')(doc()),
        r"^\S+: name: given twice in the same object; which one counts is unclear$",
    ),
    "json-result-twice": Case(
        "import_event",
        twice("result", '"b"', after='"matches"')(doc()),
        r": rounds\[0\]\.matches\[0\]\.result: given twice in the same object",
    ),
    "json-player-id-twice": Case(
        "import_event",
        twice("id", '"z"', after='"players"')(doc()),
        r": players\[0\]\.id: given twice in the same object",
    ),
    "melee-result-twice": Case(
        "import_melee",
        melee_twice("Result", '"2-0-0"'),
        r": Rounds\[0\]\.Matches\[0\]\.Result: given twice in the same object",
    ),
    # numbers Python's int() reads though no official software writes them
    "tom-table-1_0_0": Case(
        "import_tdf",
        tdf(r"<tablenumber>1<", "<tablenumber>1_0_0<"),
        r"<match #\d+><tablenumber>: expected an integer, got '1_0_0'",
    ),
    "tom-round-number-arabic-indic-digit": Case(
        "import_tdf",
        tdf(r'<round number="2"', '<round number="\u0662"'),
        r"<pod category=8><round> number: expected an integer, got '\u0662'",
    ),
    "tom-drop-round-plus-sign": Case(
        "import_tdf",
        tdf(r"<round>2</round>", "<round>+2</round>", after="<dropped>"),
        r"<dropped><round>: expected an integer, got '\+2'",
    ),
    "tom-outcome-fullwidth-digit": Case(
        "import_tdf",
        tdf(r'outcome="1"', 'outcome="\uff11"'),
        r"outcome: expected an integer, got '\uff11'",
    ),
    "wer-games-arabic-indic-digit": Case(
        "import_wer",
        wer(r'win="2"', 'win="\u0662"'),
        r"attribute 'win' must be a whole number, got '\u0662'",
    ),
    "wer-round-1_0": Case(
        "import_wer",
        wer(r'<round number="1" PlayFormat', '<round number="1_0" PlayFormat'),
        r"<matches><round>: attribute 'number' must be a whole number, got '1_0'",
    ),
    "melee-result-arabic-indic-digits": Case(
        "import_melee",
        melee(lambda d: _set_first_result(d, "\u0662-\u0660-\u0660")),
        r"Rounds\[0\]\.Matches\[0\]: expected Player1 and a Result 'W-L-D'",
    ),
}


@pytest.mark.parametrize("case", ISSUE_21_CASES.values(), ids=ISSUE_21_CASES.keys())
def test_issue_21_malformed_files_are_refused_naming_the_field_and_create_no_event(tmp_path, case):
    path = tmp_path / "malformed"
    case.write(path)
    before = rows()
    with pytest.raises(CommandError, match=case.message) as refused:
        run(case.command, str(path))
    assert str(refused.value).startswith(f"{path}: ")
    assert rows() == before
    assert not Event.objects.exists()


UPLOADED_JSON = {
    "json-rounds-1-2-4": ("event-json", "rounds[2].number: round 3 is missing;"),
    "json-result-twice": ("event-json", "rounds[0].matches[0].result: given twice"),
    "melee-result-twice": ("melee", "Rounds[0].Matches[0].Result: given twice"),
}


@pytest.mark.parametrize("name", UPLOADED_JSON.keys())
def test_issue_21_the_upload_readers_refuse_the_same_json(tmp_path, name):
    """The Import an event file page's readers (``import_jobs.READERS``) refuse what the
    commands refuse, with the same message."""
    from interchange.formats.checks import FileRefused
    from interchange.services.import_jobs import READERS

    path = tmp_path / "malformed"
    ISSUE_21_CASES[name].write(path)
    reader, message = UPLOADED_JSON[name]
    with pytest.raises(FileRefused) as refused:
        READERS[reader](path.read_bytes())
    assert str(refused.value).startswith(message)


@pytest.mark.django_db(transaction=True)  # the import job runs when the upload commits
@pytest.mark.parametrize(
    "name", ["tom-pod-rounds-1-2-9-4", "tom-table-1_0_0", "tom-round-number-arabic-indic-digit"]
)
def test_issue_21_a_malformed_tom_file_is_refused_on_the_upload_page(client, tmp_path, name):
    client.force_login(factories.user("uploader"))
    path = tmp_path / "malformed.tdf"
    ISSUE_21_CASES[name].write(path)
    before = rows()
    with path.open("rb") as f:
        response = client.post(reverse("staff:tdf_import"), {"file": f})
    assert response.status_code == 200
    (error,) = response.context["form"].errors["file"]
    assert error.startswith("Nothing was imported.")
    assert re.search(ISSUE_21_CASES[name].message, error)
    assert rows() == before and not Event.objects.exists()


def test_issue_21_plain_int_reads_ascii_digits_only():
    from interchange.formats.plain import plain_int

    assert [plain_int(s) for s in ("0", " 42 ", "-5", "007")] == [0, 42, -5, 7]
    for bad in ("1_0_0", "\u0661", "+5", "1e3", "", " ", "\uff11", "4.0"):
        with pytest.raises(ValueError):
            plain_int(bad)
