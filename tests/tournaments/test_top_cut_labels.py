"""What a top cut and the standings are called, in the visitor's language: "Semifinales" on a Spanish bracket, "Tras la ronda 1" on a Spanish player's page;
a top-cut table shows no Swiss-phase "0-0-0 · 0 pts" (the seeds say who is who)."""

from __future__ import annotations

from django.urls import reverse

from standings.models import StandingsSnapshot
from tests.tournaments.test_views_public import make_round
from tournaments import services
from tournaments.models import Phase, RoundStatus

ES = {"HTTP_ACCEPT_LANGUAGE": "es"}


def _top_cut(event8, organiser):
    regs = list(event8.registrations.order_by("pk"))[:4]
    rnd = make_round(
        event8,
        organiser,
        status=RoundStatus.PAIRED,
        group="open-top-cut",
        phase=Phase.TOP_CUT,
        regs=regs,
        number=4,
    )
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    return rnd


def test_a_spanish_bracket_names_its_rounds_in_spanish(client, event8, organiser):
    _top_cut(event8, organiser)
    url = reverse("public:bracket", args=[event8.slug])
    assert "<h3>Semi-finals</h3>" in client.get(url).content.decode()
    spanish = client.get(url, **ES).content.decode()
    assert "<h3>Semifinales</h3>" in spanish and "Semi-finals" not in spanish


def test_a_top_cut_table_shows_no_swiss_record(client, event8, organiser):
    rnd = _top_cut(event8, organiser)
    client.force_login(organiser)
    page = client.get(reverse("staff:round", args=[event8.slug, rnd.pk])).content.decode()
    rows = page[page.index('<ol class="matches">') :]
    assert "0-0-0" not in rows and " pts<" not in rows and "Player 001" in rows
    public = client.get(reverse("public:pairings", args=[event8.slug])).content.decode()
    assert "<bdi>Player 001</bdi></span>" in public and "0-0-0" not in public


def test_a_spanish_player_page_names_the_standings_in_spanish(client, event8):
    reg = event8.registrations.order_by("pk").first()
    row = {"place": 1, "player": reg.external_id, "name": "Player 001", "match_points": 3}
    row |= {"record": "1-0-0", "dropped": False, "top_cut": False, "tiebreakers": {}}
    StandingsSnapshot.objects.create(
        event=event8,
        label="After round 1",
        rounds_complete=1,
        data={"event": event8.slug, "divisions": {"open": [row]}},
    )
    url = reverse("public:player", args=[event8.slug, reg.report_token])
    assert "<small>After round 1</small>" in client.get(url).content.decode()
    spanish = client.get(url, **ES).content.decode()
    assert "<small>Tras la ronda 1</small>" in spanish and "After round" not in spanish


def test_a_pod_bracket_labels_its_byes_and_its_first_round(client, organiser):
    """Top 7 in pods: seeds 1-3 have a bye beside one pod of seeds 4-7 ("Top 7", not
    "Final"); the byes are marked as such."""
    from pairings.services import round_pair
    from tests.pod_factories import play, pod_event

    event = pod_event(7, by=organiser, rounds=2, cut=7)
    for n in (1, 2):
        (rnd,) = round_pair(event=event, group="open", by=organiser, seed=n)
        play(rnd, organiser)
    (first,) = round_pair(event=event, group="open", by=organiser)
    services.round_publish(round=first, by=organiser)
    body = client.get(reverse("public:bracket", args=[event.slug])).content.decode()
    assert "<h3>Top 7</h3>" in body and "<h3>Final</h3>" not in body
    assert body.count('<small class="bye">bye</small>') == 3
