"""Pasting many players: bulk inserts in a fixed number of queries, all or nothing, and
the same players, ids, divisions, flights and late-entry losses as adding them one by one
(P-AGE-1, P-LATE-1, P-FL-4)."""

from __future__ import annotations

import random

import pytest

from pairings.engine.flights import late_flight
from pairings.procedures.flights import flights_assign
from pairings.services import round_pair
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import AuditEvent, Match, Player, Registration

pytestmark = pytest.mark.django_db

AGES = {"junior": "junior+senior", "senior": "junior+senior", "masters": "masters"}
BORN = {2016: "junior", 2012: "senior", 1990: "masters"}  # season ending 2026


def _lines(n: int, *, first_id: int = 500_000) -> list[str]:
    years = list(BORN)
    return [f"Player {i:05d},{first_id + i},{years[i % 3]}" for i in range(1, n + 1)]


def test_300_pasted_players_are_saved_in_a_bounded_number_of_queries(
    organiser, django_assert_max_num_queries
):
    event = factories.event(by=organiser, divisions=AGES, season_year=2026)
    with django_assert_max_num_queries(20):
        regs = services.registrations_add_csv(
            event=event, text="\n".join(_lines(300)), by=organiser
        )
    assert len(regs) == 300
    saved = Registration.objects.filter(event=event).select_related("player", "division")
    by_id = {r.player.player_id: r for r in saved}
    for i in range(1, 301):
        reg, year = by_id[str(500_000 + i)], list(BORN)[i % 3]
        assert (reg.player.name, reg.player.birth_year) == (f"Player {i:05d}", year)
        assert reg.division.code == BORN[year] and not reg.late and reg.flight is None
    assert [r.external_id for r in regs] == [f"p{n}" for n in range(1, 301)]
    assert len({r.report_token for r in saved}) == 300
    rows = AuditEvent.objects.filter(event=event, action="registration.add")
    assert sorted(int(pk) for pk in rows.values_list("object_id", flat=True)) == sorted(
        r.pk for r in regs
    )
    assert {row.actor_id for row in rows} == {organiser.pk}


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("Misty,999999,20x0", "Line 4000: birth year '20x0' is not a year."),
        ("Misty,999999,", "Line 4000: a birth year is needed to choose the age division."),
        ("Misty,42,1990", "Line 4000: Player id 42 is already registered in this event."),
    ],
)
def test_a_bad_line_at_4000_of_5000_saves_nothing_and_names_it(organiser, bad, message):
    event = factories.event(by=organiser, divisions=AGES, season_year=2026)
    services.registration_add(event=event, name="Ash", player_id="42", birth_year=1990,
                              division=event.divisions.get(code="masters"), by=organiser)  # fmt: skip
    players, audit = Player.objects.count(), AuditEvent.objects.count()
    lines = _lines(5000)
    lines[3999] = bad
    with pytest.raises(InvalidInput) as refused:
        services.registrations_add_csv(event=event, text="\n".join(lines), by=organiser)
    assert str(refused.value) == message
    assert Registration.objects.filter(event=event).count() == 1
    assert (Player.objects.count(), AuditEvent.objects.count()) == (players, audit)


def test_P_LATE_1_pasted_players_after_round_1_started_are_late_with_a_loss_each(event8, organiser):
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    regs = services.registrations_add_csv(
        event=event8, text="Late A,7001\nLate B,7002\nLate C,7003\n", by=organiser
    )
    assert [(r.external_id, r.late) for r in regs] == [("p9", True), ("p10", True), ("p11", True)]
    losses = Match.objects.filter(round=rnd, why="late entry")
    assert sorted(m.seats.get().registration_id for m in losses) == sorted(r.pk for r in regs)
    assert {m.outcome for m in losses} == {"loss"}
    assert services.late_losses(event8) == 1


def test_P_FL_4_pasted_players_join_the_smaller_flight_and_each_draw_replays(organiser):
    ev = factories.event_with_players(64, by=organiser, structure="swiss-top-cut",
                                      swiss_rounds=7, top_cut_size=8)  # fmt: skip
    flights_assign(division=ev.divisions.get(), flights=2, by=organiser, seed=7)
    regs = services.registrations_add_csv(
        event=ev, text="\n".join(f"Late {i}" for i in range(5)), by=organiser
    )
    rows = AuditEvent.objects.filter(action="registration.add", object_id__in=[r.pk for r in regs])
    draws = {int(row.object_id): row.new for row in rows}
    for reg in regs:
        seed, sizes = draws[reg.pk]["flight_seed"], draws[reg.pk]["flight_sizes"]
        assert reg.flight == late_flight(sizes, rng=random.Random(seed)) + 1  # replay (I-1)
        assert sizes[reg.flight - 1] == min(sizes)
    assert [draws[r.pk]["flight_sizes"] for r in regs][::2] == [[32, 32], [33, 33], [34, 34]]
    assert sorted(ev.registrations.filter(flight=n).count() for n in (1, 2)) == [34, 35]


def test_generated_ids_are_the_ones_adding_one_by_one_would_give(organiser):
    def with_imported_ids(name):
        ev = factories.event(by=organiser, name=name)
        for external_id in ("p2", "p4", "p5"):
            services.registration_add(event=ev, name=external_id, external_id=external_id,
                                      by=organiser)  # fmt: skip
        return ev

    pasted, one_by_one = with_imported_ids("Pasted"), with_imported_ids("One by one")
    regs = services.registrations_add_csv(event=pasted, text="A\nB\nC\nD\n", by=organiser)
    for name in "ABCD":
        services.registration_add(event=one_by_one, name=name, by=organiser)
    expected = list(
        one_by_one.registrations.filter(player__name__in="ABCD")
        .order_by("pk")
        .values_list("external_id", flat=True)
    )
    assert [r.external_id for r in regs] == expected == ["p6", "p7", "p8", "p9"]
