"""Public pages of a pod event: the pod, its seat order and each player's table and seat
(MP-SEAT-1), and the pod top cut on the bracket page (MP-SE-1)."""

from __future__ import annotations

import pytest

from pairings.services import round_pair
from tests.pod_factories import pod_event, seats
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(organiser):
    event = pod_event(7, by=organiser)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=12)
    services.round_publish(round=rnd, by=organiser)
    return event, rnd


def test_MP_SEAT_1_public_pairings_list_each_pod_in_seat_order(client, published):
    event, rnd = published
    html = client.get(f"/e/{event.slug}/pairings/").content.decode()
    for m in rnd.matches.order_by("table"):
        names = [r.player.name for r in seats(m)]
        positions = [
            html.index(f"<small>Seat {n}</small> {name}") for n, name in enumerate(names, 1)
        ]
        assert positions == sorted(positions)


def test_MP_SEAT_1_by_name_and_search_give_table_and_seat(client, published):
    event, rnd = published
    m = rnd.matches.get(table=2)
    third = seats(m)[2]
    html = client.get(f"/e/{event.slug}/pairings/?q={third.player.name}").content.decode()
    assert "Table <strong>2</strong>, seat <strong>3</strong>" in html
    by_name = client.get(f"/e/{event.slug}/pairings/?by=name").content.decode()
    assert by_name.count(", seat <strong>") == 7


def test_public_pod_pairings_query_count(client, published, django_assert_max_num_queries):
    event, _ = published
    client.get(f"/e/{event.slug}/pairings/")  # fill the cache
    with django_assert_max_num_queries(3):
        client.get(f"/e/{event.slug}/pairings/")
