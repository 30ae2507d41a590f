"""(the remaining small fixes), without a browser: the projector's QR
code named for what it opens, in the page's language; the printed "pairings by name"
sorted by surname with table and opponent on each line; the audit page in pages of 100
keeping its filters; a complete round's staff clock stopped; the public pages' "Refresh"
link without the live refresh's ``?live=`` parameter."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tournaments import services
from tournaments.models import AuditEvent, Phase, Round, RoundStatus
from tournaments.selectors.audit import AUDIT_PAGE_ROWS
from tournaments.selectors.printing import surname_first, wall_sort_key
from tournaments.selectors.timer import clock_for_staff
from tournaments.services import Result
from tournaments.templatetags.matchslip import page_url

pytestmark = pytest.mark.django_db


# --- 1. the projector's QR code ---------------------------------------------------------


def test_the_projector_qr_code_is_named_for_the_public_pairings_in_the_page_language(client):
    organiser = factories.user("org")
    ev = factories.event_with_players(4, by=organiser)
    factories.round_in_order(ev, by=organiser)
    english = client.get(f"/e/{ev.slug}/timer/").content.decode()
    assert "<title>QR code of the public pairings</title>" in english
    assert "Report link" not in english
    pairings = f"http://testserver/e/{ev.slug}/pairings/"
    assert f"Pairings: {pairings}</figcaption>" in english
    spanish = client.get(f"/e/{ev.slug}/timer/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "<title>Código QR de los emparejamientos públicos</title>" in spanish


def test_the_projector_page_has_no_site_header_but_other_pages_keep_it(client):
    organiser = factories.user("org")
    ev = factories.event_with_players(4, by=organiser)
    factories.round_in_order(ev, by=organiser)
    timer = client.get(f"/e/{ev.slug}/timer/").content.decode()
    assert 'class="site-header"' not in timer and 'id="language-choice"' not in timer
    assert timer.count('class="round-clock') == 1 and 'class="timer-qr"' in timer
    pairings = client.get(f"/e/{ev.slug}/pairings/").content.decode()
    assert 'class="site-header"' in pairings and 'id="language-choice"' in pairings


def test_a_player_slip_qr_code_is_named_report_link_in_the_page_language(client, organiser):
    ev = factories.event_with_players(4, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser)
    client.force_login(organiser)
    url = reverse("staff:print_slips", args=[ev.slug, rnd.pk])
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert spanish.count("<title>Enlace para informar</title>") == 4


# --- 2. printed pairings by name ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("Tomás de la Cruz Díaz", ("Díaz", "Tomás de la Cruz")),
        ("Madonna", ("Madonna", "")),
        ("Ana Ruiz #0017", ("Ruiz", "Ana #0017")),  # a same-name tag stays with the given name
        ("Ana Ruiz (1990)", ("Ruiz", "Ana (1990)")),
        ("  Zoë   Álvarez ", ("Álvarez", "Zoë")),
        ("", ("", "")),
    ],
)
def test_surname_first_takes_the_last_word_as_the_surname(name, parts):
    assert surname_first(name) == parts


def test_the_wall_order_is_by_surname_then_given_names_ignoring_case_and_accents():
    names = ["Bruno Zapata", "zoë álvarez", "Ana Álvarez", "Carl Bauer", "Émile Östlund", "Ed Ng"]
    assert sorted(names, key=wall_sort_key) == [
        "Ana Álvarez",
        "zoë álvarez",
        "Carl Bauer",
        "Ed Ng",
        "Émile Östlund",
        "Bruno Zapata",
    ]


NAMES = ["Zoë Álvarez", "Bruno Zapata", "Carl Bauer", "ana bauer", "Émile Östlund"]


def test_printed_pairings_by_name_sort_by_surname_and_show_table_name_and_opponent(
    client, organiser
):
    ev = factories.event_with_players(5, by=organiser)
    regs = list(ev.registrations.select_related("player").order_by("pk"))
    for reg, name in zip(regs, NAMES, strict=True):
        reg.player.name = name
        reg.player.save(update_fields=["name"])
    rnd = services.round_create(
        event=ev,
        group=factories.group_row(ev, "open"),
        number=1,
        phase=Phase.SWISS,
        by=organiser,
        # Álvarez v Zapata at table 1, Bauer v Bauer at table 2, Östlund has the bye
        tables=[(1, regs[0:2], ""), (2, regs[2:4], ""), (None, regs[4:5], "")],
    )
    services.round_publish(round=rnd, by=organiser)
    client.force_login(organiser)
    html = client.get(reverse("staff:print_pairings", args=[ev.slug, rnd.pk])).content.decode()
    lines = re.findall(
        r'<li><span class="t">([^<]*)</span> <span class="n"><bdi>(.*?)</bdi></span> '
        r'<span class="o">(.*?)</span></li>',
        html,
    )
    assert lines == [
        ("1", "<strong>Álvarez</strong>, Zoë", "vs <bdi>Bruno Zapata</bdi>"),
        ("2", "<strong>bauer</strong>, ana", "vs <bdi>Carl Bauer</bdi>"),
        ("2", "<strong>Bauer</strong>, Carl", "vs <bdi>ana bauer</bdi>"),
        ("–", "<strong>Östlund</strong>, Émile", "Bye"),
        ("1", "<strong>Zapata</strong>, Bruno", "vs <bdi>Zoë Álvarez</bdi>"),
    ]
    spanish = client.get(
        reverse("staff:print_pairings", args=[ev.slug, rnd.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert '<span class="o">contra <bdi>Bruno Zapata</bdi></span>' in spanish


# --- 3. the audit page in pages -------------------------------------------------------------


def add_audit_rows(event, n: int, *, round_number: int | None = None) -> list[AuditEvent]:
    """``n`` audit rows a second apart, the last the newest; ``reason`` numbers them."""
    start = timezone.now()  # after the event was created (its "event.create" row)
    rows = AuditEvent.objects.bulk_create(
        AuditEvent(
            event=event,
            action="note.test",
            object_type="event",
            object_id=str(event.pk),
            round_number=round_number,
            reason=f"row {i:03d}",
        )
        for i in range(n)
    )
    for i, row in enumerate(rows):  # ``at`` is auto_now_add: set it afterwards
        AuditEvent.objects.filter(pk=row.pk).update(at=start + dt.timedelta(seconds=i))
    return rows


def audit(client, event, **params) -> str:
    response = client.get(reverse("staff:audit", args=[event.slug]), params)
    assert response.status_code == 200
    return response.content.decode()


def reasons(html: str) -> list[str]:
    return re.findall(r'<td class="reason" data-label="Reason">(row \d+)</td>', html)


def test_the_audit_page_shows_100_rows_a_page_newest_first_with_page_links(
    client, event, organiser
):
    add_audit_rows(event, 250, round_number=2)
    client.force_login(organiser)
    first = audit(client, event)
    assert AUDIT_PAGE_ROWS == 100
    assert reasons(first) == [f"row {i:03d}" for i in range(249, 149, -1)]
    assert "Page 1 of 3" in first and "Older" in first and ">Newer<" not in first
    assert "Rows 1–100 of 251, newest first; the CSV has them all." in first  # + event.create
    third = audit(client, event, page=3)
    assert reasons(third) == [f"row {i:03d}" for i in range(49, -1, -1)]
    assert "Rows 201–251 of 251" in third and ">Older<" not in third
    assert 'href="?page=2" rel="prev"' in third and 'href="?page=1">Newest<' in third


def test_audit_page_links_keep_the_filters_and_the_csv_link_drops_the_page(client, organiser):
    event = factories.event(by=organiser)  # its "event.create" row is the organiser's
    add_audit_rows(event, 120)  # the system's
    client.force_login(organiser)
    html = audit(client, event, person="system")
    assert len(reasons(html)) == 100 and "Rows 1–100 of 120," in html
    assert 'href="?person=system&amp;page=2" rel="next"' in html
    second = audit(client, event, person="system", page=2)
    assert reasons(second) == [f"row {i:03d}" for i in range(19, -1, -1)]
    assert 'href="?person=system&amp;page=1" rel="prev"' in second
    csv = reverse("staff:audit_csv", args=[event.slug])
    assert f'href="{csv}?person=system"' in second


@pytest.mark.parametrize(("asked", "shown"), [("9", 2), ("0", 1), ("two", 1)])
def test_a_page_that_does_not_exist_shows_the_nearest_and_says_so(client, organiser, asked, shown):
    event = factories.event(by=organiser)
    add_audit_rows(event, 150)
    before = AuditEvent.objects.count()
    client.force_login(organiser)
    html = audit(client, event, page=asked)
    assert f"There is no page {asked}: this is page {shown} of 2." in html
    assert f"Page {shown} of 2" in html
    assert AuditEvent.objects.count() == before  # a GET changes nothing


def test_a_short_audit_trail_has_no_page_links(client, organiser):
    event = factories.event(by=organiser)
    client.force_login(organiser)
    html = audit(client, event)
    assert 'class="pager"' not in html and "Rows 1–1 of 1" in html  # event.create


# --- 5. a complete round's staff clock -----------------------------------------------------


def test_a_complete_round_clock_stops_at_its_completion(client):
    organiser = factories.user("org")
    ev = factories.event_with_players(4, by=organiser)  # Pokémon: 50-minute Swiss rounds
    rnd = factories.round_in_order(ev, by=organiser)
    for match in rnd.matches.all():
        first = match.seats.order_by("seat").first().registration
        services.slip_enter(match=match, result=Result.win(first), by=organiser)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE
    started = timezone.now() - dt.timedelta(hours=3)
    Round.objects.filter(pk=rnd.pk).update(
        started_at=started, completed_at=started + dt.timedelta(minutes=37, seconds=26)
    )
    rnd.refresh_from_db()
    clock = clock_for_staff(rnd, timezone.now())
    assert clock.complete and clock.clock.elapsed == 37 * 60 + 26
    assert clock.text == "12:34"  # 50 − 37:26, not two hours over time
    client.force_login(organiser)
    html = client.get(f"/e/{ev.slug}/staff/rounds/{rnd.pk}/").content.decode()
    panel = html[html.index('id="round-clock"') :]
    panel = panel[: panel.index("</section>")]
    assert 'class="clock-label">Round complete</small>' in panel
    assert '<time class="clock-value">12:34</time>' in panel
    assert "data-complete" in panel and "data-started-ms" not in panel
    assert "Pause clock" not in panel and "+1 min" not in panel
    spanish = client.get(
        f"/e/{ev.slug}/staff/rounds/{rnd.pk}/", HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert 'class="clock-label">Ronda completa</small>' in spanish


def test_a_started_round_clock_still_counts(client):
    organiser = factories.user("org")
    ev = factories.event_with_players(4, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser)
    rnd.refresh_from_db()
    clock = clock_for_staff(rnd, timezone.now())
    assert not clock.complete and clock.clock.label == "Round time"
    client.force_login(organiser)
    html = client.get(f"/e/{ev.slug}/staff/rounds/{rnd.pk}/").content.decode()
    assert "data-started-ms" in html and "data-complete" not in html


# --- 6. the "Refresh" link -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "clean"),
    [
        ("/e/x/pairings/?by=name&live=public-17", "/e/x/pairings/?by=name"),
        ("/e/x/?live=public-3", "/e/x/"),
        (
            "/e/x/pairings/?q=t%C3%B3mas&live=public-2&by=name",
            "/e/x/pairings/?q=t%C3%B3mas&by=name",
        ),
        ("/e/x/standings/", "/e/x/standings/"),
    ],
)
def test_page_url_drops_only_the_live_parameter(path, clean):
    assert page_url(RequestFactory().get(path)) == clean


def test_the_refresh_link_of_a_refreshed_public_page_has_no_live_parameter(client, organiser):
    ev = factories.event_with_players(4, by=organiser)
    factories.round_in_order(ev, by=organiser)
    for path, clean in [
        (f"/e/{ev.slug}/?live=public-5", f"/e/{ev.slug}/"),
        (f"/e/{ev.slug}/pairings/?by=name&live=public-5", f"/e/{ev.slug}/pairings/?by=name"),
        (f"/e/{ev.slug}/standings/?live=public-5", f"/e/{ev.slug}/standings/"),
    ]:
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            html = client.get(path, **headers).content.decode()
            note = re.search(r'<p class="live-note">.*?</p>', html, re.S)
            assert note, (path, headers)
            assert f'<a href="{clean}">Refresh</a>' in note.group(0), (path, note.group(0))
