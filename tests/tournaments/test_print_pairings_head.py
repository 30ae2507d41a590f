"""The printed pairings name their table-number column in the visitor's language: the
list by name for the wall has a heading over each of its three columns, as the list by
table has its "Table" column."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournaments.models import RoundStatus

pytestmark = pytest.mark.django_db
HEAD = '<p{hidden}><span class="t">{table}</span> <span class="n">{player}</span></p>'


def _printed(client, organiser, by: str = "", **headers) -> str:
    ev = factories.event_with_players(4, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser, status=RoundStatus.PUBLISHED)
    client.force_login(organiser)
    url = reverse("staff:print_pairings", args=[ev.slug, rnd.pk]) + (f"?by={by}" if by else "")
    return client.get(url, **headers).content.decode()


@pytest.mark.parametrize(
    ("language", "table", "player"),
    [("en", "Table", "Player and opponent"), ("es", "Mesa", "Jugador y rival")],
)
def test_the_wall_list_heads_its_table_column_over_every_column(
    client, organiser, language, table, player
):
    html = _printed(client, organiser, HTTP_ACCEPT_LANGUAGE=language)
    head = html[html.index('<div class="wall-head">') : html.index('<ol class="wall-names">')]
    first = HEAD.format(hidden="", table=table, player=player)
    copy = HEAD.format(hidden=' aria-hidden="true"', table=table, player=player)
    assert head == f'<div class="wall-head">{first}{copy}{copy}</div>\n'


def test_the_list_by_table_keeps_its_table_column_heading(client, organiser):
    html = _printed(client, organiser, "table", HTTP_ACCEPT_LANGUAGE="es")
    assert "<thead><tr><th>Mesa</th><th>Jugador</th>" in html
