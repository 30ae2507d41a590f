"""Migrations 0017–0019: events stored with pairing groups as names
("junior+senior", "masters#flight-2", "masters-top-cut") and a match's kind and a
bracket's seeds in its explanation are carried over to PairingGroup rows, Match.kind and
CutSeed rows, on a database built by the migrations before them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from pairings.procedures import event_group_keys
from standings.services import standings_data
from tournaments.groups import group_seeds
from tournaments.models import Event, GroupPhase, Match, MatchKind, Round

BEFORE = [("tournaments", "0016_choices_check_constraints")]


class Old:
    """The models as migration 0016 left them, and small builders over them."""

    def __init__(self, apps) -> None:
        self.apps = apps
        self.m = {
            name: apps.get_model("tournaments", name)
            for name in ("Event", "Division", "Player", "Registration", "Round", "Match")
        }
        self.seat_model = apps.get_model("tournaments", "MatchSeat")

    def event(self, slug: str, **fields):
        return self.m["Event"].objects.create(slug=slug, name=slug, **fields)

    def division(self, event, code: str, pod: str, **fields):
        return self.m["Division"].objects.create(event=event, code=code, pod=pod, **fields)

    def player(self, event, division, name: str, flight=None):
        person = self.m["Player"].objects.create(name=name)
        return self.m["Registration"].objects.create(
            event=event, player=person, division=division, external_id=name, flight=flight
        )

    def round(self, event, pod: str, number: int, phase: str = "swiss"):
        return self.m["Round"].objects.create(
            event=event, pod=pod, number=number, phase=phase, status="complete"
        )

    def match(self, rnd, table, players, outcome="pending", why="", winner=None):
        m = self.m["Match"].objects.create(
            round=rnd, table=table, outcome=outcome, why=why, winner=winner
        )
        for n, reg in enumerate(players, start=1):
            self.seat_model.objects.create(match=m, round=rnd, registration=reg, seat=n)
        return m


def _two_day_event(old: Old):
    """Age-modified juniors and seniors; Masters in two flights, a Day 2 round, a top 4
    with a 3rd/4th playoff; a bye and a late entrant's loss."""
    ev = old.event(
        "two-day",
        ruleset="pokemon",
        structure="swiss-top-cut",
        day2_rounds=1,
        age_style="age-modified",
        swiss_rounds=1,
        top_cut_size=4,
        third_place_playoff=True,
    )
    junior = old.division(ev, "junior", "junior+senior")
    senior = old.division(ev, "senior", "junior+senior")
    masters = old.division(ev, "masters", "masters", flights=2, top_cut_size=4)
    j1, j2, j3 = (old.player(ev, junior, f"j{n}") for n in (1, 2, 3))
    s1, s2 = (old.player(ev, senior, f"s{n}") for n in (1, 2))
    m1, m2 = (old.player(ev, masters, f"m{n}", flight=1) for n in (1, 2))
    m3, m4, m5 = (old.player(ev, masters, f"m{n}", flight=2) for n in (3, 4, 5))
    r1 = old.round(ev, "junior+senior", 1)
    old.match(r1, 1, [j1, s1], "win", "same record", winner=j1)
    old.match(r1, 2, [j2, s2], "draw", "same record")
    old.match(r1, None, [j3], "bye", "bye: lowest bracket, random")
    f1 = old.round(ev, "masters#flight-1", 1)
    old.match(f1, 1, [m1, m2], "win", "same record", winner=m1)
    f2 = old.round(ev, "masters#flight-2", 1)
    old.match(f2, 1, [m3, m4], "win", "same record", winner=m3)
    old.match(f2, None, [m5], "loss", "late entry")
    d2 = old.round(ev, "masters", 2, "swiss-day2")
    old.match(d2, 1, [m1, m3], "win", "same record", winner=m1)
    old.match(d2, 2, [m2, m4], "win", "same record", winner=m4)
    semis = old.round(ev, "masters-top-cut", 3, "top-cut")
    old.match(semis, 1, [m1, m2], "win", "top cut: seed 1 vs seed 4", winner=m1)
    old.match(semis, 2, [m4, m3], "win", "top cut: seed 2 vs seed 3", winner=m3)
    final = old.round(ev, "masters-top-cut", 4, "top-cut")
    old.match(final, 1, [m1, m3], "win", "top cut: seed 1 vs seed 3", winner=m1)
    old.match(final, 2, [m4, m2], "win", "3rd/4th place playoff: seed 2 vs seed 4", winner=m4)
    return {r.external_id: r.pk for r in old.m["Registration"].objects.filter(event=ev)}


def _pod_event(old: Old):
    """A multiplayer event: a Swiss round of pods, then a pod cut where seeds 1 and 2
    have byes."""
    ev = old.event("pods", ruleset="mtg-multiplayer", structure="swiss-top-cut", top_cut_size=10)
    division = old.division(ev, "open", "open", top_cut_size=10)
    regs = [old.player(ev, division, f"p{n}") for n in range(1, 9)]
    r1 = old.round(ev, "open", 1)
    old.match(r1, 1, regs[:4], "win", "top of the standings", winner=regs[0])
    old.match(r1, 2, regs[4:], "draw", "next in the standings")
    cut = old.round(ev, "open-top-cut", 2, "top-cut")
    old.match(cut, 1, regs[2:6], "pending", "top cut: seeds 3, 4, 5, 6")
    old.match(cut, None, regs[:1], "bye", "top seed: bye to the next round")
    old.match(cut, None, regs[1:2], "bye", "top seed: bye to the next round")
    return {r.external_id: r.pk for r in old.m["Registration"].objects.filter(event=ev)}


