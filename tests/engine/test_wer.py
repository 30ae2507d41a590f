"""Wizards Event Reporter files: the parser, and the official final order of a real event
recomputed from its raw results (M-TB, R-7, R-8).

``wer-modern-weekly-2018-10-29.wer``: 24 players, 4 Swiss rounds, no playoff, one bye,
one drawn match, two drops. The official order (``<role cd="PL" type="PA">``) is
reproduced place for place with the 0.33 floor (R-7) — with playoffs in the tiebreakers
or not (R-8): the event has no playoff round, so both settings give the same order. The
melee.gg floor of exactly 1/3 swaps places 21 and 22.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from interchange.formats.eventdata import EventData, MatchData
from interchange.formats.wer import WerError, parse_wer, wer_official_order
from standings.engine.mtg import MELEE_FLOOR, MTR_FLOOR, mtg_standings
from standings.engine.placement import top_cut_places
from standings.engine.types import Entrant, MatchRecord, Outcome
from tests.paths import DATA

WER = DATA / "mtg/wer-modern-weekly-2018-10-29.wer"


@pytest.fixture(scope="module")
def text() -> bytes:
    return WER.read_bytes()


@pytest.fixture(scope="module")
def event(text: bytes) -> EventData:
    return parse_wer(text)


def records(event: EventData, phase: str) -> list[MatchRecord]:
    return [
        MatchRecord(r.number, m.players, Outcome(m.outcome), m.winner, _games(m))
        for r in event.rounds
        if r.phase == phase
        for m in r.matches
    ]


def _games(m: MatchData) -> tuple[int, int, int] | None:
    return (m.games[0], m.games[1], m.games[2]) if m.games else None


def final_order(event: EventData, floor: F, playoffs_in_tiebreakers: bool) -> list[str]:
    entrants = [Entrant(p.id, dropped_after_round=p.dropped_after_round) for p in event.players]
    playoffs = records(event, "top-cut")
    rows = mtg_standings(
        entrants,
        records(event, "swiss"),
        rounds=event.divisions[0].swiss_rounds,
        mwp_floor=floor,
        playoffs=playoffs,
        playoffs_in_tiebreakers=playoffs_in_tiebreakers,
    )
    return list(top_cut_places([r.player for r in rows], playoffs))


# --- the real event ------------------------------------------------------------------------


@pytest.mark.parametrize("playoffs_in_tiebreakers", [False, True], ids=["swiss-only", "wer"])
def test_R_7_R_8_every_final_place_equals_the_official_wer_order(
    event: EventData, text: bytes, playoffs_in_tiebreakers: bool
) -> None:
    official = wer_official_order(text)
    assert len(official) == 24
    assert final_order(event, MTR_FLOOR, playoffs_in_tiebreakers) == official


def test_R_7_the_one_third_floor_does_not_reproduce_wer(event: EventData, text: bytes) -> None:
    official = wer_official_order(text)
    ours = final_order(event, MELEE_FLOOR, False)
    wrong = [k + 1 for k, (a, b) in enumerate(zip(ours, official, strict=True)) if a != b]
    assert wrong == [21, 22]


def test_M_TB_the_real_event_is_decided_by_each_tiebreaker(event: EventData) -> None:
    entrants = [Entrant(p.id, dropped_after_round=p.dropped_after_round) for p in event.players]
    rows = mtg_standings(entrants, records(event, "swiss"), rounds=4)
    keys = [(r.match_points, r.omw, r.gw, r.ogw) for r in rows]
    assert keys == sorted(keys, reverse=True)  # M-TB: points, OMW, GW, OGW
    decided_by = {
        next(i for i in range(4) if a[i] != b[i]) for a, b in zip(keys, keys[1:], strict=False)
    }
    assert decided_by == {0, 1, 2}  # points, OMW and GW each separate some neighbours


# --- the parser ----------------------------------------------------------------------------


def test_parse_wer_reads_players_rounds_games_and_drops(event: EventData) -> None:
    assert (event.ruleset, len(event.players), event.name) == ("mtg", 24, "Magic Tournament")
    assert [(r.number, r.phase, len(r.matches)) for r in event.rounds] == [
        (1, "swiss", 12),
        (2, "swiss", 12),
        (3, "swiss", 12),
        (4, "swiss", 11),
    ]
    assert {p.id: p.dropped_after_round for p in event.players if p.dropped_after_round} == {
        "100014": 2,
        "100022": 3,
    }
    assert event.players[0].name == "Player 001"
    assert event.options == {"mwp_floor": "0.33", "playoffs_in_tiebreakers": True}
    assert event.divisions[0].swiss_rounds == 4 and event.divisions[0].top_cut == 0
    assert str(event.date) == "2018-10-29"


def test_parse_wer_outcomes_bye_draw_and_win_with_games(event: EventData) -> None:
    r3, r4 = event.rounds[2], event.rounds[3]
    assert r3.matches[0] == MatchData(None, ("100011",), "bye")
    assert r4.matches[0] == MatchData(None, ("100021", "100012"), "draw", None, [1, 1, 1])
    assert r4.matches[1] == MatchData(None, ("100015", "100008"), "win", "100015", [2, 0, 0])


def _doc(matches: str, extra: str = "", event_attrs: str = "") -> str:
    people = "".join(f'<person id="{p}" first="F" last="{p}" />' for p in ("a", "b", "c", "d"))
    return (
        f'<event title="T" startdate="2019-01-12" {event_attrs}><participation>{people}{extra}'
        f'<role cd="PL" type="PA"><ref person="b" seq="2" /><ref person="a" seq="1" /></role>'
        f"</participation><matches>{matches}</matches></event>"
    )


ROUND_1 = (
    '<round number="1"><match person="a" opponent="b" outcome="1" win="2" loss="1" draw="0" />'
    '<match person="c" opponent="d" outcome="1" win="1" loss="0" draw="2" /></round>'
)


def test_parse_wer_playoff_rounds_from_playoffstartround() -> None:
    final = (
        '<round number="2"><match person="a" opponent="c" outcome="1" win="2" loss="0" /></round>'
    )
    event = parse_wer(_doc(ROUND_1 + final, event_attrs='playoffstartround="2"'))
    assert [(r.number, r.phase) for r in event.rounds] == [(1, "swiss"), (2, "top-cut")]
    assert (event.divisions[0].swiss_rounds, event.divisions[0].top_cut) == (1, 2)


def test_parse_wer_only_status_3_is_a_drop_its_round_taken_from_the_matches() -> None:
    teams = (
        '<team status="3" eliminationround="9"><member person="a" /></team>'
        '<team status="4" eliminationround="1"><member person="b" /></team>'
        '<team status="3" eliminationround="0"><member person="c" /></team>'
    )
    players = {p.id: p.dropped_after_round for p in parse_wer(_doc(ROUND_1, teams)).players}
    assert players == {"a": 1, "b": None, "c": 1, "d": None}


def test_wer_official_order_sorts_by_seq() -> None:
    assert wer_official_order(_doc(ROUND_1)) == ["a", "b"]


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ("<event", "not well-formed XML"),
        ("<tournament />", "root element is <tournament>, expected <event>"),
        (_doc(ROUND_1.replace('opponent="b"', 'opponent="z"')), "person 'z' is not in"),
        (_doc(ROUND_1.replace('outcome="1" win="2"', 'outcome="7" win="2"')), "unknown outcome"),
        (_doc(ROUND_1.replace('win="2" loss="1"', 'win="1" loss="2"')), "does not fit the games"),
        (_doc(ROUND_1.replace('win="2"', 'win="x"')), "'win' must be a whole number"),
        (_doc(ROUND_1.replace('opponent="d"', 'opponent="a"')), "plays twice in the round"),
        (_doc(ROUND_1 + ROUND_1), "two rounds share the same number"),
        ('<!DOCTYPE x [<!ENTITY a "b">]><event />', "forbidden XML construct"),
    ],
)
def test_parse_wer_refuses_malformed_files_naming_the_element(doc: str, message: str) -> None:
    with pytest.raises(WerError, match=message):
        parse_wer(doc)


def test_parse_wer_error_names_the_match() -> None:
    with pytest.raises(WerError, match=r"<round number=1><match #2>: unknown outcome '5'"):
        parse_wer(_doc(ROUND_1.replace('outcome="1" win="1"', 'outcome="5" win="1"')))


def test_wer_official_order_needs_the_role() -> None:
    with pytest.raises(WerError, match='no <role cd="PL" type="PA">'):
        wer_official_order("<event><participation /></event>")
