"""A flighted event in a TOM file: one ``<subgroup>`` per flight, ``subgroupcount`` in
``<poddata>``, the flights' matches in one ``<round>`` per number (P-FL-1 … P-FL-3)."""

from __future__ import annotations

import pytest

from interchange.formats.tdf import parse_tdf
from interchange.services.imports import event_import_tdf
from interchange.services.tdf_exports import event_tdf
from pairings.procedures.flights import flights_assign
from pairings.services import round_pair
from standings.services import standings_data
from tests import factories
from tournaments import services
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def flighted_masters(by):
    ev = factories.event(by=by, divisions={"masters": "masters"}, season_year=2026,
                         date=None, structure="swiss-top-cut", swiss_rounds=7,
                         top_cut_size=8)  # fmt: skip
    masters = ev.divisions.get()
    for i in range(64):
        services.registration_add(event=ev, name=f"Masters {i:02d}", birth_year=1990,
                                  division=masters, by=by)  # fmt: skip
    flights_assign(division=masters, flights=2, by=by, seed=4)
    for n in (1, 2):
        (rnd,) = round_pair(event=ev, group=f"masters#flight-{n}", by=by, seed=n)
        services.round_publish(round=rnd, by=by)
        services.round_start(round=rnd, by=by)
        for m in rnd.matches.prefetch_related("seats__registration"):
            winner = m.seats.all()[0].registration
            services.slip_enter(match=m, result=Result.win(winner), by=by)
    return ev


def shape(event):
    players = dict(event.registrations.values_list("external_id", "flight"))
    rounds = {
        (r.group.key, r.number): sorted(
            tuple(s.registration.external_id for s in m.seats.order_by("seat"))
            for m in r.matches.all()
        )
        for r in event.rounds.all()
    }
    # Swiss rounds are not compared: an import counts the rounds the file holds (as for
    # every TOM import), not the rounds announced.
    return players, rounds, list(event.divisions.values_list("code", "flights"))


def test_P_FL_1_flighted_event_survives_export_and_import(organiser):
    ev = flighted_masters(organiser)
    text = event_tdf(event=ev, standings=standings_data(ev))
    (pod,) = parse_tdf(text).pods
    assert [(n, len(ids)) for n, ids in pod.subgroups] == [("1", 32), ("2", 32)]
    assert ("subgroupcount", "2") in pod.poddata
    assert [(r.number, len(r.matches)) for r in pod.rounds] == [(1, 32)]  # both flights
    again = event_import_tdf(content=text.encode(), by=organiser)
    assert shape(again) == shape(ev)
    assert sorted({r.group.key for r in again.rounds.all()}) == [
        "masters#flight-1",
        "masters#flight-2",
    ]
