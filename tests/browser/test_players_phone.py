"""The staff players page on a 390-px phone: every row's actions, the Drop
button last, stay on screen — no column is cut off or pushed into a sideways scroll —
in English and in Spanish, with the widest set of columns (birth year, division picker,
deck list)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests import factories
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_drop_button_of_every_players_row_fits_a_390px_phone(
    live_server, phone, organiser, language
):
    ev = factories.event(
        by=organiser,
        divisions={"junior": "junior", "senior": "senior", "masters": "masters"},
        awards_championship_points=True,
    )
    for i, (name, year) in enumerate(
        [("Maximiliano Alejandro Fernández-Villanueva", 1990), ("Ana Li", 2016)], start=1
    ):
        services.registration_add(
            event=ev, name=name, player_id=f"20000{i}", birth_year=year, by=organiser
        )
    client = Client()
    client.force_login(organiser)
    phone.context.add_cookies(
        [
            {"name": name, "value": value, "url": live_server.url}
            for name, value in (
                (settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value),
                (settings.LANGUAGE_COOKIE_NAME, language),
            )
        ]
    )
    phone.goto(live_server.url + reverse("staff:players", args=[ev.slug]))
    drops = phone.locator("table.players button.danger")
    assert drops.count() == 2
    assert drops.first.inner_text() == {"en": "Drop", "es": "Retirar"}[language]
    for i in range(2):
        box = drops.nth(i).bounding_box()
        assert box is not None and box["width"] > 0
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    region = phone.locator("table.players").locator("xpath=..")
    assert region.evaluate("e => e.scrollWidth <= e.clientWidth"), "the table scrolls sideways"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
