"""The demo event `make run` serves: 40 players, round 4 of 6 running, three staff roles."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.models import Event, EventStaff, Outcome, RoundStatus

pytestmark = pytest.mark.django_db


def test_demo_event_is_created_once_part_way_through_with_every_staff_role():
    call_command("demo_event", "--if-missing", stdout=StringIO())
    event = Event.objects.get(slug="demo-cup")
    assert event.registrations.count() == 40
    assert (event.swiss_rounds, event.top_cut_size) == (6, 8)
    statuses = list(event.rounds.order_by("number").values_list("status", flat=True))
    assert statuses == [RoundStatus.COMPLETE] * 3 + [RoundStatus.STARTED]
    current = event.rounds.get(number=4)
    assert current.matches.filter(outcome=Outcome.PENDING).count() == 5
    roles = dict(EventStaff.objects.filter(event=event).values_list("user__username", "role"))
    assert roles == {"organiser": "organiser", "scorekeeper": "scorekeeper", "judge": "judge"}
    out = StringIO()
    call_command("demo_event", "--if-missing", stdout=out)
    assert "exists" in out.getvalue() and Event.objects.count() == 1
