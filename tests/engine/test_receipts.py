"""Tiebreaker receipts of the standings engines: hand-checked cases
naming the rule of every floor, cap, freeze, bye and virtual opponent shown, and the
property that a receipt always adds up to the standings' own value."""

from __future__ import annotations

import random
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from standings.engine.mtg import MELEE_FLOOR, MTR_FLOOR, mtg_standings
from standings.engine.multiplayer import PodResult, multiplayer_standings
from standings.engine.ranking import pokemon_standings
from standings.engine.receipts import (
    Adjustment,
    Applied,
    LineKind,
    Result,
    changes,
    mtg_receipts,
    multiplayer_receipts,
    pokemon_receipts,
    wins_against_receipts,
)
from standings.engine.types import Entrant, MatchRecord, Outcome
from standings.engine.wins_against import wins_against_standings


def win(r: int, winner: str, loser: str, games: tuple[int, int, int] | None = None) -> MatchRecord:
    return MatchRecord(r, (winner, loser), Outcome.WIN, winner, games)


def tie(r: int, a: str, b: str) -> MatchRecord:
    return MatchRecord(r, (a, b), Outcome.DRAW)


def bye(r: int, a: str) -> MatchRecord:
    return MatchRecord(r, (a,), Outcome.BYE, a)


def players(ids: str, dropped: dict[str, int] | None = None) -> list[Entrant]:
    drops = dropped or {}
    return [Entrant(p, dropped_after_round=drops.get(p)) for p in ids.split()]


def rules_of(applied: tuple[Applied, ...]) -> set[tuple[Adjustment, tuple[str, ...]]]:
    return {(a.adjustment, a.rules) for a in applied}


# --- Pokémon: P-TB-2, P-TB-3, P-TB-5, R-1, R-2, I-5 ------------------------------------

# a beats b, c, d over three rounds; b beats c and d; c beats d; d draws nobody; e has a
# bye in round 1 then loses to d twice... kept small enough to check by hand.
POKEMON = [
    win(1, "a", "b"),
    win(1, "c", "d"),
    bye(1, "e"),
    win(2, "a", "c"),
    win(2, "b", "e"),
    tie(2, "d", "x"),
    win(3, "a", "e"),
    win(3, "b", "c"),
    win(3, "x", "d"),
]


def test_P_TB_2_a_winless_opponent_counts_at_the_25_percent_floor():
    receipts = pokemon_receipts(players("a b c d e x"), POKEMON, rounds=3)
    line = next(x for x in receipts["a"].lines if x.opponent == "c")
    assert line.record == "1-2-0"  # c: 1 win, 2 losses
    line = next(x for x in receipts["b"].lines if x.opponent == "e")
    term = line.terms["owp"]
    assert (term.raw, term.value) == (F(0), F(1, 4))  # e lost both counted rounds
    assert rules_of(term.applied) == {(Adjustment.FLOOR, ("P-TB-2",))}
    assert term.applied[0].bound == F(1, 4)


def test_P_TB_5_R_1_a_bye_is_left_out_of_the_record_counted_for_an_opponent():
    receipts = pokemon_receipts(players("a b c d e x"), POKEMON, rounds=3)
    (bye_line,) = [x for x in receipts["e"].lines if x.kind is LineKind.BYE]
    assert bye_line.round == 1 and bye_line.result is Result.BYE and not bye_line.terms
    assert rules_of(bye_line.applied) == {(Adjustment.LEFT_OUT, ("P-TB-5",))}
    line = next(x for x in receipts["a"].lines if x.opponent == "e")
    assert line.record == "0-2-0"  # 1-2 with the bye, 0-2 counted
    assert rules_of(line.applied) == {(Adjustment.BYES_LEFT_OUT, ("P-TB-5",))}
    assert line.applied[0].count == 1


def test_R_1_a_tie_counts_half_a_win():
    receipts = pokemon_receipts(players("a b c d e x"), POKEMON, rounds=3)
    line = next(x for x in receipts["d"].lines if x.opponent == "x")
    assert line.record == "1-0-1"  # x: tied d, beat d
    assert line.terms["owp"].value == F(3, 4) and line.terms["owp"].parts == (F(3, 2), F(2))


