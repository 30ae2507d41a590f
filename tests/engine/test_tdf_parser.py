"""The TOM ``.tdf`` parser: the real export and malformed snippets (P-AGE-1 divisions too)."""

from __future__ import annotations

from datetime import date

import pytest

from interchange.formats.tdf import (
    MatchResult,
    TdfError,
    TdfTournament,
    parse_tdf,
    player_division,
)
from standings.engine.types import Outcome
from tests.paths import DATA
from tournaments.ages import division_for, season_end_year

TDF = DATA / "pokemon/2025-dg-nov-cup.tdf"


@pytest.fixture(scope="module")
def cup() -> TdfTournament:
    return parse_tdf(TDF.read_bytes())


def snippet(matches: str, players: str = "") -> str:
    """A minimal tournament with players 1 and 2 and one Swiss round holding ``matches``."""
    players = players or '<player userid="1"/><player userid="2"/>'
    return (
        f"<tournament><data><name>x</name></data><players>{players}</players>"
        f'<pods><pod category="2"><rounds><round number="1" type="3" stage="6">'
        f"<matches>{matches}</matches></round></rounds></pod></pods></tournament>"
    )


def test_real_file_event_data(cup: TdfTournament) -> None:
    event = cup.event
    assert (event.name, event.id, event.city, event.country) == (
        "2025 DG Nov Cup",
        "25-11-024905",
        "Auckland",
        "New Zealand",
    )
    assert event.startdate == date(2025, 11, 30)
    assert (event.roundtime, event.finalsroundtime) == (50, 75)
    assert (event.version, event.mode, event.gametype) == ("1.80", "TCG1DAY", "TRADING_CARD_GAME")
    assert ("lessswiss", "false") in event.raw
    assert cup.raw == (("timeelapsed", "23287"),)


def test_real_file_players(cup: TdfTournament) -> None:
    assert len(cup.players) == 29
    assert all(p.starter for p in cup.players)
    dropped = {p.userid: p.dropped_round for p in cup.players if p.dropped_round is not None}
    assert dropped == {"9000002": 2, "9000005": 4, "9000010": 4, "9000018": 4, "9000024": 4}
    p11 = cup.player("9000011")
    assert (p11.firstname, p11.lastname, p11.birth_year) == ("Player", "011", 2011)
    assert ("seed", "1") in p11.raw  # unknown children are kept for an exporter


def test_real_file_pods_rounds_and_matches(cup: TdfTournament) -> None:
    juniors_seniors, masters = cup.pods
    assert (juniors_seniors.category, len(juniors_seniors.player_ids)) == (8, 11)
    assert juniors_seniors.divisions == ("junior", "senior")
    assert (masters.category, len(masters.player_ids)) == (2, 18)
    assert [r.number for r in masters.swiss_rounds] == [1, 2, 3, 4, 5]
    assert [r.number for r in masters.elimination_rounds] == [6, 7]
    assert [r.stage for r in masters.rounds] == ["6", "6", "6", "6", "8", "6", "8"]
    first = juniors_seniors.rounds[0].matches[0]
    assert (first.result, first.players, first.winner) == (MatchResult.BYE, ("9000012",), "9000012")
    assert first.table_number == 0
    second = juniors_seniors.rounds[0].matches[1]
    assert (second.outcome_code, second.winner, second.timestamp) == (
        2,
        "9000011",
        "11/30/2025 11:33:25",
    )
    all_matches = [m for pod in cup.pods for r in pod.swiss_rounds for m in r.matches]
    assert sum(m.result is MatchResult.DRAW for m in all_matches) == 15
    assert sum(m.result is MatchResult.BYE for m in all_matches) == 2


def test_real_file_standings_and_finals_options(cup: TdfTournament) -> None:
    assert len(cup.official_places(2)) == 18
    assert len(cup.official_places(1)) == 9
    assert cup.official_places(0) == ("9000017", "9000002")
    assert cup.official_places(2, "dnf") == ()
    cuts = {c.category: (c.cut, c.player_count, c.paired_3rd_4th) for c in cup.finals_options}
    assert cuts == {2: (4, 18, False), 1: (4, 9, False), 0: (0, 2, False)}


