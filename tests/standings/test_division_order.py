"""Divisions are listed in age order, as people list them: Junior, Senior, Masters (issue
20, item 14), never alphabetically by code (Junior, Masters, Senior)."""

from __future__ import annotations

from django.urls import reverse

from standings.services import standings_data
from tests.pairings.test_age_divisions import age_event
from tournaments.forms import DivisionForm, PlayerForm
from tournaments.groups import age_order


def test_divisions_come_in_age_order_everywhere(client, organiser):
    ev = age_event(organiser, {"junior": 2, "senior": 2, "masters": 2})
    assert list(ev.divisions.order_by(age_order()).values_list("code", flat=True)) == [
        "junior",
        "senior",
        "masters",
    ]
    assert list(standings_data(ev)["divisions"]) == ["junior", "senior", "masters"]
    for form in (PlayerForm(event=ev), DivisionForm(event=ev)):
        assert [d.code for d in form.fields["division"].queryset] == ["junior", "senior", "masters"]
    client.force_login(organiser)
    page = client.get(reverse("staff:players", args=[ev.slug])).content.decode()
    body = page[page.index("<main") :]
    assert body.index(">Junior<") < body.index(">Senior<") < body.index(">Masters<")