def test_P_TB_2_R_2_a_dropped_opponent_is_capped_at_75_percent_and_frozen():
    # f wins round 1 against g and drops; g plays on.
    matches = [win(1, "f", "g"), win(2, "g", "h"), win(3, "g", "i"), win(2, "i", "h")]
    entrants = players("f g h i", dropped={"f": 1})
    receipts = pokemon_receipts(entrants, matches, rounds=3)
    line = next(x for x in receipts["g"].lines if x.opponent == "f")
    term = line.terms["owp"]
    assert (term.raw, term.value) == (F(1), F(3, 4))
    assert rules_of(term.applied) == {(Adjustment.CAP, ("P-TB-2", "R-2"))}
    # f's own columns are those as of round 1, over that round only.
    mine = receipts["f"]
    assert mine.as_of == 1 and [x.round for x in mine.lines] == [1]
    assert rules_of(mine.column("owp").applied) == {(Adjustment.FROZEN, ("R-2",))}
    assert mine.column("owp").applied[0].round == 1
    assert mine.column("owp").value == F(1, 4)  # g was 0-1 as of round 1: the floor


def test_R_2_an_opponent_who_dropped_counts_their_owp_as_of_their_drop_round():
    matches = [win(1, "f", "g"), win(2, "g", "h"), win(3, "g", "i"), win(2, "i", "h")]
    receipts = pokemon_receipts(players("f g h i", dropped={"f": 1}), matches, rounds=3)
    line = next(x for x in receipts["g"].lines if x.opponent == "f")
    assert rules_of(line.terms["oowp"].applied) == {(Adjustment.FROZEN, ("R-2",))}
    assert line.terms["oowp"].applied[0].round == 1


def test_I_5_a_late_entry_loss_is_a_line_without_an_opponent():
    matches = [MatchRecord(1, ("z",), Outcome.LATE_LOSS), win(2, "z", "a"), win(1, "a", "b")]
    receipts = pokemon_receipts(players("a b z"), matches, rounds=2)
    first = receipts["z"].lines[0]
    assert (first.kind, first.result, first.terms) == (LineKind.LATE_LOSS, Result.LOSS, {})
    assert receipts["z"].own is not None and receipts["z"].own.parts == (F(1), F(2))


def history(
    rng: random.Random, n: int, rounds: int, drops: float = 0.03
) -> tuple[list[Entrant], list[MatchRecord]]:
    """A Swiss-like history: random pairings of the active players, a bye for the odd one,
    one tie in five, and each round about ``drops`` of the players dropping."""
    ids = [f"p{k}" for k in range(n)]
    matches: list[MatchRecord] = []
    dropped: dict[str, int] = {}
    for r in range(1, rounds + 1):
        active = [p for p in ids if p not in dropped]
        rng.shuffle(active)
        if len(active) % 2:
            matches.append(bye(r, active.pop()))
        for a, b in zip(active[::2], active[1::2], strict=True):
            matches.append(tie(r, a, b) if rng.random() < 0.2 else win(r, a, b))
        for p in active:
            if r < rounds and rng.random() < drops:
                dropped[p] = r
    return [Entrant(p, dropped_after_round=dropped.get(p)) for p in ids], matches


def test_P_TB_2_P_TB_3_pokemon_receipts_add_up_to_the_standings_on_a_large_event():
    entrants, matches = history(random.Random(2025), 256, 9)
    rows = pokemon_standings(entrants, matches, rounds=9, seed=1)
    receipts = pokemon_receipts(entrants, matches, rounds=9)
    frozen = 0
    for row in rows:
        r = receipts[row.player]
        assert r.column("owp").total() == r.column("owp").value == row.owp
        assert r.column("oowp").total() == r.column("oowp").value == row.oowp
        frozen += r.as_of < r.rounds
    assert frozen > 0  # the case has drops: frozen receipts were checked too


# --- Magic: M-TB-1…4, R-7, R-8 ----------------------------------------------------------

MTG = [
    win(1, "a", "b", (2, 0, 0)),
    win(1, "c", "d", (2, 1, 0)),
    bye(1, "e"),
    win(2, "a", "c", (2, 1, 0)),
    win(2, "e", "b", (2, 0, 0)),
    MatchRecord(2, ("d",), Outcome.BYE, "d"),
    win(3, "a", "e", (2, 0, 0)),
    win(3, "c", "b", (2, 0, 0)),
    win(3, "d", "x", (2, 0, 0)),
]


def test_M_TB_1_R_7_a_winless_opponent_counts_at_0_33_or_at_one_third_for_melee():
    entrants = players("a b c d e x")
    for floor, bound in ((MTR_FLOOR, F(33, 100)), (MELEE_FLOOR, F(1, 3))):
        receipts = mtg_receipts(entrants, MTG, rounds=3, mwp_floor=floor)
        line = next(x for x in receipts["a"].lines if x.opponent == "b")
        term = line.terms["omw"]
        assert (term.raw, term.value) == (F(0), bound)
        assert rules_of(term.applied) == {(Adjustment.FLOOR, ("M-TB-1", "R-7"))}
        ogw = line.terms["ogw"]  # b won 0 of 6 games: floored too (M-TB-4)
        assert ogw.value == bound and rules_of(ogw.applied) == {
            (Adjustment.FLOOR, ("M-TB-4", "R-7"))
        }


