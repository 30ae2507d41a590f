"""melee.gg events: the converter, and the published standings recomputed from the raw
results (M-TB, R-7, R-8, melee ranking).

With the 1/3 floor (R-7) and the Swiss rounds only (R-8), every player's OMWP and OGWP
equal the published values to 6 decimals — in fact to the 8 decimals melee.gg prints —
and the published GWP is the game-win % *without* the floor. With ``melee_ranking``
(rank by that unfloored GW%) every place equals the published ``Rank``; ``Rank`` is the
Swiss standing (the playoffs do not reorder it).
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from typing import Any

import pytest

from interchange.formats.eventdata import EventData, MatchData
from interchange.formats.melee import (
    MeleeError,
    MeleeStanding,
    melee_published_standings,
    melee_to_event_data,
)
from standings.engine.mtg import MELEE_FLOOR, MTR_FLOOR, MtgStandingRow, mtg_standings
from standings.engine.types import Entrant, MatchRecord, Outcome
from tests.paths import DATA

MTG_DATA = DATA / "mtg"
FILES = ["melee-legacy-2025-05-15.json", "melee-standard-2024-12-29-93p.json"]
SIX_DECIMALS = F(1, 2 * 10**6)


def load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((MTG_DATA / name).read_text(encoding="utf-8"))
    return doc


def records(event: EventData, phase: str) -> list[MatchRecord]:
    return [
        MatchRecord(r.number, m.players, Outcome(m.outcome), m.winner, _games(m))
        for r in event.rounds
        if r.phase == phase
        for m in r.matches
    ]


def _games(m: MatchData) -> tuple[int, int, int] | None:
    return (m.games[0], m.games[1], m.games[2]) if m.games else None


def compute(doc: dict[str, Any], **options: Any) -> dict[str, MtgStandingRow]:
    event = melee_to_event_data(doc)
    entrants = [Entrant(p.id, dropped_after_round=p.dropped_after_round) for p in event.players]
    rows = mtg_standings(
        entrants,
        records(event, "swiss"),
        rounds=event.divisions[0].swiss_rounds,
        playoffs=records(event, "top-cut"),
        **options,
    )
    return {r.player: r for r in rows}


def published(doc: dict[str, Any]) -> dict[str, MeleeStanding]:
    return {s.player: s for s in melee_published_standings(doc)}


MELEE = {"mwp_floor": MELEE_FLOOR, "melee_ranking": True}


@pytest.mark.parametrize("name", FILES)
def test_R_7_omw_and_ogw_equal_the_published_values_with_the_one_third_floor(name: str) -> None:
    doc = load(name)
    ours, theirs = compute(doc, **MELEE), published(doc)
    assert ours.keys() == theirs.keys()
    for pid, pub in theirs.items():
        row = ours[pid]
        assert abs(row.omw - F(pub.omwp)) < SIX_DECIMALS, pid
        assert abs(row.ogw - F(pub.ogwp)) < SIX_DECIMALS, pid
        # melee.gg prints exactly our values rounded to 8 decimals
        assert (round(row.omw, 8), round(row.ogw, 8)) == (F(pub.omwp), F(pub.ogwp)), pid


@pytest.mark.parametrize("name", FILES)
def test_published_gwp_is_the_game_win_pct_without_the_floor(name: str) -> None:
    doc = load(name)
    ours = compute(doc, **MELEE)
    for pid, pub in published(doc).items():
        assert round(ours[pid].gw_unfloored, 8) == F(pub.gwp), pid
    assert any(pub.gwp < F(1, 3) for pub in published(doc).values())  # so the floor matters


@pytest.mark.parametrize("name", FILES)
def test_melee_ranking_reproduces_every_published_rank(name: str) -> None:
    doc = load(name)
    ours, theirs = compute(doc, **MELEE), published(doc)
    assert {pid: row.place for pid, row in ours.items()} == {p: s.rank for p, s in theirs.items()}
    assert {pid: row.match_points for pid, row in ours.items()} == {
        p: s.points for p, s in theirs.items()
    }
    assert {pid: row.record for pid, row in ours.items()} == {
        p: f"{s.wins}-{s.losses}-{s.draws}" for p, s in theirs.items()
    }


@pytest.mark.parametrize("name", FILES)
def test_without_melee_ranking_the_floored_gw_misorders_the_published_ranks(name: str) -> None:
    doc = load(name)
    ours, theirs = compute(doc, mwp_floor=MELEE_FLOOR), published(doc)
    assert any(row.place != theirs[pid].rank for pid, row in ours.items())


@pytest.mark.parametrize("name", FILES)
def test_R_7_the_mtr_floor_does_not_reproduce_melee(name: str) -> None:
    doc = load(name)
    ours, theirs = compute(doc, mwp_floor=MTR_FLOOR, melee_ranking=True), published(doc)
    assert any(abs(row.omw - F(theirs[pid].omwp)) >= SIX_DECIMALS for pid, row in ours.items())


def test_R_8_melee_leaves_the_playoffs_out_of_the_tiebreakers() -> None:
    doc = load(FILES[1])  # the event with a top 8
    event = melee_to_event_data(doc)
    top8 = {p for m in records(event, "top-cut") for p in m.players}
    met_top8 = {p for m in records(event, "swiss") if top8 & set(m.players) for p in m.players}
    ours = compute(doc, **MELEE, playoffs_in_tiebreakers=True)
    theirs = published(doc)
    off = {pid for pid, row in ours.items() if abs(row.omw - F(theirs[pid].omwp)) >= SIX_DECIMALS}
    assert len(off) == 42
    assert off <= top8 | met_top8  # the playoff results reach them through their opponents
    assert compute(doc, **MELEE)["Q075"].place == 1  # lost the quarter-final: still Rank 1


# --- the converter -------------------------------------------------------------------------


def test_melee_to_event_data_rounds_byes_drops_and_options() -> None:
    event = melee_to_event_data(load(FILES[1]))
    assert (event.ruleset, len(event.players)) == ("mtg", 93)
    assert [r.phase for r in event.rounds] == ["swiss"] * 7 + ["top-cut"] * 3
    assert [r.number for r in event.rounds] == list(range(1, 11))
    assert (event.divisions[0].swiss_rounds, event.divisions[0].top_cut) == (7, 8)
    assert sum(p.dropped_after_round is not None for p in event.players) == 44
    byes = [m.players for r in event.rounds for m in r.matches if m.outcome == "bye"]
    assert byes[0] == ("Q084",)
    assert event.options == {
        "mwp_floor": "1/3",
        "playoffs_in_tiebreakers": False,
        "melee_ranking": True,
    }
    assert str(event.date) == "2024-12-29"


def test_melee_result_is_w_l_d_games_for_player1() -> None:
    doc = {
        "Rounds": [
            {
                "RoundName": "Round 1",
                "Matches": [
                    {"Player1": "a", "Player2": "b", "Result": "1-2-0"},
                    {"Player1": "c", "Player2": "d", "Result": "1-1-1"},
                    {"Player1": "e", "Player2": "-", "Result": "2-0-0"},
                ],
            }
        ],
        "Standings": [],
    }
    event = melee_to_event_data(doc)
    assert event.rounds[0].matches == (
        MatchData(None, ("a", "b"), "win", "b", [1, 2, 0]),
        MatchData(None, ("c", "d"), "draw", None, [1, 1, 1]),
        MatchData(None, ("e",), "bye"),
    )


def _one(match: dict[str, Any], name: str = "Round 1") -> dict[str, Any]:
    return {"Rounds": [{"RoundName": name, "Matches": [match]}], "Standings": []}


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], r"^: expected an object"),
        ({"Standings": []}, r"^\.Rounds: expected list"),
        (_one({"Player1": "a", "Player2": "b", "Result": "2-0"}), r"Rounds\[0\]\.Matches\[0\]"),
        (_one({"Player1": "a", "Result": "2-0-0"}), r"Rounds\[0\]\.Matches\[0\]\.Player2"),
        (_one({"Player1": "a", "Player2": "a", "Result": "2-0-0"}), "cannot play themselves"),
        (
            {
                "Rounds": [
                    {"RoundName": "Finals", "Matches": []},
                    {"RoundName": "Round 2", "Matches": []},
                ],
                "Standings": [],
            },
            r"Rounds\[1\]\.RoundName: Swiss round 'Round 2' after the playoffs",
        ),
    ],
)
def test_melee_to_event_data_refuses_bad_documents_naming_the_field(doc: Any, message: str) -> None:
    with pytest.raises(MeleeError, match=message):
        melee_to_event_data(doc)


def test_a_player_twice_in_a_round_is_refused() -> None:
    doc = {
        "Rounds": [
            {
                "RoundName": "Round 1",
                "Matches": [
                    {"Player1": "a", "Player2": "b", "Result": "2-0-0"},
                    {"Player1": "a", "Player2": "c", "Result": "2-0-0"},
                ],
            }
        ],
        "Standings": [],
    }
    with pytest.raises(MeleeError, match=r"Rounds\[0\]\.Matches: a player plays twice"):
        melee_to_event_data(doc)


def test_melee_published_standings_keep_the_printed_values() -> None:
    first = melee_published_standings(load(FILES[0]))[0]
    assert (first.rank, first.player, first.points, first.wins) == (1, "Q003", 12, 4)
    assert str(first.omwp) == "0.60416667"
    with pytest.raises(MeleeError, match=r"Standings\[0\]\.OMWP: expected a number"):
        melee_published_standings({"Standings": [{**vars_of(first), "OMWP": "x"}]})


def vars_of(s: MeleeStanding) -> dict[str, Any]:
    return {
        "Rank": s.rank,
        "Player": s.player,
        "Points": s.points,
        "Wins": s.wins,
        "Losses": s.losses,
        "Draws": s.draws,
        "OMWP": float(s.omwp),
        "GWP": float(s.gwp),
        "OGWP": float(s.ogwp),
    }
