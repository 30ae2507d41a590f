"""Empty age divisions: no pod of their own on the dashboard, no obstacle to check-in or
pairing (docs/decisions.md: closing check-in is not required to pair round 1)."""

from __future__ import annotations

import pytest

from pairings.checkin_services import checkin_close
from pairings.procedures import event_group_keys
from pairings.services import group_states, round_pair
from tests import factories
from tournaments import services

pytestmark = pytest.mark.django_db

BORN = {"junior": 2016, "senior": 2012, "masters": 1990}  # season ending 2026


def masters_only(by, n=8):
    ev = factories.event(by=by, divisions={c: c for c in BORN}, season_year=2026)
    for i in range(n):
        services.registration_add(event=ev, name=f"M {i}", birth_year=1990,
                                  division=ev.divisions.get(code="masters"), by=by)  # fmt: skip
    return ev


def test_P_AGE_6_empty_divisions_have_no_pod_and_do_not_block_check_in(organiser):
    ev = masters_only(organiser)
    assert event_group_keys(ev) == ["masters"]
    assert [s.key for s in group_states(ev)] == ["masters"]
    plan = checkin_close(event=ev, by=organiser)
    assert [p.group for p in plan.groups] == ["masters"]
    assert event_group_keys(ev) == ["masters"]
    (r1,) = round_pair(event=ev, group="masters", by=organiser, seed=1)
    assert r1.matches.count() == 4


def test_round_1_may_be_paired_without_closing_check_in(organiser):
    ev = masters_only(organiser, n=4)
    (r1,) = round_pair(event=ev, group="masters", by=organiser, seed=1)
    assert r1.matches.count() == 2
    ev.refresh_from_db()
    assert ev.checkin_closed_at is None


def test_an_event_without_players_still_lists_its_pods(organiser):
    ev = factories.event(by=organiser, divisions={c: c for c in BORN}, season_year=2026)
    assert event_group_keys(ev) == ["junior", "masters", "senior"]
