"""Dropped players below the active players with the same points: the event option of
(``standings.engine.drops``). No database."""

from __future__ import annotations

from interchange.formats.wer import parse_wer, wer_official_order
from standings.engine.drops import drops_below_active
from standings.engine.mtg import mtg_standings
from standings.engine.types import Entrant
from tests.engine.test_wer import WER, records

# (player, match points, dropped) best first, as a ruleset ordered them.
ORDER = [
    ("a", 9, False),
    ("b", 6, True),
    ("c", 6, False),
    ("d", 6, True),
    ("e", 6, False),
    ("f", 3, True),
    ("g", 0, False),
]


def ordered(rows):
    return [
        p for p, _, _ in drops_below_active(rows, points=lambda r: r[1], dropped=lambda r: r[2])
    ]


def test_dropped_players_go_below_the_active_ones_with_the_same_points():
    # 6 points: c and e (active) keep their order, then b and d (dropped) keep theirs.
    assert ordered(ORDER) == ["a", "c", "e", "b", "d", "f", "g"]


def test_a_dropped_player_never_goes_below_fewer_points():
    # f dropped with 3 points stays above g's 0: only players with equal points move.
    assert ordered(ORDER).index("f") < ordered(ORDER).index("g")


def test_without_drops_the_order_is_unchanged():
    rows = [(p, pts, False) for p, pts, _ in ORDER]
    assert ordered(rows) == [p for p, _, _ in ORDER]


def test_the_real_wer_event_ranks_its_dropped_players_by_tiebreakers():
    """Why ``import_wer`` leaves the option off: in the shared Wizards Event Reporter file
    the two dropped players stand above active players with their points (17th of the
    3-pointers' 17th-22nd, 23rd of the 0-pointers' 23rd-24th). With the option the
    official order is lost at those places."""
    text = WER.read_bytes()
    event = parse_wer(text)
    entrants = [Entrant(p.id, dropped_after_round=p.dropped_after_round) for p in event.players]
    rows = mtg_standings(entrants, records(event, "swiss"), rounds=4)
    gone = {e.id for e in entrants if e.dropped_after_round}
    official = wer_official_order(text)
    assert [r.player for r in rows] == official
    moved = drops_below_active(
        rows, points=lambda r: r.match_points, dropped=lambda r: r.player in gone
    )
    wrong = [
        k + 1
        for k, (a, b) in enumerate(zip([r.player for r in moved], official, strict=True))
        if a != b
    ]
    assert wrong == [17, 18, 19, 20, 21, 22, 23, 24]
