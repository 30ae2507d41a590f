"""One browser acting for two players of a table. Reports it sends for
both sides are held for staff as a dispute and never recorded; it cannot drop the
opponent of a player it reported for. Services against real PostgreSQL, then the
private page's cookie and forms through the test client."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from pairings.services import round_pair
from tests import factories
from tests.pod_factories import pod_event, seats
from tournaments import services
from tournaments.browsers import COOKIE, browser_id
from tournaments.errors import InvalidInput
from tournaments.models import AuditEvent, Outcome, SelfReport, SelfReportMode
from tournaments.selectors.reports import disputes_for_staff
from tournaments.services import Result

pytestmark = pytest.mark.django_db

PHONE, OTHER_PHONE = "browser-one", "browser-two"


@pytest.fixture
def table(event8, organiser):
    """Round 1 started; the first table and its two registrations."""
    regs = list(event8.registrations.order_by("pk"))
    rnd = factories.round_in_order(event8, by=organiser)
    return rnd.matches.get(table=1), regs[0], regs[1]


def report(match, reg, winner, browser):
    return services.report_submit(
        match=match, registration=reg, result=Result.win(winner), browser=browser
    )


def test_agreeing_reports_from_one_browser_are_a_dispute_and_never_recorded(table, event8):
    match, ash, misty = table
    assert report(match, ash, ash, PHONE) == "waiting"
    assert report(match, misty, ash, PHONE) == "one-browser"
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.version) == (Outcome.PENDING, None, 0)
    flags = dict(SelfReport.objects.values_list("registration_id", "one_browser"))
    assert flags == {ash.pk: False, misty.pk: True}
    assert set(SelfReport.objects.values_list("browser", flat=True)) == {PHONE}
    entry = AuditEvent.objects.get(action="report.dispute", object_id=str(match.pk))
    assert entry.reason.startswith("Both reports came from one phone")
    (item,) = disputes_for_staff(event8)
    assert (item.match.id, item.summary.state, item.summary.one_browser) == (
        match.pk,
        "disputed",
        True,
    )


def test_agreeing_reports_from_two_browsers_are_recorded_as_before(table):
    match, ash, misty = table
    assert report(match, ash, ash, PHONE) == "waiting"
    assert report(match, misty, ash, OTHER_PHONE) == "recorded"
    match.refresh_from_db()
    assert (match.outcome, match.winner_id) == (Outcome.WIN, ash.pk)
    assert not SelfReport.objects.filter(one_browser=True).exists()


def test_reports_without_a_known_browser_match_nothing(table):
    match, ash, misty = table
    report(match, ash, ash, "")
    assert report(match, misty, ash, "") == "recorded"


def test_the_one_browser_mark_stays_when_the_real_phone_changes_the_report(table, event8):
    match, ash, misty = table
    report(match, ash, ash, PHONE)
    report(match, misty, misty, PHONE)  # one phone says both players won
    assert report(match, misty, ash, OTHER_PHONE) == "one-browser"  # now they agree
    assert report(match, ash, ash, PHONE) == "one-browser"  # a resend changes nothing
    match.refresh_from_db()
    assert match.outcome == Outcome.PENDING
    mark = SelfReport.objects.get(registration=misty)
    assert (mark.one_browser, mark.browser, mark.winner_id) == (True, OTHER_PHONE, ash.pk)
    assert [i.match.id for i in disputes_for_staff(event8)] == [match.pk]


def test_staff_cannot_accept_a_one_browser_table_but_decide_it_with_a_reason(
    table, event8, organiser
):
    services.event_settings_update(event=event8, by=organiser, self_report=SelfReportMode.HOLD)
    match, ash, misty = table
    report(match, ash, ash, PHONE)
    assert report(match, misty, ash, PHONE) == "one-browser"
    with pytest.raises(InvalidInput, match="Both reports came from one phone"):
        services.report_accept(match=match, by=organiser)
    match.refresh_from_db()
    assert match.outcome == Outcome.PENDING
    services.dispute_resolve(
        match=match,
        by=organiser,
        reason="Both players confirmed at the table",
        result=Result.win(misty),
    )
    match.refresh_from_db()
    assert (match.outcome, match.winner_id) == (Outcome.WIN, misty.pk)
    assert disputes_for_staff(event8) == []


def test_one_browser_reporting_for_two_seats_of_a_pod_is_a_dispute(organiser):
    event = pod_event(8, by=organiser, rounds=2)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=3)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    pod = rnd.matches.get(table=1)
    a = seats(pod)
    for i, reg in enumerate(a[:-1]):
        browser = PHONE if i < 2 else f"own-phone-{i}"
        services.report_submit(
            match=pod, registration=reg, result=Result.of(winner=a[0]), browser=browser
        )
    assert services.report_submit(
        match=pod, registration=a[-1], result=Result.of(winner=a[0]), browser="own-phone-last"
    ) == ("one-browser")
    pod.refresh_from_db()
    assert pod.outcome == Outcome.PENDING
    assert [i.summary.one_browser for i in disputes_for_staff(event)] == [True]


def test_a_browser_that_reported_for_the_opponent_cannot_drop_the_player(table):
    match, ash, misty = table
    report(match, ash, ash, PHONE)
    with pytest.raises(InvalidInput, match="see the staff"):
        services.registration_self_drop(registration=misty, browser=PHONE)
    misty.refresh_from_db()
    assert misty.dropped_after_round is None
    assert not AuditEvent.objects.filter(action="registration.drop").exists()
    match.refresh_from_db()
    assert match.outcome == Outcome.PENDING
    dropped = services.registration_self_drop(registration=misty, browser=OTHER_PHONE)
    assert dropped.dropped_after_round == 1
    entry = AuditEvent.objects.get(action="registration.drop")
    assert entry.actor_registration == misty


def test_a_player_may_drop_from_the_browser_they_reported_on(table):
    match, ash, _misty = table
    report(match, ash, ash, PHONE)
    assert services.registration_self_drop(registration=ash, browser=PHONE).dropped_after_round == 1


def test_the_opponent_of_a_recorded_table_counts_and_other_players_do_not(table, event8):
    match, ash, misty = table
    report(match, ash, ash, PHONE)
    assert report(match, misty, ash, OTHER_PHONE) == "recorded"
    with pytest.raises(InvalidInput):
        services.registration_self_drop(registration=misty, browser=PHONE)
    elsewhere = event8.registrations.order_by("pk")[2]  # table 2: never Ash's opponent
    assert services.registration_self_drop(registration=elsewhere, browser=PHONE).dropped


# --- the private page ------------------------------------------------------------------

HX = {"HX-Request": "true"}


def url(reg, name="public:player"):
    return reverse(name, args=[reg.event.slug, reg.report_token])


def open_and_report(client, reg, match, result):
    assert client.get(url(reg)).status_code == 200
    return client.post(
        url(reg, "public:player_report"), {"match": match.pk, "result": result}, headers=HX
    )


def test_the_private_page_gives_the_browser_a_signed_long_lived_cookie(client, table):
    _, ash, misty = table
    response = client.get(url(ash))
    cookie = response.cookies[COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == 400 * 24 * 3600
    first = client.cookies[COOKIE].value
    client.get(url(misty))
    assert client.cookies[COOKIE].value == first  # the same browser keeps its id
    request = client.get(url(ash)).wsgi_request
    assert browser_id(request) and browser_id(request) == request.get_signed_cookie(
        COOKIE, salt="matchslip.browser"
    )
    client.cookies[COOKIE] = "forged"
    assert browser_id(client.get(url(ash)).wsgi_request) == ""


def test_one_browser_opening_both_links_of_a_slip_sends_the_table_to_the_staff(
    client, table, event8, organiser
):
    match, ash, misty = table
    first = open_and_report(client, ash, match, "me")
    assert "Your opponent now reports" in first.text
    second = open_and_report(client, misty, match, "opponent")
    assert second.status_code == 200
    assert "Both reports came from one phone, so your result went to the staff" in second.text
    match.refresh_from_db()
    assert match.outcome == Outcome.PENDING
    page = client.get(url(misty)).text
    assert "data-one-browser" in page and 'name="result"' not in page
    staff = Client()
    staff.force_login(organiser)
    disputes = staff.get(reverse("staff:disputes", args=[event8.slug])).text
    assert "Both reports came from one phone: check with both players at the table." in disputes


def test_two_phones_agreeing_on_their_own_links_are_recorded(client, table):
    match, ash, misty = table
    open_and_report(client, ash, match, "me")
    answer = open_and_report(Client(), misty, match, "opponent")
    assert "Result recorded" in answer.text
    match.refresh_from_db()
    assert (match.outcome, match.winner_id) == (Outcome.WIN, ash.pk)


def test_the_drop_form_on_the_opponents_link_is_refused_from_the_reporting_browser(client, table):
    match, ash, misty = table
    open_and_report(client, ash, match, "me")
    client.get(url(misty))
    page = client.post(url(misty, "public:player_drop"), {"confirm": "on"}, follow=True)
    assert "This phone already reported for your opponent, so it cannot drop you." in page.text
    misty.refresh_from_db()
    assert misty.dropped_after_round is None
    own = Client()
    own.get(url(misty))
    own.post(url(misty, "public:player_drop"), {"confirm": "on"})
    misty.refresh_from_db()
    assert misty.dropped_after_round == 1