def test_M_TB_2_M_TB_3_a_bye_has_no_opponent_but_counts_2_0_in_the_own_game_win():
    receipts = mtg_receipts(players("a b c d e x"), MTG, rounds=3)
    e = receipts["e"]
    (bye_line,) = [x for x in e.lines if x.kind is LineKind.BYE]
    assert bye_line.games == (2, 0, 0) and not bye_line.terms
    assert rules_of(bye_line.applied) == {(Adjustment.LEFT_OUT, ("M-TB-3",))}
    assert len(e.column("omw").terms) == 2  # two opponents, not three rounds
    gw = e.column("gw").terms[0]
    assert gw.parts == (F(12), F(18)) and gw.value == F(2, 3)  # 2-0 bye, 2-0, 0-2


def test_M_TB_2_a_poor_own_game_win_is_floored():
    receipts = mtg_receipts(players("a b c d e x"), MTG, rounds=3)
    gw = receipts["b"].column("gw")
    assert gw.value == MTR_FLOOR and gw.terms[0].raw == 0
    assert rules_of(gw.terms[0].applied) == {(Adjustment.FLOOR, ("M-TB-2", "R-7"))}


def test_R_8_playoff_matches_count_when_the_event_says_so():
    playoff = [win(4, "c", "a", (2, 1, 0))]
    entrants = players("a b c d e x")
    off = mtg_receipts(entrants, MTG, rounds=3, playoffs=playoff)
    on = mtg_receipts(entrants, MTG, rounds=3, playoffs=playoff, playoffs_in_tiebreakers=True)
    assert [x.round for x in off["a"].lines] == [1, 2, 3]
    assert [x.round for x in on["a"].lines] == [1, 2, 3, 4]
    assert rules_of(on["a"].lines[-1].applied) == {(Adjustment.PLAYOFF, ("R-8",))}
    assert rules_of(on["a"].column("omw").applied) == {(Adjustment.PLAYOFF, ("R-8",))}
    rows = {r.player: r for r in mtg_standings(entrants, MTG, rounds=3, playoffs=playoff,
                                                playoffs_in_tiebreakers=True)}  # fmt: skip
    assert on["a"].column("omw").total() == rows["a"].omw


def test_M_TB_3_M_TB_4_mtg_receipts_add_up_to_the_standings():
    rng = random.Random(7)
    entrants, matches = _random_mtg(rng, 20, 5)
    for floor in (MTR_FLOOR, MELEE_FLOOR):
        rows = mtg_standings(entrants, matches, rounds=5, mwp_floor=floor)
        receipts = mtg_receipts(entrants, matches, rounds=5, mwp_floor=floor)
        for row in rows:
            r = receipts[row.player]
            assert (r.column("omw").total(), r.column("gw").total(), r.column("ogw").total()) == (
                row.omw,
                row.gw,
                row.ogw,
            )


def _random_mtg(rng: random.Random, n: int, rounds: int) -> tuple[list[Entrant], list[MatchRecord]]:
    ids = [f"p{k}" for k in range(n)]
    matches: list[MatchRecord] = []
    for r in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        if len(order) % 2:
            matches.append(bye(r, order.pop()))
        for a, b in zip(order[::2], order[1::2], strict=True):
            games = rng.choice([(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1)])
            if games[0] == games[1]:
                matches.append(MatchRecord(r, (a, b), Outcome.DRAW, None, games))
            else:
                matches.append(win(r, a if games[0] > games[1] else b, b if games[0] > games[1] else a,
                                   games if games[0] > games[1] else (games[1], games[0], games[2])))  # fmt: skip
    return [Entrant(p, dropped_after_round=3 if p == "p0" else None) for p in ids], matches


# --- multiplayer pods: MP-TB-1, MP-TB-2, MP-TB-3 ----------------------------------------

PODS = [
    PodResult(1, ("a", "b", "c", "d"), winner="a"),
    PodResult(1, ("e", "f", "g"), winner="e"),  # a pod of 3: a virtual opponent each
    PodResult(2, ("a", "e", "g", "c"), winner=None),  # a draw shared by all four
    PodResult(2, ("b", "d", "f"), winner="b"),
    PodResult(3, ("h",)),  # a bye
]


def test_MP_TB_3_a_pod_of_three_adds_a_virtual_opponent_at_the_pod_floor():
    receipts = multiplayer_receipts(players("a b c d e f g h"), PODS, rounds=2)
    e = receipts["e"]
    virtual = [x for x in e.lines if x.kind is LineKind.VIRTUAL]
    assert [x.round for x in virtual] == [1]
    term = virtual[0].terms["omwp"]
    assert term.value == F(1, 7) and "oamp" not in virtual[0].terms  # MP-TB-2: real only
    assert rules_of(term.applied) == {(Adjustment.VIRTUAL, ("MP-TB-3",))}
    assert len(e.column("omwp").terms) == 6 and len(e.column("oamp").terms) == 5


