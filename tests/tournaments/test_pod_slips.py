"""Pod slips (MP-PTS-1, MP-PTS-2): the service's rules, conflicts and audit, and the
one-click row on the staff round page."""

from __future__ import annotations

import pytest

from pairings.services import round_pair
from rulesets.mtg_multiplayer import pod_results
from standings.adapters import match_records
from standings.engine.multiplayer import game_points
from standings.services import group_standings
from tests import factories
from tests.pod_factories import pod_event, seats
from tournaments import services
from tournaments.errors import InvalidInput, ResultConflict, RoundStateError
from tournaments.models import AuditEvent, BackgroundRun, Outcome, RoundStatus
from tournaments.services import Result, slip_enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def pod_round(organiser):
    """An 8-player pod event (two pods of 4) whose round 1 is started."""
    event = pod_event(8, by=organiser, rounds=2)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=2)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    return event, rnd


def points(event):
    lines = group_standings(event, factories.group_row(event, "open")).rows
    return {line.player: line.match_points for line in lines}


def test_MP_PTS_1_win_is_seven_points_and_a_draw_skips_conceded_players(organiser, pod_round):
    event, rnd = pod_round
    t1, t2 = rnd.matches.order_by("table")
    a = seats(t1)
    slip_enter(match=t1, result=Result.of(winner=a[2]), by=organiser)
    b = seats(t2)
    slip_enter(match=t2, result=Result.draw([b[0].pk]), by=organiser)  # a draw; seat 1 conceded
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE
    assert BackgroundRun.objects.filter(event=event, kind=BackgroundRun.Kind.STANDINGS).exists()
    got = points(event)
    assert [got[str(r.pk)] for r in a] == [0, 0, 7, 0]
    assert [got[str(r.pk)] for r in b] == [0, 1, 1, 1]
    assert seats(t2) and t2.seats.get(registration=b[0]).conceded


def test_MP_PTS_1_win_in_a_smaller_pod_is_still_2n_minus_1(organiser):
    event = pod_event(7, by=organiser)  # pods of 4 and 3
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=4)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    small = rnd.matches.get(table=2)
    assert small.seats.count() == 3
    slip_enter(match=small, result=Result.of(winner=seats(small)[0]), by=organiser)
    slip_enter(
        match=rnd.matches.get(table=1),
        result=Result.of(winner=seats(rnd.matches.get(table=1))[0]),
        by=organiser,
    )
    assert points(event)[str(seats(small)[0].pk)] == 7


def test_MP_PTS_2_game_points_from_the_recorded_pods(organiser, pod_round):
    event, rnd = pod_round
    t1, t2 = rnd.matches.order_by("table")
    slip_enter(match=t1, result=Result.of(winner=seats(t1)[1]), by=organiser)
    slip_enter(match=t2, result=Result.draw([seats(t2)[3].pk]), by=organiser)
    results = {r.players: r for r in pod_results(match_records(factories.group_row(event, "open")))}
    r1 = next(r for r in results.values() if r.winner is not None)
    r2 = next(r for r in results.values() if r.winner is None)
    assert game_points(r1, r1.winner) == 7
    assert sorted(game_points(r2, p) for p in r2.players) == [0, 1, 1, 1]


def test_pod_slip_rules_refuse_impossible_results(organiser, pod_round):
    event, rnd = pod_round
    t1, t2 = rnd.matches.order_by("table")
    with pytest.raises(InvalidInput, match="one of the players"):
        slip_enter(match=t1, result=Result.of(winner=seats(t2)[0]), by=organiser)
    with pytest.raises(InvalidInput, match="conceded cannot win"):
        slip_enter(
            match=t1,
            result=Result.of(winner=seats(t1)[0], conceded=[seats(t1)[0].pk]),
            by=organiser,
        )
    with pytest.raises(InvalidInput, match="nobody is left"):
        slip_enter(match=t1, result=Result.draw([r.pk for r in seats(t1)]), by=organiser)


def test_stale_pod_slip_conflicts_and_a_resent_one_changes_nothing(organiser, pod_round):
    _, rnd = pod_round
    t1 = rnd.matches.get(table=1)
    a = seats(t1)
    slip_enter(match=t1, result=Result.of(winner=a[0]), version=0, by=organiser)
    slip_enter(match=t1, result=Result.of(winner=a[0]), version=0, by=organiser)  # double click
    t1.refresh_from_db()
    assert t1.version == 1
    with pytest.raises(ResultConflict, match="just recorded as Player"):
        slip_enter(match=t1, result=Result.of(winner=a[1]), version=0, by=organiser)
    assert AuditEvent.objects.filter(action="result.enter", object_id=str(t1.pk)).count() == 1


def test_pod_slip_waits_for_the_round_to_start(organiser):
    event = pod_event(8, by=organiser)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    t1 = rnd.matches.get(table=1)
    with pytest.raises(RoundStateError):
        slip_enter(match=t1, result=Result.of(winner=seats(t1)[0]), by=organiser)


