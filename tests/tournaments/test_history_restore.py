"""Going Back to a URL htmx pushed asks for it again with ``HX-History-Restore-Request``
and puts the answer in place of the whole body: such a request gets the whole page, an
ordinary HTMX request only the fragment (``common.wants_fragment``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tests.pod_factories import pod_event
from tournaments.models import RoundStatus

HX = {"HX-Request": "true"}
RESTORE = {"HX-Request": "true", "HX-History-Restore-Request": "true"}
PUBLIC_PAGES = ["public:event", "public:pairings", "public:standings", "public:bracket"]


def _is_fragment(body: str) -> bool:
    return body.lstrip().startswith('<section id="live"') and "<html" not in body


def _is_whole_page(body: str) -> bool:
    return "<html" in body and "</html>" in body and '<section id="live"' in body


@pytest.fixture
def live_event(event8, organiser):
    factories.round_in_order(event8, by=organiser, status=RoundStatus.STARTED)
    return event8


@pytest.mark.parametrize("page", PUBLIC_PAGES)
def test_a_history_restore_of_a_public_page_gets_the_whole_page(client, live_event, page):
    url = reverse(page, args=[live_event.slug])
    assert _is_whole_page(client.get(url, headers=RESTORE).content.decode())
    assert _is_fragment(client.get(url, headers=HX).content.decode())


def test_a_history_restore_of_a_pairings_search_gets_the_whole_page(client, live_event):
    url = reverse("public:pairings", args=[live_event.slug]) + "?q=Player+001"
    restored = client.get(url, headers=RESTORE).content.decode()
    assert _is_whole_page(restored) and "Player 001" in restored
    assert _is_fragment(client.get(url, headers=HX).content.decode())


def test_a_history_restore_of_the_round_timer_gets_the_whole_page(client, organiser):
    event = pod_event(8, by=organiser)
    url = reverse("public:timer", args=[event.slug])
    assert _is_whole_page(client.get(url, headers=RESTORE).content.decode())
    assert _is_fragment(client.get(url, headers=HX).content.decode())


def test_a_history_restore_of_a_pairing_run_gets_the_whole_page(client, event8, organiser):
    run = event8.runs.create(kind="pairing", group="open")
    client.force_login(organiser)
    url = reverse("staff:run", args=[event8.slug, run.pk])
    restored = client.get(url, headers=RESTORE).content.decode()
    assert "<html" in restored and f'id="run-{run.pk}"' in restored
    fragment = client.get(url, headers=HX).content.decode()
    assert "<html" not in fragment and fragment.lstrip().startswith(
        f'<div class="run run-busy" id="run-{run.pk}"'
    )
