"""Finding a player as people type on a phone: "Find my table", the
staff round page and Corrections ignore case and accents and take the words in any order
("tomas" finds Tomás, "muller" Müller, "Ketchum, Ash" Ash Ketchum); the staff round page
jumps to one table by its number among many."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tests.tournaments.test_views_public import make_round
from tournaments.models import Player, RoundStatus
from tournaments.search import folded, name_matches, query_words, table_matches
from tournaments.selectors import current_public_rounds, pairings_search_for_public


@pytest.mark.parametrize(
    ("name", "query", "found"),
    [
        ("Tomás Díaz", "tomas", True),
        ("Jürgen Müller", "muller", True),
        ("Ash Ketchum", "Ketchum, Ash", True),
        ("Ash Ketchum", "ketchum ash", True),
        ("Søren Łukasz", "soren lukasz", True),
        ("Straße Ost", "strasse", True),
        ("Ash Ketchum", "Ketchum, Misty", False),
        ("Tomás Díaz", "", False),
        ("Tomás Díaz", " , ", False),
    ],
)
def test_a_name_matches_every_word_typed_ignoring_case_and_accents(name, query, found):
    assert name_matches(name, query_words(query)) is found


def test_folding_keeps_letters_and_drops_marks():
    assert folded("Tomás MÜLLER Æsir") == "tomas muller aesir"


def test_a_staff_search_takes_a_table_number_or_a_name():
    assert table_matches(12, ["Ana", "Bea"], "12") and not table_matches(12, ["Ana"], "1")
    assert table_matches(3, ["Zoë Ramírez", "Bea"], "zoe")
    assert table_matches(3, ["Zoë"], "") and not table_matches(3, ["Zoë"], "ana")


@pytest.fixture
def accented(event8, organiser):
    """Round 1 published with Player 003 renamed Tomás Müller (table 2, against Player
    004) and Player 005 renamed Ash Ketchum (table 3, against Player 006)."""
    Player.objects.filter(registrations__event=event8, name="Player 003").update(
        name="Tomás Müller"
    )
    Player.objects.filter(registrations__event=event8, name="Player 005").update(name="Ash Ketchum")
    return make_round(event8, organiser)


@pytest.mark.parametrize("query", ["tomas", "MULLER", "müller tomás"])
def test_find_my_table_ignores_accents(client, event8, accented, query):
    url = reverse("public:pairings_find", args=[event8.slug])
    body = client.get(url, {"q": query}).content.decode()
    assert "Tomás Müller" in body and "Table <strong>2</strong>" in body
    assert "vs Player 004" in body and "Ash Ketchum" not in body


def test_find_my_table_takes_last_name_first(client, event8, accented):
    url = reverse("public:pairings", args=[event8.slug])
    body = client.get(url, {"q": "Ketchum, Ash"}).content.decode()
    assert "Table <strong>3</strong>" in body and "vs Player 006" in body


def test_the_database_search_ignores_accents_too(event8, accented):
    """The fallback when no prebuilt name list is stored (Redis down, first request)."""
    found = pairings_search_for_public(event8, current_public_rounds(event8), "muller tomas")
    assert [(e.name, e.table) for e in found] == [("Tomás Müller", 2)]
    assert pairings_search_for_public(event8, current_public_rounds(event8), "  ") == []


def test_the_staff_round_page_jumps_to_a_table_or_a_player(client, organiser):
    event = factories.event_with_players(40, by=organiser, swiss_rounds=3, top_cut_size=0)
    rnd = make_round(event, organiser, status=RoundStatus.STARTED)
    client.force_login(organiser)
    url = reverse("staff:round", args=[event.slug, rnd.pk])
    full = client.get(url).content.decode()
    assert 'id="round-search"' in full and full.count('class="match') >= 20
    one = client.get(url, {"q": "17"}).content.decode()
    table = rnd.matches.get(table=17)
    names = sorted(s.registration.player.name for s in table.seats.all())
    assert all(n in one for n in names)
    assert "Player 001" not in one  # table 1's players are not listed
    by_name = client.get(url, {"q": "player 040"}).content.decode()
    assert "Player 040" in by_name and "Player 001" not in by_name
    none = client.get(url, {"q": "nobody"}).content.decode()
    assert "No table or player matches “nobody”." in none
