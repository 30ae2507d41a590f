"""Who may open the staff pages: a matrix of roles × every staff URL.

Organisers and scorekeepers operate the event. Judges are event staff but do not operate
it in this release (their correction pages come later), so they get 403 like a signed-in
player or the staff of another event. Anonymous visitors are sent to the login page.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournaments import services
from tournaments.models import BackgroundRun, Phase, StaffRole

ALLOWED, FORBIDDEN, LOGIN = "allowed", "forbidden", "login"

ROLES = {
    "organiser": ALLOWED,
    "scorekeeper": ALLOWED,
    "judge": FORBIDDEN,
    "other_event_staff": FORBIDDEN,
    "player": FORBIDDEN,
    "anonymous": LOGIN,
}

# (url name, method, kwargs built from the fixture's objects)
STAFF_URLS = [
    ("staff:dashboard", "get", ()),
    ("staff:players", "get", ()),
    ("staff:player_add", "post", ()),
    ("staff:players_import", "post", ()),
    ("staff:player_drop", "post", ("registration_id",)),
    ("staff:pair", "post", ()),
    ("staff:run", "get", ("run_id",)),
    ("staff:round", "get", ("round_id",)),
    ("staff:round_publish", "post", ("round_id",)),
    ("staff:round_start", "post", ("round_id",)),
    ("staff:match_result", "post", ("match_id",)),
    ("staff:standings", "get", ()),
]


@pytest.fixture
def setting(event8, organiser):
    """An 8-player event with a started round 1 and a pairing run, plus one user per role."""
    regs = list(event8.registrations.order_by("pk"))
    tables = [(i + 1, regs[2 * i : 2 * i + 2], "test") for i in range(4)]
    rnd = services.round_create(
        event=event8, pod="open", number=1, phase=Phase.SWISS, tables=tables, by=organiser
    )
    other = factories.event(by=factories.user("other-organiser"), name="Other Cup")
    users = {
        "organiser": organiser,
        "scorekeeper": factories.staff(event8, StaffRole.SCOREKEEPER),
        "judge": factories.staff(event8, StaffRole.JUDGE),
        "other_event_staff": factories.staff(other, StaffRole.ORGANISER, username="other-staff"),
        "player": factories.user("player"),
        "anonymous": None,
    }
    ids = {
        "registration_id": regs[0].pk,
        "run_id": BackgroundRun.objects.create(event=event8, kind="pairing", pod="open").pk,
        "round_id": rnd.pk,
        "match_id": rnd.matches.order_by("table").first().pk,
    }
    return event8, users, ids


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "method", "params"), STAFF_URLS)
def test_staff_urls_answer_each_role(client, setting, role, name, method, params):
    event, users, ids = setting
    if users[role] is not None:
        client.force_login(users[role])
    url = reverse(name, kwargs={"slug": event.slug, **{p: ids[p] for p in params}})
    response = getattr(client, method)(url)
    expected = ROLES[role]
    if expected == LOGIN:
        assert response.status_code == 302
        assert response.url.startswith(reverse("login") + "?next=")
    elif expected == FORBIDDEN:
        assert response.status_code == 403
    else:
        assert response.status_code in (200, 302, 409, 422)
        if response.status_code == 302:
            assert not response.url.startswith(reverse("login"))


def test_forbidden_page_says_who_may_operate(client, setting):
    event, users, _ = setting
    client.force_login(users["judge"])
    response = client.get(reverse("staff:dashboard", args=[event.slug]))
    assert response.status_code == 403
    assert "organisers and scorekeepers" in response.content.decode()


def test_htmx_request_of_an_anonymous_visitor_redirects_the_whole_window(client, setting):
    event, _, ids = setting
    url = reverse("staff:match_result", args=[event.slug, ids["match_id"]])
    response = client.post(url, {"result": "p1", "version": 0}, headers={"HX-Request": "true"})
    assert response.headers["HX-Redirect"].startswith(reverse("login"))


def test_a_match_of_another_event_is_not_found_from_this_event(client, setting, organiser):
    event, _, ids = setting
    other = factories.event(by=organiser, name="Second Cup")
    client.force_login(organiser)
    response = client.get(reverse("staff:round", args=[other.slug, ids["round_id"]]))
    assert response.status_code == 404
