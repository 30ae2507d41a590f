"""Every page's ids are unique and its labels name a field that is there: a duplicate
id sends a label (and a screen reader, and ``getElementById``) to the wrong field, as
the player's staff page did with its drop and disqualify forms, both with a reason.

The tour (``tests/page_tour.py``) visits every public and staff page of four played
events as their organiser; each page's HTML is parsed.
"""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.page_tour import page_urls, played_events

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("i18n")]


class Ids(HTMLParser):
    """The ``id`` of every element and the ``for`` of every label."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.label_for: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(str(values["id"]))
        if tag == "label" and values.get("for"):
            self.label_for.append(str(values["for"]))


def id_problems(html: str) -> list[str]:
    """Each id used twice or more ("id_reason ×2") and each label pointing at no id."""
    parser = Ids()
    parser.feed(html)
    counts = Counter(parser.ids)
    twice = [f"{name} ×{n}" for name, n in counts.items() if n > 1]
    nowhere = [
        f"label for={name} names no element" for name in parser.label_for if not counts[name]
    ]
    return twice + nowhere


def test_no_page_of_the_tour_has_a_duplicate_id_or_a_label_for_nothing(organiser):
    events = played_events(by=organiser)
    client = Client()
    client.force_login(organiser)
    urls = page_urls(client, events)
    assert {"staff:player", "staff:round", "staff:floor", "public:player"} <= {n for n, _ in urls}
    problems = {}
    for name, url in urls:
        found = id_problems(client.get(url).content.decode())
        if found:
            problems[f"{name} {url}"] = found
    assert not problems, "\n".join(f"{page}: {', '.join(p)}" for page, p in problems.items())


def test_the_players_staff_page_labels_each_reason_with_its_own_form(client, organiser):
    event = factories.event_with_players(2, by=organiser)
    reg = event.registrations.order_by("pk").first()
    client.force_login(organiser)
    page = client.get(reverse("staff:player", args=[event.slug, reg.pk])).content.decode()
    assert id_problems(page) == []
    for action, ids in (("drop", "drop_reason"), ("disqualify", "disqualify_reason")):
        form = re.search(rf'<form[^>]* action="[^"]*/{action}/"[^>]*>(.*?)</form>', page, re.S)
        assert form is not None, action
        # its label names its own field, which posts the same name as before
        assert f'<label for="{ids}">' in form[1] and f'id="{ids}"' in form[1]
        assert re.search(rf'<input[^>]* name="reason"[^>]* id="{ids}"', form[1])
