"""Venue mode in the pages (``tournaments.venue``): with ``VENUE_URL`` set (``manage.py
venue`` sets it), every QR code and printed link names the laptop's LAN address, whatever
address the staff's own browser used; the staff page "QR code of the event" shows it for
the door and the projector. Without it, the request's own address."""

from __future__ import annotations

import ipaddress

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests import factories
from tournaments.qr import qr_svg
from tournaments.venue import lan_address, venue_hosts, venue_url

pytestmark = pytest.mark.django_db

LAN = "http://192.168.1.20:8000"


@pytest.fixture
def staff_client(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def test_the_venue_sign_shows_the_qr_code_of_the_lan_address_in_venue_mode(
    settings, staff_client, event8
):
    settings.VENUE_URL = LAN
    page = staff_client.get(reverse("staff:venue_sign", args=[event8.slug]))
    assert page.status_code == 200
    url = f"{LAN}/e/{event8.slug}/"
    html = page.content.decode()
    assert qr_svg(url, title="The event on your phone") in html
    assert f'<a href="{url}" id="venue-url">{url}</a>' in html
    assert 'id="venue-mode-off"' not in html


def test_without_venue_mode_the_sign_shows_the_address_the_page_was_opened_at(staff_client, event8):
    page = staff_client.get(reverse("staff:venue_sign", args=[event8.slug]))
    url = f"http://testserver/e/{event8.slug}/"
    assert qr_svg(url, title="The event on your phone") in page.content.decode()
    assert 'id="venue-mode-off"' in page.content.decode()


def test_the_venue_sign_is_for_the_events_operators(event8):
    client = Client()
    client.force_login(factories.user("outsider"))
    assert client.get(reverse("staff:venue_sign", args=[event8.slug])).status_code == 403


def test_in_venue_mode_the_door_sign_slips_and_projector_name_the_lan_address(settings):
    settings.VENUE_URL = LAN
    ev, rnd, regs = factories.started_round(4, username="org")
    client = Client()
    client.force_login(get_user_model().objects.get(username="org"))
    door = client.get(reverse("staff:checkin_door", args=[ev.slug])).content.decode()
    assert f"{LAN}/e/{ev.slug}/checkin/" in door
    slips = client.get(reverse("staff:print_slips", args=[ev.slug, rnd.pk])).content.decode()
    assert f"{LAN}/e/{ev.slug}/p/{regs[0].report_token}/" in slips
    projector = client.get(reverse("public:timer", args=[ev.slug])).content.decode()
    assert f"{LAN}/e/{ev.slug}/pairings/" in projector


def test_the_lan_address_is_an_ipv4_address_of_this_computer():
    address = ipaddress.ip_address(lan_address())
    assert address.version == 4 and not address.is_unspecified


def test_the_venue_answers_to_its_address_host_name_and_this_computers_own():
    hosts = venue_hosts("192.168.1.20", ["events.example.org", "localhost"])
    assert hosts[0] == "192.168.1.20"
    assert {"127.0.0.1", "localhost", "[::1]", "events.example.org"} <= set(hosts)
    assert any(h.endswith(".local") for h in hosts)
    assert len(hosts) == len(set(hosts))
    assert venue_hosts("fe80::1")[0] == "[fe80::1]"
    assert venue_url("192.168.1.20", 8000) == "http://192.168.1.20:8000"
    assert venue_url("fe80::1", 80) == "http://[fe80::1]:80"
