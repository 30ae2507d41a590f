"""Public pages: announcements, pairings (cached), find my table, standings, bracket.

Nothing unpublished is ever shown: a round in status "paired" is invisible (P-POST-1).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from standings.models import StandingsSnapshot
from tests import factories
from tournaments import services
from tournaments.models import Phase, Player, RoundStatus
from tournaments.public_cache import pairings_fragment_store
from tournaments.services import Result

HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def private_cache(settings, request):
    """A cache no other test process can empty between two requests of one test.

    tests/conftest.py clears the cache around every test, and Redis' FLUSHDB ignores the
    per-process KEY_PREFIX, so a parallel xdist worker can empty the shared Redis database
    in the middle of a cache-hit test. The browser tests cover the Redis cache itself.
    """
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": request.node.nodeid,
        }
    }


def make_round(
    event, by, *, status=RoundStatus.PUBLISHED, group="open", number=1, phase=Phase.SWISS, regs=None
):
    return factories.round_in_order(
        event, by=by, status=status, group=group, number=number, phase=phase, regs=regs
    )


def test_home_lists_events_and_links_to_staff_login(client, event):
    body = client.get(reverse("home")).content.decode()
    assert reverse("public:event", args=[event.slug]) in body
    assert reverse("login") in body


def test_home_of_a_signed_in_organiser_lists_their_events(client, event, organiser):
    client.force_login(organiser)
    body = client.get(reverse("home")).content.decode()
    assert reverse("staff:dashboard", args=[event.slug]) in body
    assert reverse("staff:event_create") in body


def test_S_2_event_page_shows_the_announcements(client, organiser):
    event = factories.event(
        by=organiser,
        swiss_rounds=5,
        top_cut_size=8,
        third_place_playoff=True,
        prizes="Top 8: booster packs",
    )
    body = client.get(reverse("public:event", args=[event.slug])).content.decode()
    for text in (
        "Swiss rounds</dt><dd>5",
        "Top 8",
        "3rd/4th place playoff</dt><dd>Yes",
        "Top 8: booster packs",
    ):
        assert text in body
    for name in ("public:pairings", "public:standings"):
        assert reverse(name, args=[event.slug]) in body


def test_a_paired_round_is_invisible_to_the_public(client, event8, organiser):
    make_round(event8, organiser, status=RoundStatus.PAIRED)
    pages = [
        reverse(n, args=[event8.slug])
        for n in ("public:event", "public:pairings", "public:bracket")
    ]
    pages += [
        reverse("public:pairings", args=[event8.slug]) + "?by=name",
        reverse("public:pairings", args=[event8.slug]) + "?q=Player",
    ]
    for url in pages:
        body = client.get(url).content.decode()
        assert "Player 001" not in body, url
        assert "Round 1" not in body, url
    # The cache never stores it either, even when asked to render.
    assert "Player 001" not in pairings_fragment_store(event8.pk)["by_table"]


def test_pairings_by_table_and_by_name(client, event8, organiser):
    make_round(event8, organiser)
    url = reverse("public:pairings", args=[event8.slug])
    by_table = client.get(url).content.decode()
    assert "Round 1" in by_table
    assert (
        by_table.index("Player 001") < by_table.index("Player 002") < by_table.index("Player 003")
    )
    by_name = client.get(url + "?by=name").content.decode()
    assert "Table <strong>1</strong>" in by_name and "vs Player 002" in by_name


def test_find_my_table_with_a_plain_get_form(client, event8, organiser):
    make_round(event8, organiser)
    url = reverse("public:pairings", args=[event8.slug])
    page = client.get(url).content.decode()
    assert f'<form class="search" method="get" action="{url}"' in page
    assert f'hx-get="{url}"' in page
    body = client.get(url, {"q": "player 004"}).content.decode()
    assert "Player 004" in body and "Table <strong>2</strong>" in body and "vs Player 003" in body
    assert "Player 006" not in body


def test_find_my_table_htmx_answers_only_the_live_fragment(client, event8, organiser):
    make_round(event8, organiser)
    url = reverse("public:pairings", args=[event8.slug])
    body = client.get(url, {"q": "005"}, headers=HX).content.decode()
    assert body.lstrip().startswith('<section id="live"')
    assert "<html" not in body and "Table <strong>3</strong>" in body


def test_pairings_are_served_from_the_cache_without_rendering_again(
    client, event8, organiser, django_assert_num_queries
):
    make_round(event8, organiser)
    url = reverse("public:pairings", args=[event8.slug])
    assert "Player 001" in client.get(url).content.decode()  # miss: rendered and stored
    Player.objects.filter(name="Player 001").update(name="Renamed Behind The Cache")
    with django_assert_num_queries(0):  # the prebuilt page (tournaments.public_pages)
        body = client.get(url).content.decode()
    assert "Player 001" in body and "Renamed" not in body


def test_round_publish_stores_the_fragment_so_the_first_visitor_hits_the_cache(
    client, event8, organiser, django_capture_on_commit_callbacks, django_assert_num_queries
):
    rnd = make_round(event8, organiser, status=RoundStatus.PAIRED)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=rnd, by=organiser)
    with django_assert_num_queries(0):
        body = client.get(reverse("public:pairings", args=[event8.slug])).content.decode()
    assert "Player 001" in body


def test_a_newly_published_round_replaces_the_stored_fragment(client, event8, organiser):
    rnd = make_round(event8, organiser, status=RoundStatus.STARTED)
    url = reverse("public:pairings", args=[event8.slug])
    client.get(url)
    for m in rnd.matches.all():
        services.slip_enter(match=m, result=Result.draw(), by=organiser)
    regs = list(event8.registrations.order_by("-pk"))  # reversed: a different round 2
    make_round(event8, organiser, number=2, regs=regs)
    body = client.get(url).content.decode()
    assert "Round 2" in body and "1-0-1" not in body and "0-0-1" in body


@pytest.mark.parametrize(
    "page", ["public:event", "public:pairings", "public:standings", "public:bracket"]
)
def test_public_pages_follow_the_event_between_rounds_too(client, event8, organiser, page):
    """A page opened before round 1 or between rounds learns of the next round
    (a live stream and a refreshing part), not only while a round is live."""
    url = reverse(page, args=[event8.slug])
    follows = 'hx-trigger="sse:public"'
    before = client.get(url).content.decode()
    assert follows in before and f'sse-connect="/e/{event8.slug}/live/?public=' in before
    make_round(event8, organiser, status=RoundStatus.STARTED)
    body = client.get(url).content.decode()
    assert follows in body and "every " not in body  # pushed, not polled
    fragment = client.get(url, headers=HX).content.decode()
    assert fragment.lstrip().startswith('<section id="live"') and "<html" not in fragment


@pytest.mark.parametrize(
    ("page", "most"),
    # the event page: 3, 3 for the pairing groups (the rounds' groups' divisions, the
    # divisions' groups and theirs), and 2 for the estimated finish (rounds, divisions:
    # planning); every page 1 more for the live versions it shows; the event
    # page 1 more for its featured matches
    [("public:event", 10), ("public:pairings", 3), ("public:standings", 4), ("public:bracket", 6)],
)
def test_public_pages_take_a_fixed_number_of_queries(
    client, organiser, page, most, django_assert_max_num_queries
):
    event = factories.event_with_players(40, by=organiser)
    make_round(event, organiser, status=RoundStatus.STARTED)
    url = reverse(page, args=[event.slug])
    client.get(url)  # fills the pairings cache
    with django_assert_max_num_queries(most):
        assert client.get(url).status_code == 200


def test_P_TB_8_standings_show_record_points_and_percentages_with_two_decimals(client, event8):
    StandingsSnapshot.objects.create(
        event=event8,
        label="After round 3",
        rounds_complete=3,
        data={
            "event": event8.slug,
            "ruleset": "pokemon",
            "divisions": {
                "open": [
                    {
                        "place": 1,
                        "player": "p1",
                        "name": "Ash",
                        "match_points": 9,
                        "record": "3-0-0",
                        "dropped": False,
                        "top_cut": False,
                        "tiebreakers": {"owp": 0.6125, "oowp": 0.583333},
                    },
                    {
                        "place": 2,
                        "player": "p2",
                        "name": "Misty",
                        "match_points": 4,
                        "record": "1-1-1",
                        "dropped": True,
                        "top_cut": False,
                        "tiebreakers": {"owp": 0.25, "oowp": 0.5},
                    },
                ]
            },
        },
    )
    body = client.get(reverse("public:standings", args=[event8.slug])).content.decode()
    assert "After round 3" in body
    for text in ("Ash", "3-0-0", "<td>9</td>", "61.25%", "58.33%", "25.00%", "50.00%", "dropped"):
        assert text in body
    assert body.index("Ash") < body.index("Misty")


def test_bracket_shows_published_top_cut_rounds_with_winners(client, event8, organiser):
    regs = list(event8.registrations.order_by("pk"))[:4]
    paired = make_round(
        event8,
        organiser,
        status=RoundStatus.PAIRED,
        group="open-top-cut",
        phase=Phase.TOP_CUT,
        regs=regs,
        number=4,
    )
    url = reverse("public:bracket", args=[event8.slug])
    assert "Player 001" not in client.get(url).content.decode()
    services.round_publish(round=paired, by=organiser)
    services.round_start(round=paired, by=organiser)
    first = paired.matches.order_by("table").first()
    services.slip_enter(match=first, result=Result.win(regs[1]), by=organiser)
    body = client.get(url).content.decode()
    assert "Semi-finals" in body
    assert '<span class="side winner"><bdi>Player 002</bdi></span>' in body
    assert (
        reverse("public:bracket", args=[event8.slug])
        in client.get(reverse("public:event", args=[event8.slug])).content.decode()
    )


def test_unknown_event_is_404(client, db):
    assert client.get(reverse("public:pairings", args=["nope"])).status_code == 404
