"""Pairing explanations stored with every round (``Round.notes``) on every pairing path,
shown on "Why these pairings" and the round page; the late player's flight replayed from
its stored seed (P-FL-4, I-1); an age-modified two-day event (P-AGE-3, P-D2-1, R-3)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from pairings.adapters import UNPROVEN_NOTE
from pairings.checkin_services import checkin_close
from pairings.engine import swiss
from pairings.engine.flights import late_flight
from pairings.procedures.flights import flights_assign
from pairings.repair_services import round_repair, round_repair_preview
from pairings.services import round_pair
from standings.services import standings_data
from tests import factories
from tournaments import services
from tournaments.models import AuditEvent, Outcome, Phase
from tournaments.services import Result

pytestmark = pytest.mark.django_db

REMATCH_NOTE = "No pairing without a rematch exists: 1 rematch, flagged."
BORN = {"junior": 2016, "senior": 2012, "masters": 1990}  # season ending 2026


def play(rnd, by, pick=0):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
        seats = list(m.seats.order_by("seat"))
        services.slip_enter(match=m, result=Result.win(seats[pick].registration), by=by)


def test_P_SW_4_swiss_round_stores_the_rematch_note_and_staff_pages_show_it(client, organiser):
    ev = factories.event_with_players(2, by=organiser, swiss_rounds=2)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    assert r1.notes == []
    play(r1, organiser)
    (r2,) = round_pair(event=ev, group="open", by=organiser, seed=2)
    assert r2.notes == [REMATCH_NOTE]
    client.force_login(organiser)
    for name in ("staff:round_why", "staff:round"):
        body = client.get(reverse(name, args=[ev.slug, r2.pk])).content.decode()
        assert 'id="round-notes"' in body and REMATCH_NOTE in body


def test_P_D2_1_day_2_round_stores_its_notes(organiser):
    ev = factories.event_with_players(2, by=organiser, swiss_rounds=1, day2_rounds=2)
    play(round_pair(event=ev, group="open", by=organiser, seed=1)[0], organiser)
    (d1,) = round_pair(event=ev, group="open", by=organiser, seed=2)
    assert (d1.phase, d1.notes) == (Phase.SWISS_DAY2, [])  # Day 1 meeting allowed
    play(d1, organiser)
    (d2,) = round_pair(event=ev, group="open", by=organiser, seed=3)
    assert d2.notes == [REMATCH_NOTE]


def test_P_FL_5_flight_rounds_store_the_engine_notes(organiser, monkeypatch):
    ev = factories.event_with_players(64, by=organiser, structure="swiss-top-cut",
                                      swiss_rounds=2, top_cut_size=4)  # fmt: skip
    flights_assign(division=ev.divisions.get(), flights=2, by=organiser, seed=2)
    real = swiss.pair_swiss

    def noted(*args, **kwargs):
        result = real(*args, **kwargs)
        return swiss.SwissRound(result.pairings, notes=("flight note",), proven_optimal=False)

    monkeypatch.setattr(swiss, "pair_swiss", noted)
    (r1,) = round_pair(event=ev, group="open#flight-1", by=organiser, seed=1)
    assert r1.notes == ["flight note", UNPROVEN_NOTE]


def test_P_SW_9_repair_adds_its_explanation_to_the_notes(event8, organiser):
    (r1,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    play(r1, organiser)
    (r2,) = round_pair(event=event8, group="open", by=organiser, seed=2)
    m = r1.matches.get(table=1)
    loser = m.seats.get(seat=2).registration
    services.result_correct(match=m, result=Result.win(loser), reason="slip misread", by=organiser)
    preview = round_repair_preview(round=r2, seed=5)
    round_repair(round=r2, by=organiser, seed=5, fingerprint=preview.fingerprint)
    r2.refresh_from_db()
    assert r2.notes == [f"Re-paired: {w}" for w in preview.result.why] and r2.notes
    # the organiser reads the players' names, never database ids.
    who = r2.notes[0].removeprefix("Re-paired: Record corrected for ").split(": ")[0]
    assert who.split(", ") == sorted(who.split(", ")) and loser.player.name in who.split(", ")
    assert all(name.startswith("Player ") for name in who.split(", "))


def test_P_FL_4_late_flight_is_drawn_from_a_stored_seed_and_replays(organiser):
    ev = factories.event_with_players(64, by=organiser, structure="swiss-top-cut",
                                      swiss_rounds=7, top_cut_size=8)  # fmt: skip
    flights_assign(division=ev.divisions.get(), flights=2, by=organiser, seed=7)
    for name in ("Late 1", "Late 2", "Late 3"):
        reg = services.registration_add(event=ev, name=name, by=organiser)
        row = AuditEvent.objects.filter(action="registration.add").latest("pk")
        seed, sizes = row.new["flight_seed"], row.new["flight_sizes"]
        assert reg.flight == late_flight(sizes, rng=random.Random(seed)) + 1  # replay (I-1)
        assert sizes[reg.flight - 1] == min(sizes)
    sizes = sorted(ev.registrations.filter(flight=n).count() for n in (1, 2))
    assert sizes == [33, 34]  # 32/32, then the smaller flight each time


def age_modified_two_day(by):
    ev = factories.event(by=by, divisions={c: c for c in BORN}, season_year=2026,
                         swiss_rounds=1, day2_rounds=1)  # fmt: skip
    for code, n in (("junior", 2), ("senior", 2)):
        for i in range(n):
            services.registration_add(event=ev, name=f"{code} {i}", birth_year=BORN[code],
                                      division=ev.divisions.get(code=code), by=by)  # fmt: skip
    checkin_close(event=ev, by=by, swiss_rounds=1)
    return ev


def test_P_AGE_3_R_3_age_modified_two_day_keeps_pods_and_day_2_owp(organiser):
    ev = age_modified_two_day(organiser)
    pod = "junior+senior"
    (r1,) = round_pair(event=ev, group=pod, by=organiser, seed=1)
    # Round 1: same division first (P-AGE-3): each table holds one division.
    for m in r1.matches.prefetch_related("seats__registration__division"):
        assert len({s.registration.division.code for s in m.seats.all()}) == 1
    play(r1, organiser)
    (d2,) = round_pair(event=ev, group=pod, by=organiser, seed=2)
    assert (d2.group.key, d2.phase, d2.number) == (pod, Phase.SWISS_DAY2, 2)
    tables = list(d2.matches.order_by("table").prefetch_related("seats__registration__division"))
    # Day 2 stays division over record: the two 3-point players are of different
    # divisions, so each meets the 0-point player of their own division.
    assert [m.why for m in tables] == ["division over record: paired down from 3 points"] * 2
    for m in tables:
        assert len({s.registration.division.code for s in m.seats.all()}) == 1
    play(d2, organiser, pick=1)  # the 0-point players win on Day 2: everyone is 1-1
    data = standings_data(ev)
    for code in ("junior", "senior"):
        rows = data["divisions"][code]
        assert [r["record"] for r in rows] == ["1-1-0", "1-1-0"]
        # OWP over the Day 2 round only: the Day 2 winner's opponent is 0-1 on
        # Day 2 (25 % floor) and the loser's 1-0 (100 %); over both days both were 50 %.
        assert sorted(r["tiebreakers"]["owp"] for r in rows) == [0.25, 1.0]