@pytest.mark.parametrize(
    ("code", "players", "result", "winner"),
    [
        (1, 2, MatchResult.WIN, "1"),
        (2, 2, MatchResult.WIN, "2"),
        (3, 2, MatchResult.DRAW, None),
        (10, 2, MatchResult.DOUBLE_LOSS, None),
        (0, 2, MatchResult.PENDING, None),
        (5, 1, MatchResult.BYE, "1"),
        (8, 1, MatchResult.LATE_LOSS, None),
    ],
)
def test_outcome_codes_map_to_results(
    code: int, players: int, result: MatchResult, winner: str | None
) -> None:
    inner = '<player1 userid="1"/><player2 userid="2"/>' if players == 2 else '<player userid="1"/>'
    match = (
        parse_tdf(snippet(f'<match outcome="{code}">{inner}</match>')).pods[0].rounds[0].matches[0]
    )
    assert (match.result, match.winner) == (result, winner)
    assert Outcome(match.result.value) == match.result  # same values as the engine's Outcome


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<tournament><players>", "not well-formed XML"),
        ("<event/>", "root element is <event>"),
        (
            snippet('<match outcome="1"><player1 userid="1"/><player2 userid="99"/></match>'),
            "<player2>: userid '99' is not in <players>",
        ),
        (
            snippet("", players='<player userid="1"/><player/>'),
            "<player>: missing attribute 'userid'",
        ),
        (
            snippet('<match outcome="7"><player1 userid="1"/><player2 userid="2"/></match>'),
            "unknown outcome code 7",
        ),
        (
            snippet('<match outcome="5"><player1 userid="1"/><player2 userid="2"/></match>'),
            "needs 1",
        ),
        (
            snippet('<match outcome="x"><player userid="1"/></match>'),
            "outcome: expected an integer",
        ),
        (snippet("", players='<player userid="1"/><player userid="1"/>'), "duplicate userid"),
        (
            snippet("", players='<player userid="1"><birthdate>1990</birthdate></player>'),
            "<birthdate>: expected MM/DD/YYYY",
        ),
        (
            '<!DOCTYPE t [<!ENTITY a "aaaa">]><tournament>&a;</tournament>',
            "forbidden XML construct",
        ),
    ],
)
def test_malformed_input_raises_tdf_error_naming_the_element(text: str, message: str) -> None:
    with pytest.raises(TdfError) as caught:
        parse_tdf(text)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_P_AGE_1_season_runs_july_to_june() -> None:
    assert season_end_year(date(2025, 11, 30)) == 2026
    assert season_end_year(date(2026, 6, 30)) == 2026
    assert season_end_year(date(2026, 7, 1)) == 2027


@pytest.mark.parametrize(
    ("season", "junior_from", "senior_from", "masters_to"),
    [
        (2010, 1999, 1995, 1994),  # 2009 document
        (2019, 2008, 2004, 2003),  # 2019 document
        (2021, 2009, 2005, 2004),  # same birth years as 2020 (pandemic)
        (2022, 2010, 2006, 2005),
        (2026, 2014, 2010, 2009),  # confirmed by the 2025 DG Nov Cup file
    ],
)
def test_P_AGE_1_division_boundaries(
    season: int, junior_from: int, senior_from: int, masters_to: int
) -> None:
    assert division_for(junior_from, season) == "junior"
    assert division_for(junior_from - 1, season) == "senior"
    assert division_for(senior_from, season) == "senior"
    assert division_for(masters_to, season) == "masters"


def test_P_AGE_1_divisions_agree_with_the_official_standings(cup: TdfTournament) -> None:
    names = {0: "junior", 1: "senior", 2: "masters"}
    for standing in cup.standings:
        assert player_division(cup, standing.player_id) == names[standing.category]


def test_pod_without_subgroups_takes_its_players_from_the_matches() -> None:
    text = snippet('<match outcome="2"><player1 userid="2"/><player2 userid="1"/></match>')
    pod = parse_tdf(text).pods[0]
    assert pod.player_ids == ("2", "1")
    assert pod.rounds[0].matches[0].winner == "1"
