"""A two-day event out to a TOM file and back (P-D2-1, P-D2-2, R-3, P-RT-2): the file
says ``mode="TCG2DAY"`` and the import gives back the Day 2 phase, ``day2_rounds``, the
matches and the standings; a one-day file is unchanged."""

from __future__ import annotations

import pytest

from interchange.formats.tdf import parse_tdf
from interchange.formats.tdf_event import tdf_event_data
from pairings.services import round_pair
from standings.services import standings_data
from tests import factories
from tests.tournaments.test_tdf_export import TDF, export_tdf, import_tdf, summary
from tournaments import services
from tournaments.groups import swiss_group
from tournaments.models import Event, Outcome, Phase
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def _play(rnd, by):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for n, m in enumerate(rnd.matches.filter(outcome=Outcome.PENDING).order_by("table")):
        seats = list(m.seats.order_by("seat"))
        if len(seats) == 2 and n % 7 == 3 and rnd.phase != Phase.TOP_CUT:
            services.slip_enter(match=m, result=Result.draw(), by=by)
        elif len(seats) == 2:
            winner = seats[n % 2].registration
            services.slip_enter(match=m, result=Result.win(winner), by=by)


def two_day_event(by) -> Event:
    """41 Masters (a bye each round), 3 Day 1 rounds, the top-32 cut, 2 Day 2 rounds, a
    drop on Day 2 and a top 8."""
    ev = factories.event(
        by=by, divisions={"masters": "masters"}, swiss_rounds=3, day2_rounds=2,
        top_cut_size=8, season_year=2026, date=None,
    )  # fmt: skip
    masters = ev.divisions.get()
    for i in range(1, 42):
        services.registration_add(
            event=ev, name=f"Player {i:03d}", birth_year=1990, division=masters, by=by
        )
    seed = 1
    while True:
        (rnd,) = round_pair(event=ev, group=swiss_group(masters), by=by, seed=seed)
        if rnd.phase == Phase.TOP_CUT:
            break
        _play(rnd, by)
        if rnd.number == 4:  # a Day 2 player drops after the first Day 2 round
            reg = rnd.matches.order_by("table")[0].seats.order_by("pk")[0].registration
            services.registration_drop(registration=reg, by=by)
        seed += 1
    _play(rnd, by)
    return ev


def _phases(event: Event) -> list[tuple[int, str]]:
    return sorted(set(event.rounds.values_list("number", "phase")))


def _standings(event: Event) -> dict:
    data = standings_data(event)
    data.pop("event")
    return data


def test_P_D2_1_two_day_event_round_trips_through_a_tom_file(organiser, tmp_path):
    ev = two_day_event(organiser)
    assert _phases(ev)[:6] == [(1, "swiss"), (2, "swiss"), (3, "swiss"),
                               (4, "swiss-day2"), (5, "swiss-day2"), (6, "top-cut")]  # fmt: skip
    text = export_tdf(ev, tmp_path)
    assert parse_tdf(text).event.mode == "TCG2DAY" and ' mode="TCG2DAY">' in text
    again = import_tdf(tmp_path / f"{ev.slug}.tdf")
    assert (again.day2_rounds, again.swiss_rounds) == (2, 3)
    assert again.divisions.get().swiss_rounds == 3
    assert _phases(again) == _phases(ev)
    assert summary(again)["players"] == summary(ev)["players"]
    assert summary(again)["rounds"] == summary(ev)["rounds"]
    assert _standings(again) == _standings(ev)
    assert export_tdf(again, tmp_path) == text  # and out again unchanged


def test_P_RT_2_tcg1day_file_keeps_its_rounds_on_day_one(tmp_path):
    original = TDF.read_text(encoding="utf-8")
    assert 'mode="TCG1DAY"' in original
    ev = import_tdf(TDF)
    assert ev.day2_rounds == 0
    assert not ev.rounds.filter(phase=Phase.SWISS_DAY2).exists()
    assert export_tdf(ev, tmp_path) == original


def test_P_D2_1_two_day_file_without_a_day_2_cut_keeps_its_rounds_on_day_one():
    text = TDF.read_text(encoding="utf-8").replace('mode="TCG1DAY"', 'mode="TCG2DAY"')
    data = tdf_event_data(parse_tdf(text))
    assert data.day2_rounds == 0  # every player still in plays on: no cut seen, ≤ 9 rounds
    assert {r.phase for r in data.rounds} == {"swiss", "top-cut"}
