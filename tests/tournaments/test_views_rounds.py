"""Staff round pages: pair → review → publish → start → one-click match slips."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests import factories
from tournaments.models import (
    BackgroundRun,
    BackgroundRunStatus,
    Match,
    Outcome,
    Phase,
    Round,
    RoundStatus,
)

HX = {"HX-Request": "true"}


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client


def make_round(event, by, *, status=RoundStatus.PAIRED):
    """Round 1 of an 8-player open event, tables in registration order."""
    return factories.round_in_order(event, by=by, status=status, why="same record")


def slip(client, event, match, result, version=None, htmx=True):
    return client.post(
        reverse("staff:match_result", args=[event.slug, match.pk]),
        {"result": result, "version": match.version if version is None else version},
        headers=HX if htmx else {},
    )


def test_pairing_a_round_queues_a_run_that_the_page_polls_until_done(
    staff_client, event8, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(reverse("staff:pair", args=[event8.slug]), {"group": "open"})
    assert response.status_code == 302
    run = BackgroundRun.objects.get(event=event8)
    assert run.status == BackgroundRunStatus.DONE
    rnd = Round.objects.get(event=event8)
    assert rnd.status == RoundStatus.PAIRED and rnd.matches.count() == 4
    done = staff_client.get(reverse("staff:run", args=[event8.slug, run.pk]), headers=HX)
    body = done.content.decode()
    assert "hx-trigger" not in body  # finished: polling stops
    assert done.headers["HX-Refresh"] == "true"  # and the page shows the new round
    assert reverse("staff:round", args=[event8.slug, rnd.pk]) in body


def test_a_queued_run_is_polled_every_second(staff_client, event8):
    staff_client.post(reverse("staff:pair", args=[event8.slug]), {"group": "open"})
    run = BackgroundRun.objects.get(event=event8)  # on_commit not run: still queued
    response = staff_client.get(reverse("staff:run", args=[event8.slug, run.pk]), headers=HX)
    body = response.content.decode()
    assert 'hx-trigger="every 1s' in body
    assert f'href="{reverse("staff:run", args=[event8.slug, run.pk])}"' in body
    assert "HX-Refresh" not in response.headers
    dashboard = staff_client.get(reverse("staff:dashboard", args=[event8.slug]))
    assert f'id="run-{run.pk}"' in dashboard.content.decode()


def test_a_failed_run_shows_its_error_on_the_dashboard(staff_client, event8):
    BackgroundRun.objects.create(
        event=event8,
        kind="pairing",
        group="open",
        status=BackgroundRunStatus.FAILED,
        error="No players left.",
    )
    response = staff_client.get(reverse("staff:dashboard", args=[event8.slug]))
    assert "Pairing open failed: No players left." in response.content.decode()


def test_pairing_an_unknown_pod_is_refused(staff_client, event8):
    response = staff_client.post(
        reverse("staff:pair", args=[event8.slug]), {"group": "nope"}, follow=True
    )
    assert "Choose a pairing group of this event." in response.content.decode()
    assert not BackgroundRun.objects.exists()


def test_review_shows_tables_players_records_and_why_then_publish_and_start(
    staff_client, event8, organiser
):
    rnd = make_round(event8, organiser)
    url = reverse("staff:round", args=[event8.slug, rnd.pk])
    body = staff_client.get(url).content.decode()
    assert "Table 1" in body and "Player 001" in body and "0-0-0" in body
    assert "same record" in body and "Publish pairings" in body
    assert 'name="result"' not in body  # no slips before the round starts

    response = staff_client.post(reverse("staff:round_publish", args=[event8.slug, rnd.pk]))
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PUBLISHED
    assert "Start round" in staff_client.get(url).content.decode()

    staff_client.post(reverse("staff:round_start", args=[event8.slug, rnd.pk]))
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.STARTED
    body = staff_client.get(url).content.decode()
    assert body.count('name="result" value="p1"') == 4
    first = rnd.matches.order_by("table").first()
    assert f'hx-post="{reverse("staff:match_result", args=[event8.slug, first.pk])}"' in body


def test_publishing_twice_shows_the_services_message(staff_client, event8, organiser):
    rnd = make_round(event8, organiser, status=RoundStatus.PUBLISHED)
    response = staff_client.post(
        reverse("staff:round_publish", args=[event8.slug, rnd.pk]), follow=True
    )
    assert "must be paired (not public) to do that" in response.content.decode()


def test_htmx_slip_swaps_the_row_and_updates_the_missing_counter_out_of_band(
    staff_client, event8, organiser
):
    rnd = make_round(event8, organiser, status=RoundStatus.STARTED)
    match = rnd.matches.order_by("table").first()
    response = slip(staff_client, event8, match, "p2")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith(f'<li class="match is-reported" id="match-{match.pk}"')
    assert "Player 002 wins" in body
    assert re.search(r'id="round-progress"[^>]*hx-swap-oob="true"', body)
    assert '<strong id="results-missing">3</strong>' in body
    assert 'value="1"' in body  # the new form carries the new version
    match.refresh_from_db()
    assert match.outcome == Outcome.WIN and match.winner.player.name == "Player 002"


def test_a_stale_slip_shows_what_the_match_was_just_recorded_as(staff_client, event8, organiser):
    rnd = make_round(event8, organiser, status=RoundStatus.STARTED)
    match = rnd.matches.order_by("table").first()
    slip(staff_client, event8, match, "p1", version=0)
    response = slip(staff_client, event8, match, "p2", version=0)
    assert response.status_code == 409
    assert "This match was just recorded as Player 001 wins." in response.content.decode()
    match.refresh_from_db()
    assert match.winner.player.name == "Player 001"


def test_the_same_slip_sent_twice_changes_nothing(staff_client, event8, organiser):
    rnd = make_round(event8, organiser, status=RoundStatus.STARTED)
    match = rnd.matches.order_by("table").first()
    slip(staff_client, event8, match, "draw", version=0)
    response = slip(staff_client, event8, match, "draw", version=0)
    assert response.status_code == 200
    match.refresh_from_db()
    assert (match.outcome, match.version) == (Outcome.DRAW, 1)


def test_slip_without_javascript_redirects_back_to_the_row(staff_client, event8, organiser):
    rnd = make_round(event8, organiser, status=RoundStatus.STARTED)
    match = rnd.matches.order_by("table").first()
    response = slip(staff_client, event8, match, "double-loss", htmx=False)
    assert response.status_code == 302
    assert response.url.endswith(f"#match-{match.pk}")
    match.refresh_from_db()
    assert match.outcome == Outcome.DOUBLE_LOSS


def test_a_slip_before_the_round_starts_is_refused_with_the_reason(staff_client, event8, organiser):
    rnd = make_round(event8, organiser, status=RoundStatus.PUBLISHED)
    match = rnd.matches.order_by("table").first()
    response = slip(staff_client, event8, match, "p1")
    assert response.status_code == 422
    assert "has not started" in response.content.decode()


def test_the_last_slip_completes_the_round_and_standings_follow(
    staff_client, event8, organiser, django_capture_on_commit_callbacks
):
    rnd = make_round(event8, organiser, status=RoundStatus.STARTED)
    with django_capture_on_commit_callbacks(execute=True):
        for match in Match.objects.filter(round=rnd).order_by("table"):
            response = slip(staff_client, event8, match, "p1")
    assert "round complete" in response.content.decode()
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE
    standings = staff_client.get(reverse("staff:standings", args=[event8.slug]))
    body = standings.content.decode()
    assert "After round 1" in body and "1-0-0" in body and "0-1-0" in body


def test_missing_only_filter_lists_unreported_tables(staff_client, event8, organiser):
    rnd = make_round(event8, organiser, status=RoundStatus.STARTED)
    first = rnd.matches.order_by("table").first()
    slip(staff_client, event8, first, "p1")
    url = reverse("staff:round", args=[event8.slug, rnd.pk]) + "?missing=1"
    body = staff_client.get(url).content.decode()
    assert f'id="match-{first.pk}"' not in body
    assert body.count('<li class="match') == 3


def test_dashboard_shows_each_pods_next_step(staff_client, event8, organiser):
    make_round(event8, organiser, status=RoundStatus.STARTED)
    body = staff_client.get(reverse("staff:dashboard", args=[event8.slug])).content.decode()
    assert "Enter results" in body and "4</strong> results missing" in body
    assert "3 rounds, no cut" in body  # P-RT-1 for 8 players


def pair_and_play(client, event, group, capture):
    """Press "Pair next round" for ``group``, publish, start, and click player 1 everywhere."""
    with capture(execute=True):
        client.post(reverse("staff:pair", args=[event.slug]), {"group": group})
    rnd = Round.objects.get(event=event, status=RoundStatus.PAIRED)
    with capture(execute=True):
        client.post(reverse("staff:round_publish", args=[event.slug, rnd.pk]))
        client.post(reverse("staff:round_start", args=[event.slug, rnd.pk]))
        for match in rnd.matches.filter(outcome=Outcome.PENDING):
            assert slip(client, event, match, "p1").status_code == 200
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE
    return rnd


def test_P_TC_1_the_pair_button_cuts_to_the_top_4_and_plays_the_bracket(
    staff_client, organiser, django_capture_on_commit_callbacks
):
    event = factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=4)
    for _ in range(3):
        pair_and_play(staff_client, event, "open", django_capture_on_commit_callbacks)
    dashboard = staff_client.get(reverse("staff:dashboard", args=[event.slug])).content.decode()
    assert "cut to top 4" in dashboard

    semis = pair_and_play(staff_client, event, "open", django_capture_on_commit_callbacks)
    assert (semis.group.key, semis.phase, semis.matches.count()) == (
        "open-top-cut",
        Phase.TOP_CUT,
        2,
    )
    final = pair_and_play(staff_client, event, "open-top-cut", django_capture_on_commit_callbacks)
    assert final.matches.count() == 1

    bracket = staff_client.get(reverse("public:bracket", args=[event.slug])).content.decode()
    assert "Semi-finals" in bracket and "Final" in bracket
    champion = final.matches.get().winner.player.name
    standings = staff_client.get(reverse("public:standings", args=[event.slug])).content.decode()
    first_row = standings.split("<tbody>")[1].split("</tr>")[0]
    assert champion in first_row and "top cut" in first_row
    assert standings.count('class="cut"') == 4
    assert "<strong>Final standings</strong>" in standings
    # nothing changes any more: no stream, no refreshing part
    assert "sse-connect" not in standings and "sse:public" not in standings


def test_R_6_pairing_while_results_are_missing_shows_the_reason_on_the_pod(
    staff_client, event8, organiser, django_capture_on_commit_callbacks
):
    make_round(event8, organiser, status=RoundStatus.STARTED)
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(reverse("staff:pair", args=[event8.slug]), {"group": "open"})
    response = staff_client.get(reverse("staff:dashboard", args=[event8.slug]))
    assert "Round 1 still has 4 result(s) missing" in response.content.decode()
    assert BackgroundRun.objects.get().status == BackgroundRunStatus.FAILED
    assert Round.objects.filter(event=event8).count() == 1