# --- the staff round page ---------------------------------------------------------------


def test_round_page_shows_pods_with_winner_buttons_and_draw(client, organiser, pod_round):
    event, rnd = pod_round
    client.force_login(organiser)
    html = client.get(f"/e/{event.slug}/staff/rounds/{rnd.pk}/").content.decode()
    t1 = rnd.matches.get(table=1)
    assert f"/e/{event.slug}/staff/matches/{t1.pk}/result/" in html
    assert html.count(" wins</button>") == 8 and "Seat 4:" in html
    assert 'name="conceded"' in html and ">Draw</button>" in html


def test_htmx_pod_slip_answers_the_row_and_the_progress(client, organiser, pod_round):
    event, rnd = pod_round
    client.force_login(organiser)
    t1 = rnd.matches.get(table=1)
    b = seats(t1)
    url = f"/e/{event.slug}/staff/matches/{t1.pk}/result/"
    data = {"winner": "draw", "conceded": [b[1].pk], "version": 0}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert f'id="match-{t1.pk}"' in html and 'hx-swap-oob="true"' in html
    assert f"{b[1].player.name} conceded" in html
    t1.refresh_from_db()
    assert t1.outcome == Outcome.DRAW
    stale = client.post(url, {"winner": str(b[0].pk), "version": 0}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 409 and "just recorded as draw" in stale.content.decode()


def test_pod_slip_without_js_redirects_and_needs_event_staff(client, organiser, pod_round):
    event, rnd = pod_round
    t1 = rnd.matches.get(table=1)
    url = f"/e/{event.slug}/staff/matches/{t1.pk}/result/"
    data = {"winner": str(seats(t1)[0].pk), "version": 0}
    client.force_login(factories.user("stranger"))
    assert client.post(url, data).status_code in (403, 404)
    client.force_login(organiser)
    response = client.post(url, data)
    assert response.status_code == 302 and f"#match-{t1.pk}" in response["Location"]
    t1.refresh_from_db()
    assert t1.winner_id == seats(t1)[0].pk


# --- corrections (P-POST-4) -------------------------------------------------------------


def test_judge_corrects_a_pod_with_a_reason_and_later_pods_are_marked(client, organiser, pod_round):
    from tournaments.models import StaffRole

    event, rnd = pod_round
    t1, t2 = rnd.matches.order_by("table")
    a = seats(t1)
    slip_enter(match=t1, result=Result.of(winner=a[0]), by=organiser)
    slip_enter(match=t2, result=Result.of(winner=seats(t2)[0]), by=organiser)
    (r2,) = round_pair(event=event, group="open", by=organiser, seed=3)
    judge = factories.staff(event, StaffRole.JUDGE)
    client.force_login(judge)
    page = client.get(f"/e/{event.slug}/staff/corrections/?round={rnd.pk}").content.decode()
    url = f"/e/{event.slug}/staff/matches/{t1.pk}/correct/"  # every table's correction
    assert f'action="{url}"' in page and 'name="conceded"' in page
    data = {"winner": "draw", "conceded": [a[3].pk], "version": 1, "reason": "slip misread"}
    assert client.post(url, data).status_code == 302
    t1.refresh_from_db()
    assert t1.outcome == Outcome.DRAW and t1.seats.get(registration=a[3]).conceded
    row = AuditEvent.objects.get(action="result.correct", object_id=str(t1.pk))
    assert row.reason == "slip misread" and "conceded" in row.new["result"]
    assert r2.matches.filter(bracket_changed=True).exists()  # P-SW-9: players moved


def test_pod_correction_needs_a_reason(organiser, pod_round):
    _, rnd = pod_round
    t1 = rnd.matches.get(table=1)
    slip_enter(match=t1, result=Result.of(winner=seats(t1)[0]), by=organiser)
    with pytest.raises(InvalidInput, match="reason"):
        services.result_correct(
            match=t1, result=Result.of(winner=seats(t1)[1]), reason=" ", by=organiser
        )


def test_intentional_draw_note_only_in_a_running_top_cut(organiser, pod_round):
    _, rnd = pod_round
    with pytest.raises(RoundStateError, match="top-cut"):
        services.pod_intentional_draw_note(match=rnd.matches.get(table=1), by=organiser)


def test_player_page_shows_the_pod_in_seat_order(client, pod_round):
    _, rnd = pod_round
    t1 = rnd.matches.get(table=1)
    third = seats(t1)[2]
    html = client.get(f"/e/{rnd.event.slug}/p/{third.report_token}/").content.decode()
    assert "<strong>you, seat 3</strong>" in html and seats(t1)[0].player.name in html
    assert "I lost" not in html  # pods report a winner or a draw (test_pod_reports)
    assert "/report/" in html and f"{seats(t1)[0].player.name} won</button>" in html
