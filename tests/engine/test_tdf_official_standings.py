"""Recompute the official final standings of a real League Cup from its raw results.

``2025-dg-nov-cup.tdf`` (TOM 1.80): a Masters pod (18 players, 5 Swiss rounds, top 4)
and one combined Junior+Senior pod (category 8, 11 players, 4 rounds, top 4 Seniors),
15 ties, 2 byes, 5 drops. Per pod: Swiss standings with :func:`pokemon_standings`
(R-5: the combined pod is ONE pod for OWP), then per division: filter the pod's order
to the division (P-AGE-3, R-5) and apply the division's top cut from the type-1 rounds
(P-TC-2, P-TC-3, R-4). Every place of every division must equal ``<standings>``.

What made it reproduce (see :mod:`standings.engine.tiebreakers`): win % = (W + ½T) ÷
non-bye rounds (R-1), and dropped players frozen as a whole snapshot of the standings
after their drop round: their OWP *and* OOWP use everyone's records as of that round (R-2).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from interchange.formats.tdf import TdfPod, TdfRound, TdfTournament, parse_tdf, player_division
from standings.engine.placement import top_cut_places
from standings.engine.ranking import pokemon_standings
from standings.engine.types import Entrant, MatchRecord, Outcome, StandingRow
from tests.paths import DATA

TDF = DATA / "pokemon/2025-dg-nov-cup.tdf"
DIVISION_CATEGORY = {"junior": 0, "senior": 1, "masters": 2}


@pytest.fixture(scope="module")
def cup() -> TdfTournament:
    return parse_tdf(TDF.read_bytes())


def records(rounds: tuple[TdfRound, ...]) -> list[MatchRecord]:
    return [
        MatchRecord(r.number, m.players, Outcome(m.result.value), m.winner)
        for r in rounds
        for m in r.matches
    ]


def swiss(cup: TdfTournament, pod: TdfPod) -> tuple[StandingRow, ...]:
    people = [
        Entrant(
            pid,
            late=not cup.player(pid).starter,
            dropped_after_round=cup.player(pid).dropped_round,
        )
        for pid in pod.player_ids
    ]
    return pokemon_standings(people, records(pod.swiss_rounds), rounds=len(pod.swiss_rounds))


def final_places(cup: TdfTournament, division: str) -> tuple[str, ...]:
    pod = next(p for p in cup.pods if division in p.divisions)
    order = [row.player for row in swiss(cup, pod) if player_division(cup, row.player) == division]
    cut = [m for m in records(pod.elimination_rounds) if set(m.players) <= set(order)]
    return top_cut_places(order, cut)


@pytest.mark.parametrize(("division", "size"), [("masters", 18), ("senior", 9), ("junior", 2)])
def test_R_4_R_5_every_place_equals_the_official_standings(
    cup: TdfTournament, division: str, size: int
) -> None:
    official = cup.official_places(DIVISION_CATEGORY[division])
    assert len(official) == size
    assert final_places(cup, division) == official


@pytest.mark.parametrize(
    ("division", "seeds"),
    [
        ("masters", ("9000015", "9000027", "9000028", "9000025")),
        ("senior", ("9000011", "9000023", "9000014", "9000016")),
    ],
)
def test_P_TC_1_swiss_top_4_are_the_files_top_cut_seeds(
    cup: TdfTournament, division: str, seeds: tuple[str, ...]
) -> None:
    """TOM stores each cut player's seed as ``<seed>``: our Swiss ranks agree."""
    pod = next(p for p in cup.pods if division in p.divisions)
    order = [r.player for r in swiss(cup, pod) if player_division(cup, r.player) == division]
    assert tuple(order[:4]) == seeds
    assert [dict(cup.player(pid).raw)["seed"] for pid in seeds] == ["1", "2", "3", "4"]
    cut = next(c.cut for c in cup.finals_options if c.category == DIVISION_CATEGORY[division])
    assert {pid for m in records(pod.elimination_rounds) for pid in m.players} >= set(order[:cut])


def test_R_2_players_10_and_18_are_separated_by_oowp_as_of_their_drop_round(
    cup: TdfTournament,
) -> None:
    """Both 1-3, dropped after round 4, equal frozen OWP 9/16.

    Officially 10 is 15th and 18 is 16th. Only OOWP computed from the opponents' OWP as of
    round 4 gives that (31/64 > 15/32); with the opponents' final OWP it reverses.
    """
    masters = next(p for p in cup.pods if p.category == 2)
    rows = {row.player: row for row in swiss(cup, masters)}
    p10, p18 = rows["9000010"], rows["9000018"]
    assert (p10.owp, p18.owp) == (F(9, 16), F(9, 16))
    assert (p10.oowp, p18.oowp) == (F(31, 64), F(15, 32))
    assert (p10.place, p18.place) == (15, 16)
    assert p10.dropped and p18.dropped
