"""One home per procedure: the stages each pairing group plays come from one
place (``tournaments.procedures.group_stages``) and each stage has one pairing module
(``pairings.procedures.PROCEDURES``)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pairings.procedures import PROCEDURES, event_done, next_step
from pairings.procedures.base import StepKind
from pairings.services import round_pair
from tests import factories
from tournaments import services
from tournaments.models import Outcome, PairingGroup
from tournaments.procedures import Stage, group_stages, standalone_bracket
from tournaments.services import Result


@pytest.mark.parametrize(
    ("ruleset", "structure", "day2", "group", "expected"),
    [
        ("pokemon", "swiss", 0, ("swiss", None), ("swiss", "top-cut")),
        ("pokemon", "swiss-top-cut", 0, ("swiss", None), ("swiss", "top-cut")),
        ("pokemon", "swiss-top-cut", 3, ("swiss", None), ("swiss", "day2", "top-cut")),
        ("pokemon", "swiss-top-cut", 0, ("swiss", 2), ("swiss", "flights", "top-cut")),
        ("pokemon", "swiss-top-cut", 2, ("swiss", 1), ("swiss", "day2", "flights", "top-cut")),
        ("pokemon", "swiss-top-cut", 2, ("top-cut", None), ("bracket",)),
        ("mtg", "swiss-top-cut", 0, ("top-cut", None), ("bracket",)),
        ("pokemon", "single-elimination", 0, ("single-elimination", None), ("single-elimination",)),
        ("mtg-multiplayer", "swiss-top-cut", 0, ("swiss", None), ("pod-swiss", "pod-cut")),
        ("mtg-multiplayer", "swiss-top-cut", 0, ("top-cut", None), ("pod-bracket",)),
    ],
)
def test_each_pairing_group_plays_its_stages_in_order(ruleset, structure, day2, group, expected):
    """The stages come from the group's fields (phase, flight), never from its key."""
    event = SimpleNamespace(ruleset=ruleset, structure=structure, day2_rounds=day2)
    phase, flight = group
    row = PairingGroup(key="any name at all", phase=phase, flight=flight)
    assert group_stages(event, row) == tuple(Stage(s) for s in expected)
    assert standalone_bracket(event) == (structure == "single-elimination")


def test_every_stage_has_one_pairing_module():
    assert set(PROCEDURES) == set(Stage)
    waits_only = {stage for stage, procedure in PROCEDURES.items() if procedure.pair is None}
    assert waits_only == {Stage.FLIGHTS}


def _play(rnd, by):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
        seat = m.seats.order_by("seat").first()
        services.slip_enter(match=m, result=Result.win(seat.registration), by=by)


@pytest.mark.django_db
def test_the_step_names_the_stage_that_pairs_it_and_the_event_is_done_after_the_last(organiser):
    ev = factories.event_with_players(4, by=organiser, swiss_rounds=1, day2_rounds=1)
    step = next_step(ev, "open")
    assert (step.kind, step.stage, step.number) == (StepKind.SWISS, Stage.SWISS, 1)
    assert event_done(ev) is False
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    assert next_step(ev, "open").kind == StepKind.WAIT
    _play(r1, organiser)
    step = next_step(ev, "open")
    assert (step.kind, step.stage, step.number) == (StepKind.DAY2, Stage.DAY2, 2)
    (d2,) = round_pair(event=ev, group="open", by=organiser, seed=2)
    _play(d2, organiser)
    step = next_step(ev, "open")
    assert (step.kind, step.stage, step.message) == (
        StepKind.DONE,
        None,
        "Swiss is over; no more rounds to pair.",
    )
    assert event_done(ev) is True
