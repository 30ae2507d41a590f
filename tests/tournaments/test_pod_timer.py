"""The projector's round clock (MP-TIME-1) and the P-RT-6 recommendation of pod events."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from pairings.services import round_pair
from rulesets import get_ruleset
from tests.pod_factories import pod_event, seats
from tournaments import services
from tournaments.clock import RoundTimes, clock_text, round_clock
from tournaments.selectors import divisions_for_event
from tournaments.services import Result, pod_intentional_draw_note, slip_enter

START = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)
PODS = get_ruleset("mtg-multiplayer")


def at(minutes: float, **kwargs):
    now = START + dt.timedelta(minutes=minutes)
    return round_clock(rules=PODS, times=RoundTimes(START), now=now, **kwargs)


@pytest.mark.parametrize(
    ("minutes", "elimination", "extra", "phase", "remaining"),
    [
        (0, False, {}, "playing", 80 * 60),
        (79.5, False, {}, "playing", 30),
        (80, False, {}, "last-turn", 30 * 60),  # time: the hard 30-minute last-turn limit
        (109, False, {}, "last-turn", 60),
        (111, False, {}, "over", -60),
        (200, True, {}, "untimed", None),  # top cut: untimed
        (100, True, {"intentional_draw": True}, "playing", 50 * 60),  # 150 from the start
        (151, True, {"intentional_draw": True}, "over", -60),
        (400, True, {"intentional_draw": True, "final": True}, "untimed", None),  # never
    ],
)
def test_MP_TIME_1_round_clock(minutes, elimination, extra, phase, remaining):
    clock = at(minutes, elimination=elimination, **extra)
    assert (clock.phase, clock.remaining) == (phase, remaining)
    assert clock.elapsed == int(minutes * 60)


def test_clock_text():
    assert [clock_text(s) for s in (4830, 59, -5, None)] == ["80:30", "0:59", "-0:05", "–"]


def test_MP_TIME_1_clock_counts_from_the_start_even_before_a_device_clock():
    assert at(-3, elimination=False).elapsed == 0


def pod_recommendation(players: int) -> tuple[int, int]:
    found = get_ruleset("mtg-multiplayer").recommend(players)
    return found.rounds, found.cut


def test_P_RT_6_recommendation_counts_each_smaller_pod_as_a_player():
    assert pod_recommendation(22) == (3, 7)  # 22 + two 3-pods → the 17–24 row
    assert pod_recommendation(30) == (4, 10)  # P-RT-6's own example: the row for 32
    assert pod_recommendation(5) == (0, 0)


@pytest.mark.django_db
def test_P_RT_6_dashboard_recommendation_of_a_pod_event(organiser):
    event = pod_event(30, by=organiser)
    (d,) = divisions_for_event(event)
    assert d.recommended == (4, 10)


@pytest.mark.django_db
def test_MP_TIME_1_timer_page_shows_the_server_clock_pods_playing_and_a_qr(client, organiser):
    event = pod_event(8, by=organiser)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    rnd.started_at = timezone.now() - dt.timedelta(minutes=20, seconds=5)
    rnd.save(update_fields=["started_at"])
    t1 = rnd.matches.get(table=1)
    slip_enter(match=t1, result=Result.of(winner=seats(t1)[0]), by=organiser)
    html = client.get(f"/e/{event.slug}/timer/").content.decode()
    assert "Round 1" in html and ">59:5" in html  # 80 − 20:05 = 59:55, by the server's clock
    assert "Still playing: table <strong>2</strong>" in html
    assert "<svg" in html and f"/e/{event.slug}/pairings/" in html
    assert f'data-started-ms="{int(rnd.started_at.timestamp() * 1000)}"' in html
    assert 'data-limit-s="4800"' in html and "data-server-ms=" in html


@pytest.mark.django_db
def test_MP_TIME_1_intentional_draw_starts_the_150_minute_limit_in_the_top_cut(client, organiser):
    event = pod_event(7, by=organiser, rounds=1, cut=7)
    (r1,) = round_pair(event=event, group="open", by=organiser, seed=1)
    services.round_publish(round=r1, by=organiser)
    services.round_start(round=r1, by=organiser)
    for m in r1.matches.all():
        slip_enter(match=m, result=Result.of(winner=seats(m)[0]), by=organiser)
    (cut,) = round_pair(event=event, group="open", by=organiser)
    services.round_publish(round=cut, by=organiser)
    services.round_start(round=cut, by=organiser)
    assert "Untimed (top cut)" in client.get(f"/e/{event.slug}/timer/").content.decode()
    pod_intentional_draw_note(match=cut.matches.get(table=1), by=organiser)
    html = client.get(f"/e/{event.slug}/timer/").content.decode()
    assert "150-minute limit" in html and 'data-limit-s="9000"' in html


@pytest.mark.django_db
def test_timer_page_is_linked_from_the_pod_round_page(client, organiser):
    event = pod_event(8, by=organiser)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    client.force_login(organiser)
    html = client.get(f"/e/{event.slug}/staff/rounds/{rnd.pk}/").content.decode()
    assert f'href="/e/{event.slug}/timer/"' in html


@pytest.mark.django_db
def test_pair_command_prints_pods_as_json(organiser):
    import json
    from io import StringIO

    from django.core.management import call_command

    event = pod_event(11, by=organiser)
    out = StringIO()
    call_command("pair", event.slug, "--seed", "4", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert [len(m["players"]) for m in data["matches"]] == [4, 4, 3]
    assert all(m["why"] for m in data["matches"])


@pytest.mark.django_db
def test_P_RT_6_organiser_announces_rounds_and_a_pod_cut_from_the_dashboard(client, organiser):
    event = pod_event(22, by=organiser)
    client.force_login(organiser)
    html = client.get(f"/e/{event.slug}/staff/").content.decode()
    assert "Recommended for 22 players" in html and '<option value="7" selected>' in html
    url = f"/e/{event.slug}/staff/pod-structure/"
    assert client.post(url, {"swiss_rounds": 3, "cut": 7}).status_code == 302
    event.refresh_from_db()
    assert event.swiss_rounds == 3 and event.divisions.get().cut == 7
    client.post(url, {"swiss_rounds": 3, "cut": 8})
    assert event.divisions.get().cut == 7  # 8 is not a pod cut (MP-SE-1)
