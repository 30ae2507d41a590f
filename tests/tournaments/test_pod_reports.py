"""Players of a pod report its result on their private links (MP-PTS-1, P-POST-3 for
pods): agreement records or holds it, disagreement goes to the disputes queue, a staff
entry overrides the reports."""

from __future__ import annotations

import pytest

from pairings.services import round_pair
from standings.services import group_standings
from tests.factories import group_row
from tests.pod_factories import pod_event, seats
from tournaments import services
from tournaments.errors import InvalidInput, ReportOverride, ResultConflict
from tournaments.models import AuditEvent, Outcome, SelfReportMode
from tournaments.selectors.reports import disputes_for_staff
from tournaments.services import Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def pod(organiser):
    """An 8-player pod event whose round 1 is started; returns (event, round, table 1)."""
    event = pod_event(8, by=organiser, rounds=2)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=3)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    return event, rnd, rnd.matches.get(table=1)


def report_submit(match, registration, winner=None, conceded=False):
    """A pod report through the one report service: the winner, or a draw and whether
    the player themself conceded (their own id in ``conceded``, MP-PTS-1)."""
    return services.report_submit(
        match=match,
        registration=registration,
        result=Result.of(winner=winner, conceded=[registration.pk] if conceded else []),
    )


def dispute_resolve(match, winner, reason, by):
    return services.dispute_resolve(
        match=match, result=Result.of(winner=winner), reason=reason, by=by
    )


def report_all(match, winner=None, conceded=()):
    return [report_submit(match, r, winner, conceded=r in conceded) for r in seats(match)]


def points(event):
    return {
        line.player: line.match_points
        for line in group_standings(event, group_row(event, "open")).rows
    }


def test_MP_PTS_1_every_player_agreeing_on_the_winner_records_the_pod(pod):
    event, rnd, m = pod
    a = seats(m)
    assert report_all(m, winner=a[1]) == ["waiting", "waiting", "waiting", "recorded"]
    m.refresh_from_db()
    assert (m.outcome, m.winner_id) == (Outcome.WIN, a[1].pk)
    assert AuditEvent.objects.filter(action="report.submit", object_id=str(m.pk)).count() == 4


def test_MP_PTS_1_agreed_draw_gives_no_point_to_the_player_who_said_they_conceded(organiser, pod):
    event, rnd, m = pod
    a = seats(m)
    assert report_all(m, conceded=(a[0],))[-1] == "recorded"
    other = rnd.matches.get(table=2)
    report_all(other, winner=seats(other)[0])
    got = points(event)
    assert [got[str(r.pk)] for r in a] == [0, 1, 1, 1]
    assert m.seats.get(registration=a[0]).conceded


def test_MP_PTS_1_a_different_report_sends_the_pod_to_the_disputes_queue(organiser, pod):
    event, rnd, m = pod
    a = seats(m)
    report_submit(m, a[0], winner=a[0])
    assert report_submit(m, a[1], winner=a[1]) == "disputed"
    (item,) = disputes_for_staff(event)
    assert item.match.id == m.pk and item.summary.state == "disputed"
    dispute_resolve(m, winner=a[1], reason="Judge saw the last turn", by=organiser)
    m.refresh_from_db()
    assert m.winner_id == a[1].pk
    override = AuditEvent.objects.get(action="report.override", object_id=str(m.pk))
    assert override.reason == "Judge saw the last turn"
    assert disputes_for_staff(event) == []


def test_pod_dispute_needs_a_reason(organiser, pod):
    _, _, m = pod
    with pytest.raises(InvalidInput, match="reason"):
        dispute_resolve(m, winner=None, reason=" ", by=organiser)


def test_pod_reports_are_held_for_a_staff_click_when_the_event_says_so(organiser, pod):
    event, rnd, m = pod
    event.self_report = SelfReportMode.HOLD
    event.save(update_fields=["self_report"])
    a = seats(m)
    assert report_all(m, winner=a[2])[-1] == "held"
    m.refresh_from_db()
    assert m.outcome == Outcome.PENDING
    assert [i.summary.state for i in disputes_for_staff(event)] == ["held"]
    with pytest.raises(ResultConflict, match="ask a judge"):
        report_submit(m, a[0], winner=a[0])
    services.report_accept(match=m, by=organiser)  # one service for matches and pods
    m.refresh_from_db()
    assert m.winner_id == a[2].pk