def test_MP_TB_3_a_winless_opponent_counts_at_the_pod_floor():
    receipts = multiplayer_receipts(players("a b c d e f g h"), PODS, rounds=2)
    line = next(x for x in receipts["b"].lines if x.opponent == "d")
    term = line.terms["omwp"]
    assert (term.raw, term.value) == (F(0), F(1, 7))
    assert rules_of(term.applied) == {(Adjustment.FLOOR, ("MP-TB-3",))}


def test_MP_TB_1_MP_TB_2_a_bye_is_left_out_of_mwp_and_of_the_opponents():
    receipts = multiplayer_receipts(players("a b c d e f g h"), PODS, rounds=3)
    h = receipts["h"]
    (line,) = h.lines
    assert line.kind is LineKind.BYE
    assert rules_of(line.applied) == {(Adjustment.LEFT_OUT, ("MP-TB-1", "MP-TB-2"))}
    mwp = h.column("mwp").terms[0]
    assert mwp.value == 0 and rules_of(mwp.applied) == {(Adjustment.BYES_LEFT_OUT, ("MP-TB-1",))}


def test_MP_TB_multiplayer_receipts_add_up_to_the_standings():
    entrants = players("a b c d e f g h")
    for phantom in (False, True):
        rows = multiplayer_standings(entrants, PODS, rounds=3, phantom_in_oamp=phantom)
        receipts = multiplayer_receipts(entrants, PODS, rounds=3, phantom_in_oamp=phantom)
        for row in rows:
            r = receipts[row.player]
            assert r.column("mwp").total() == row.mwp
            assert r.column("oamp").total() == row.oamp
            assert r.column("omwp").total() == row.omwp


# --- wins against: W-TB-1, W-TB-2 -------------------------------------------------------

WA = [
    win(1, "a", "b", (2, 1, 0)),
    win(1, "c", "d", (2, 0, 0)),
    bye(1, "e"),
    win(2, "a", "c", (2, 0, 0)),
    win(2, "e", "b", (2, 1, 0)),
]


def test_W_TB_1_W_TB_2_wins_against_adds_the_beaten_opponents_final_wins():
    fixed = WA
    receipts = wins_against_receipts(players("a b c d e"), fixed, rounds=2)
    a = receipts["a"]
    assert [t.value for t in a.column("wins_against").terms] == [F(0), F(1)]  # b 0, c 1
    assert a.column("wins_against").total() == 1
    e = receipts["e"]
    bye_line = e.lines[0]
    assert bye_line.kind is LineKind.BYE and bye_line.terms["game_wins"].value == 2
    assert rules_of(bye_line.applied) == {(Adjustment.LEFT_OUT, ("W-TB-1",))}
    assert e.column("game_wins").total() == 4  # 2 for the bye, 2 against b
    rows = {r.player: r for r in wins_against_standings(players("a b c d e"), fixed, rounds=2)}
    for pid, row in rows.items():
        r = receipts[pid]
        assert r.column("wins_against").total() == row.wins_against
        assert r.column("game_wins").total() == row.game_wins
        assert r.column("win_pct").total() == row.win_pct


# --- the previous round ------------------------------------------------------------------


def test_changes_name_every_column_and_each_opponent_whose_term_moved():
    entrants = players("a b c d e x")
    now = pokemon_receipts(entrants, POKEMON, rounds=3)["a"]
    before = pokemon_receipts(entrants, POKEMON, rounds=2)["a"]
    columns, terms = changes(now, before)
    assert [(c.key, c.before, c.now) for c in columns] == [
        ("owp", before.column("owp").value, now.column("owp").value),
        ("oowp", before.column("oowp").value, now.column("oowp").value),
    ]
    new = [t for t in terms if t.before is None]
    assert {(t.round, t.opponent) for t in new} == {(3, "e")}  # the round-3 opponent
    moved = {(t.opponent, t.key) for t in terms if t.before is not None}
    assert ("b", "owp") in moved  # b won round 3: 1-1 → 2-1


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=4, max_value=24), st.integers(min_value=1, max_value=6), st.randoms())
def test_P_TB_2_R_2_every_pokemon_receipt_adds_up(n, rounds, rng):
    entrants, matches = history(rng, n, rounds, drops=0.15)
    rows = pokemon_standings(entrants, matches, rounds=rounds)
    receipts = pokemon_receipts(entrants, matches, rounds=rounds)
    for row in rows:
        assert receipts[row.player].column("owp").total() == row.owp
        assert receipts[row.player].column("oowp").total() == row.oowp
