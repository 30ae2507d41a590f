"""The event option ``drops_below_active``: dropped players below the
active players with the same points, as Limitless places them; off by default (a dropped
player keeps the place their tiebreakers give, P-TB-7, R-2)."""

from __future__ import annotations

import pytest

from rulesets import RULESETS
from standings.services import standings_data
from tests import factories
from tournaments import services
from tournaments.models import Outcome, Phase
from tournaments.services import Result

pytestmark = pytest.mark.django_db

# Six players, three rounds; C wins rounds 1 and 2 and drops; F has the round-3 bye.
ROUNDS: list[list[tuple[str, ...]]] = [
    [("C", "A"), ("B", "D"), ("E", "F")],
    [("A", "B"), ("C", "E"), ("D", "F")],
    [("A", "D"), ("E", "B"), ("F",)],
]


def played_event(organiser, ruleset: str = "pokemon"):
    """The event above, every round complete (the first player of each table won)."""
    ev = factories.event_with_players(6, by=organiser, ruleset=ruleset, top_cut_size=0)
    regs = dict(zip("ABCDEF", ev.registrations.order_by("pk"), strict=True))
    group = factories.group_row(ev, "open")
    for number, tables in enumerate(ROUNDS, start=1):
        if number == 3:
            services.registration_drop(registration=regs["C"], by=organiser)
        rnd = services.round_create(
            event=ev,
            group=group,
            number=number,
            phase=Phase.SWISS,
            by=organiser,
            tables=[
                (None if len(t) == 1 else k, [regs[p] for p in t], "bye" if len(t) == 1 else "")
                for k, t in enumerate(tables, start=1)
            ],
        )
        services.round_publish(round=rnd, by=organiser)
        services.round_start(round=rnd, by=organiser)
        for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
            assert m.table is not None  # a played match has a table
            winner = regs[tables[m.table - 1][0]]
            games = (2, 0, 0) if ruleset == "mtg" else None
            services.slip_enter(match=m, result=Result.win(winner, games), by=organiser)
    names = {r.external_id: letter for letter, r in regs.items()}
    return ev, names


def order(ev, names) -> str:
    return "".join(names[r["player"]] for r in standings_data(ev)["divisions"]["open"])


def test_every_ruleset_declares_the_option_off_by_default():
    for ruleset in RULESETS.values():
        spec = {o.name: o for o in ruleset.options}["drops_below_active"]
        assert (spec.kind, spec.default) == ("bool", False), ruleset.id


def test_P_TB_7_by_default_a_dropped_player_keeps_the_place_of_their_tiebreakers(organiser):
    ev, names = played_event(organiser)
    # C (6 points, dropped after round 2, frozen OWP 1/2) is above A (17/36) and E (4/9).
    assert order(ev, names) == "CAEBFD"


def test_with_the_option_dropped_players_go_below_active_players_with_the_same_points(
    organiser,
):
    ev, names = played_event(organiser)
    services.event_settings_update(event=ev, by=organiser, options={"drops_below_active": True})
    ev.refresh_from_db()
    rows = standings_data(ev)["divisions"]["open"]
    assert order(ev, names) == "AECBFD"
    assert [r["place"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r["dropped"] for r in rows] == [False, False, True, False, False, False]


def test_the_option_orders_a_magic_event_too(organiser):
    ev, names = played_event(organiser, ruleset="mtg")
    before = order(ev, names)
    # 6 points each: C's OMW is 2/3 (A and E, 2-1 each), A's and E's 5/9 (C counts 1).
    assert before[0] == "C" and set(before[1:3]) == {"A", "E"}
    services.event_settings_update(event=ev, by=organiser, options={"drops_below_active": True})
    ev.refresh_from_db()
    assert order(ev, names) == before[1:3] + "C" + before[3:]
