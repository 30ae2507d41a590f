"""P-RT-2: choosing a two-day event reads the two-day table (Day 2 rounds from 227)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairings.checkin_services import _recommend
from rulesets import get_ruleset
from rulesets.tables import recommend
from tests import factories
from tournaments.models import Event

TWO_DAY = get_ruleset("pokemon").table(two_day=True)


@pytest.mark.parametrize(
    ("players", "rounds", "day2", "cut"),
    [(226, 8, 0, 8), (227, 9, 5, 8), (799, 9, 5, 8), (800, 9, 6, 8)],
)
def test_P_RT_2_two_day_boundaries(players, rounds, day2, cut):
    rec = recommend(TWO_DAY, players)
    assert (rec.rounds, rec.day2_rounds, rec.cut, rec.rule) == (rounds, day2, cut, "P-RT-2")
    one_day = recommend(get_ruleset("pokemon").table(), players)
    assert one_day.day2_rounds == 0 and one_day.rule == "P-RT-1"


@pytest.mark.django_db
def test_P_RT_2_new_event_page_prefills_day2_rounds_and_stays_overridable(client, organiser):
    client.force_login(organiser)
    url = reverse("staff:event_create")
    page = client.get(url, {"players": 800, "two_day": "1"})
    form = page.context["form"]
    assert (form.initial["swiss_rounds"], form.initial["day2_rounds"]) == (9, 6)
    assert 'data-fill-day2="6"' in page.content.decode()
    one_day = client.get(url, {"players": 800}).context["form"].initial
    assert (one_day["swiss_rounds"], "day2_rounds" in one_day) == (10, False)
    data = {
        "name": "Two Day Cup", "ruleset": "pokemon", "structure": "swiss-top-cut",
        "divisions": "open", "swiss_rounds": 9, "day2_rounds": 4, "top_cut_size": 8,
        "self_report_mode": "agreed",
    }  # fmt: skip
    assert client.post(url, data).status_code == 302
    assert Event.objects.get(name="Two Day Cup").day2_rounds == 4  # the organiser's choice


@pytest.mark.django_db
def test_P_RT_2_check_in_of_a_two_day_event_reads_the_two_day_table(organiser):
    ev = factories.event(by=organiser, swiss_rounds=9, day2_rounds=5)
    assert (_recommend(ev, 799).day2_rounds, _recommend(ev, 800).day2_rounds) == (5, 6)
    one_day = factories.event(by=organiser, name="One Day", swiss_rounds=9)
    assert _recommend(one_day, 800).rounds == 10
