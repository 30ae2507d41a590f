"""Offline entry, server side (tournaments.views.offline, static/js/offline.js): the
worker and the player's app manifest, the pages' offline settings in both languages,
and what the server answers a slip or report sent late, as offline.js sends it (HTMX
headers, the CSRF token of the moment in ``X-CSRFToken``): the same result again is
recorded once, a different result recorded meanwhile is a conflict that changes
nothing. The browser side is tests/browser/test_offline.py."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests import factories
from tournaments import services
from tournaments.models import AuditEvent, Match, Outcome, SelfReport, StaffRole
from tournaments.offline import offline_config, worker_scope
from tournaments.views.offline import ASSETS

pytestmark = pytest.mark.django_db


def _config(html: str) -> dict:
    found = re.search(r'<script id="offline-config" type="application/json">(.*?)</script>', html)
    assert found, "the page carries its offline settings"
    return json.loads(found.group(1))


def _csrf_client(user=None) -> Client:
    """A client that checks CSRF as browsers are checked."""
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def _late(client: Client, url: str, data: dict) -> object:
    """Post as offline.js sends a waiting entry: HTMX headers, the token from the cookie."""
    token = client.cookies["csrftoken"].value
    return client.post(url, data, headers={"HX-Request": "true", "X-CSRFToken": token})


def _enters(match: Match) -> int:
    return AuditEvent.objects.filter(
        action__in=("result.enter", "result.correct"), object_id=str(match.pk)
    ).count()


def test_the_worker_is_served_at_e_and_controls_every_event_page(client):
    url = reverse("public:service_worker")
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    first = json.loads(text.splitlines()[0].removeprefix("var MATCHSLIP = ").removesuffix(";"))
    assert first["static"] == "/static/" and len(first["version"]) == 16
    assert first["assets"] == [f"/static/{path}" for path in ASSETS]
    assert all(finders.find(path) for path in ASSETS)
    assert 'addEventListener("fetch"' in text
    # its folder is /e/: every event's staff pages and private links, no extra header
    assert url == "/e/service-worker.js" and worker_scope() == "/e/"
    assert "Service-Worker-Allowed" not in response
    again = client.get(url, headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304


def test_the_player_page_is_installable_as_their_own_app(client):
    event, _rnd, regs = factories.started_round(4)
    reg = regs[0]
    page = reverse("public:player", args=[event.slug, reg.report_token])
    html = client.get(page).content.decode()
    manifest_url = reverse("public:player_manifest", args=[event.slug, reg.report_token])
    assert f'<link rel="manifest" href="{manifest_url}">' in html
    response = client.get(manifest_url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert response["Cache-Control"] == "private, no-store"
    data = response.json()
    assert data["start_url"] == page and data["id"] == page
    assert data["scope"] == f"/e/{event.slug}/" and data["display"] == "standalone"
    assert data["name"] == event.name
    sizes = {(i["sizes"], i["purpose"]) for i in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in data["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]
    spanish = client.get(manifest_url, headers={"Accept-Language": "es"}).json()
    assert spanish["lang"] == "es" and spanish["description"].startswith("Tu mesa")
    unknown = reverse("public:player_manifest", args=[event.slug, "not-a-token"])
    assert client.get(unknown).status_code == 404


def test_the_round_page_and_the_player_page_carry_their_offline_settings(client, organiser):
    event, rnd, regs = factories.started_round(4, username="org2")
    staff = factories.staff(event, StaffRole.SCOREKEEPER, username="sam")
    client.force_login(staff)
    html = client.get(reverse("staff:round", args=[event.slug, rnd.pk])).content.decode()
    config = _config(html)
    assert config["kind"] == "staff" and config["queue"] == f"staff:{event.slug}"
    assert config["worker"] == "/e/service-worker.js" and config["scope"] == "/e/"
    assert "script-src 'self'" in config["csp"]
    assert html.count('data-offline="Table 1"') == 1 and 'data-offline="Table 2"' in html
    assert "/static/js/offline.js" in html and "idb-keyval.umd.js" in html
    player = Client().get(reverse("public:player", args=[event.slug, regs[0].report_token]))
    config = _config(player.content.decode())
    assert config["kind"] == "player"
    assert config["queue"] == f"player:{event.slug}:{regs[0].report_token}"
    assert 'data-offline=""' in player.content.decode()


@pytest.mark.parametrize("kind", ["staff", "player"])
def test_every_offline_text_is_in_spanish_too(kind):
    event, _rnd, regs = factories.started_round(4)
    english = offline_config(kind, event, regs[0])["texts"]
    with translation.override("es"):
        spanish = offline_config(kind, event, regs[0])["texts"]
    assert english.keys() == spanish.keys()
    untranslated = [key for key in english if english[key] == spanish[key]]
    assert untranslated == []
    for key, text in english.items():  # the same placeholders, for the script to fill
        assert set(re.findall(r"%\((\w+)\)s", text)) == set(
            re.findall(r"%\((\w+)\)s", spanish[key])
        ), key
    assert spanish["offline_since"] == "Sin conexión desde las %(time)s."


def test_a_slip_sent_again_late_is_recorded_once():
    """A waiting slip may be sent twice (its first answer lost with the connection): the
    second finds the same result recorded and changes nothing (slip_enter)."""
    event, rnd, regs = factories.started_round(4)
    staff = factories.staff(event, StaffRole.SCOREKEEPER, username="sam")
    client = _csrf_client(staff)
    client.get(reverse("staff:round", args=[event.slug, rnd.pk]))  # the CSRF cookie
    match = Match.objects.get(round=rnd, table=1)
    url = reverse("staff:match_result", args=[event.slug, match.pk])
    for _ in range(2):
        response = _late(client, url, {"result": "p1", "version": 0})
        assert response.status_code == 200
        assert "data-recorded>Player 001 wins<" in response.content.decode()
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.version) == (Outcome.WIN, regs[0].pk, 1)
    assert _enters(match) == 1


def test_a_late_slip_matching_a_result_recorded_meanwhile_is_accepted_as_is():
    event, rnd, regs = factories.started_round(4)
    staff = factories.staff(event, StaffRole.SCOREKEEPER, username="sam")
    match = Match.objects.get(round=rnd, table=1)
    services.slip_enter(match=match, result=services.Result.win(regs[0]), by=staff)
    client = _csrf_client(staff)
    client.get(reverse("staff:round", args=[event.slug, rnd.pk]))
    url = reverse("staff:match_result", args=[event.slug, match.pk])
    assert _late(client, url, {"result": "p1", "version": 0}).status_code == 200
    match.refresh_from_db()
    assert match.version == 1 and _enters(match) == 1


def test_a_late_slip_differing_from_a_result_recorded_meanwhile_changes_nothing():
    """The page knew version 0; another scorekeeper recorded the other player's win
    meanwhile: 409, the row shows the recorded result, the match is untouched."""
    event, rnd, regs = factories.started_round(4)
    staff = factories.staff(event, StaffRole.SCOREKEEPER, username="sam")
    other = factories.staff(event, StaffRole.SCOREKEEPER, username="kim")
    match = Match.objects.get(round=rnd, table=1)
    services.slip_enter(match=match, result=services.Result.win(regs[1]), by=other)
    client = _csrf_client(staff)
    client.get(reverse("staff:round", args=[event.slug, rnd.pk]))
    url = reverse("staff:match_result", args=[event.slug, match.pk])
    response = _late(client, url, {"result": "p1", "version": 0})
    assert response.status_code == 409
    body = response.content.decode()
    assert "data-recorded>Player 002 wins<" in body
    assert "This match was just recorded as Player 002 wins." in body
    match.refresh_from_db()
    assert (match.winner_id, match.version) == (regs[1].pk, 1)
    assert _enters(match) == 1


def test_a_late_report_counts_once_and_a_recorded_result_refuses_a_different_one():
    event, rnd, regs = factories.started_round(4)
    client = _csrf_client()
    page = reverse("public:player", args=[event.slug, regs[0].report_token])
    client.get(page)  # the CSRF cookie
    url = reverse("public:player_report", args=[event.slug, regs[0].report_token])
    match = Match.objects.get(round=rnd, table=1)
    for _ in range(2):
        response = _late(client, url, {"match": match.pk, "result": "me"})
        assert response.status_code == 200
    assert SelfReport.objects.filter(match=match).count() == 1
    assert AuditEvent.objects.filter(action="report.submit", object_id=str(match.pk)).count() == 1

    table2 = Match.objects.get(round=rnd, table=2)
    staff = factories.staff(event, StaffRole.SCOREKEEPER, username="sam")
    services.slip_enter(match=table2, result=services.Result.win(regs[3]), by=staff)
    client = _csrf_client()
    client.get(reverse("public:player", args=[event.slug, regs[2].report_token]))
    url = reverse("public:player_report", args=[event.slug, regs[2].report_token])
    response = _late(client, url, {"match": table2.pk, "result": "me"})
    assert response.status_code == 422
    assert "data-recorded>Player 004 wins<" in response.content.decode()
    table2.refresh_from_db()
    assert (table2.winner_id, table2.version) == (regs[3].pk, 1)
    assert not SelfReport.objects.filter(match=table2).exists()