def _bracket_event(old: Old):
    """A standalone single-elimination bracket of three: seed 1 has a bye."""
    ev = old.event("bracket", ruleset="pokemon", structure="single-elimination")
    division = old.division(ev, "open", "open")
    a, b, c = (old.player(ev, division, name) for name in "abc")
    r1 = old.round(ev, "open", 1, "single-elimination")
    old.match(r1, None, [b], "bye", "bye: seed 1")
    old.match(r1, 1, [c, a], "win", "seed 2 vs seed 3", winner=a)
    return {r.external_id: r.pk for r in old.m["Registration"].objects.filter(event=ev)}


def _flighted_before_round_1(old: Old):
    """Flights set, round 1 not paired yet: the flights are groups before any round."""
    ev = old.event("flighted", ruleset="pokemon", structure="swiss-top-cut", top_cut_size=8)
    division = old.division(ev, "masters", "masters", flights=2)
    for n in range(1, 5):
        old.player(ev, division, f"f{n}", flight=1 + n % 2)


@pytest.mark.django_db(transaction=True)
def test_migrations_0017_to_0019_carry_old_events_over_to_groups_kinds_and_seeds():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = Old(executor.loader.project_state(BEFORE).apps)
    two_day, pods, bracket = _two_day_event(old), _pod_event(old), _bracket_event(old)
    _flighted_before_round_1(old)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    # the age-modified, flighted, two-day event with a top cut
    ev = Event.objects.get(slug="two-day")
    groups = {g.key: g for g in ev.groups.prefetch_related("divisions")}
    assert set(groups) == {
        "junior+senior",
        "masters",
        "masters#flight-1",
        "masters#flight-2",
        "masters-top-cut",
    }
    codes = {k: sorted(d.code for d in g.divisions.all()) for k, g in groups.items()}
    assert codes["junior+senior"] == ["junior", "senior"]
    assert codes["masters#flight-2"] == codes["masters-top-cut"] == ["masters"]
    masters = groups["masters"]
    assert (masters.phase, masters.flight, masters.parent) == (GroupPhase.SWISS, None, None)
    flight = groups["masters#flight-2"]
    assert (flight.phase, flight.flight, flight.parent) == (GroupPhase.SWISS, 2, masters)
    cut = groups["masters-top-cut"]
    assert (cut.phase, cut.flight, cut.parent) == (GroupPhase.TOP_CUT, None, masters)
    rounds = {(r.group.key, r.number, r.phase) for r in Round.objects.filter(event=ev)}
    assert rounds == {
        ("junior+senior", 1, "swiss"),
        ("masters#flight-1", 1, "swiss"),
        ("masters#flight-2", 1, "swiss"),
        ("masters", 2, "swiss-day2"),
        ("masters-top-cut", 3, "top-cut"),
        ("masters-top-cut", 4, "top-cut"),
    }
    kinds = {m.why: m.kind for m in Match.objects.filter(round__event=ev)}
    assert kinds["bye: lowest bracket, random"] == MatchKind.BYE
    assert kinds["late entry"] == MatchKind.LATE_ENTRY_LOSS
    assert kinds["same record"] == MatchKind.SWISS
    assert kinds["top cut: seed 1 vs seed 4"] == MatchKind.BRACKET
    assert kinds["3rd/4th place playoff: seed 2 vs seed 4"] == MatchKind.THIRD_PLACE
    seeds = {reg: seed for reg, seed in group_seeds(cut).items()}
    assert seeds == {two_day["m1"]: 1, two_day["m2"]: 4, two_day["m4"]: 2, two_day["m3"]: 3}
    # the app reads the carried-over event: the cut decides the Masters places (P-TC-2)
    masters_rows = standings_data(ev)["divisions"]["masters"]
    assert [r["player"] for r in masters_rows[:4]] == ["m1", "m3", "m4", "m2"]

    # the pod event: the cut's seeds from its pod and the byes of the top seeds
    ev = Event.objects.get(slug="pods")
    cut = ev.groups.get(key="open-top-cut")
    assert cut.phase == GroupPhase.TOP_CUT and cut.parent.key == "open"
    assert group_seeds(cut) == {pods[f"p{n}"]: n for n in range(1, 7)}
    assert set(Match.objects.filter(round__group=cut).values_list("kind", flat=True)) == {
        MatchKind.BRACKET,
        MatchKind.BYE,
    }

    # the standalone bracket: its seeds from round 1
    ev = Event.objects.get(slug="bracket")
    (group,) = ev.groups.all()
    assert group.phase == GroupPhase.SINGLE_ELIMINATION
    assert group_seeds(group) == {bracket["b"]: 1, bracket["c"]: 2, bracket["a"]: 3}

    # flights set before round 1: each flight is a group, and round 1 pairs them apart
    ev = Event.objects.get(slug="flighted")
    assert event_group_keys(ev) == ["masters#flight-1", "masters#flight-2"]
    assert [g.flight for g in ev.groups.filter(parent__key="masters")] == [1, 2]