def test_a_player_changes_their_pod_report_until_everyone_agrees(pod):
    _, _, m = pod
    a = seats(m)
    report_submit(m, a[0], winner=a[3])
    assert report_submit(m, a[0], winner=a[3]) == "waiting"  # resent
    assert report_submit(m, a[0], winner=None) == "waiting"
    assert AuditEvent.objects.filter(action="report.change", object_id=str(m.pk)).count() == 1


def test_pod_reports_refuse_impossible_or_late_reports(organiser, pod):
    event, _, m = pod
    a = seats(m)
    with pytest.raises(InvalidInput, match="cannot win the pod and concede"):
        report_submit(m, a[0], a[0], conceded=True)
    report_all(m, winner=a[0])
    with pytest.raises(ResultConflict, match="recorded as"):
        report_submit(m, a[1], winner=a[1])
    event.self_report = SelfReportMode.OFF
    event.save(update_fields=["self_report"])
    with pytest.raises(InvalidInput, match="do not report"):
        report_submit(m, a[1], winner=a[0])


def test_staff_slip_overrides_pending_pod_reports_once_confirmed(organiser, pod):
    _, _, m = pod
    a = seats(m)
    report_submit(m, a[0], winner=a[0])
    report_submit(m, a[1], winner=None, conceded=True)  # a dispute: a winner and a draw
    with pytest.raises(ReportOverride) as asked:
        services.slip_enter(match=m, result=Result.of(winner=a[3]), by=organiser)
    names = [r.player.name for r in a]
    assert str(asked.value) == (
        f"{names[0]} reported: {names[0]} wins; {names[1]} reported: draw ({names[1]} "
        f"conceded). Record {names[3]} wins anyway?"
    )
    m.refresh_from_db()
    assert m.outcome == Outcome.PENDING
    services.slip_enter(match=m, result=Result.of(winner=a[3]), by=organiser, confirmed=True)
    m.refresh_from_db()
    assert m.winner_id == a[3].pk
    assert AuditEvent.objects.filter(action="report.override", object_id=str(m.pk)).exists()


def test_a_pod_slip_saying_what_the_reports_say_is_not_asked(organiser, pod):
    _, _, m = pod
    a = seats(m)
    report_submit(m, a[0], winner=a[2])
    services.slip_enter(match=m, result=Result.of(winner=a[2]), by=organiser)
    m.refresh_from_db()
    assert m.winner_id == a[2].pk


def test_private_link_shows_pod_buttons_and_takes_a_report(client, pod):
    _, _, m = pod
    a = seats(m)
    url = f"/e/{m.round.event.slug}/p/{a[0].report_token}/"
    html = client.get(url).content.decode()
    assert f'value="{a[1].pk}">{a[1].player.name} won</button>' in html
    assert "I conceded" in html and 'value="draw">Draw</button>' in html
    response = client.post(
        f"{url}report/",
        {"match": m.pk, "winner": "draw", "conceded": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "The other players of your pod report too" in response.content.decode()
    assert m.seats.get(registration=a[0]).conceded
    bad = client.post(f"{url}report/", {"match": m.pk, "winner": "nobody"})
    assert bad.status_code == 302


def test_disputes_page_offers_a_pod_decision(client, organiser, pod):
    event, _, m = pod
    a = seats(m)
    report_submit(m, a[0], winner=a[0])
    report_submit(m, a[1], winner=None)
    client.force_login(organiser)
    html = client.get(f"/e/{event.slug}/staff/disputes/").content.decode()
    url = f"/e/{event.slug}/staff/matches/{m.pk}/resolve/"  # every table's decision
    assert f'action="{url}"' in html and "says they conceded" not in html
    response = client.post(
        url,
        {"winner": str(a[0].pk), "version": m.version, "reason": "judge call"},
    )
    assert response.status_code == 302
    m.refresh_from_db()
    assert m.winner_id == a[0].pk


def test_round_page_shows_each_pod_players_reports(client, organiser, pod):
    event, rnd, m = pod
    a = seats(m)
    report_submit(m, a[0], None, conceded=True)
    client.force_login(organiser)
    html = client.get(f"/e/{event.slug}/staff/rounds/{rnd.pk}/").content.decode()
    assert f"<bdi>{a[0].player.name}</bdi> says Draw (conceded)" in html  # pods call it a draw
    assert '<span class="flag">waiting</span>' in html
