"""Who may open the staff pages: a matrix of roles × every staff URL.

Organisers and scorekeepers operate the event (players, pairing, slips, standings,
printing). Judges correct results and note penalties, with organisers. Every staff role
sees the disputes queue and the audit trail; only organisers manage staff and settings.
Everyone else signed in gets 403; anonymous visitors — including a player who arrived
through their private link, which is no staff login — are sent to the login page.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournaments.models import BackgroundRun, EventStaff, RoundStatus, StaffRole

LOGIN = "login"
ROLES = [
    "organiser",
    "scorekeeper",
    "judge",
    "other_event_staff",
    "player",  # signed in, no role at this event
    "private_link",  # a player's private link, no account
    "anonymous",
]
OPERATE = {"organiser", "scorekeeper"}
CORRECT = {"organiser", "judge"}
ALL_STAFF = {"organiser", "scorekeeper", "judge"}
MANAGE = {"organiser"}

# Staff of the event who may not use a page but are sent elsewhere instead of a 403:
# the staff entry page takes judges to their desk.
REDIRECTED = {("staff:dashboard", "judge"): "staff:disputes"}

# (url name, method, kwargs built from the fixture's objects, who may, status when allowed)
STAFF_URLS = [
    ("staff:dashboard", "get", (), OPERATE, 200),
    ("staff:players", "get", (), OPERATE, 200),
    ("staff:player_add", "post", (), OPERATE, 200),
    ("staff:players_import", "post", (), OPERATE, 200),
    ("staff:player_drop", "get", ("registration_id",), OPERATE, 200),  # the question
    ("staff:player_drop", "post", ("registration_id",), OPERATE, 200),  # no confirmation
    ("staff:player_link", "get", ("registration_id",), OPERATE, 200),
    ("staff:player_link_reset", "post", ("registration_id",), OPERATE, 302),
    ("staff:pair", "post", (), OPERATE, 302),
    ("staff:run", "get", ("run_id",), OPERATE, 200),
    ("staff:round", "get", ("round_id",), OPERATE, 200),
    ("staff:round_publish", "post", ("round_id",), OPERATE, 302),
    ("staff:round_start", "post", ("round_id",), OPERATE, 302),
    ("staff:round_discard", "post", ("round_id",), OPERATE, 302),
    ("staff:round_swap", "post", ("round_id",), OPERATE, 302),  # an empty form: a message
    ("staff:round_undo_last", "post", ("round_id",), OPERATE, 302),  # an empty form
    ("staff:round_undo_last", "get", ("round_id",), OPERATE, 302),  # no table: a message
    ("staff:print_pairings", "get", ("round_id",), OPERATE, 200),
    ("staff:print_slips", "get", ("round_id",), OPERATE, 200),
    ("staff:round_repair", "get", ("round_id",), OPERATE, 200),
    ("staff:round_repair", "post", ("round_id",), OPERATE, 302),
    ("staff:match_result", "post", ("match_id",), OPERATE, 302),
    ("staff:standings", "get", (), OPERATE, 200),
    ("staff:print_standings", "get", (), OPERATE, 200),
    ("staff:disputes", "get", (), ALL_STAFF, 200),
    ("staff:report_accept", "post", ("match_id",), ALL_STAFF, 302),
    ("staff:dispute_resolve", "post", ("match_id",), ALL_STAFF, 302),
    ("staff:audit", "get", (), ALL_STAFF, 200),
    ("staff:audit_csv", "get", (), ALL_STAFF, 200),
    ("staff:corrections", "get", (), CORRECT, 200),
    ("staff:result_correct", "post", ("match_id",), CORRECT, 302),
    ("staff:penalties", "get", (), CORRECT, 200),
    ("staff:penalties", "post", (), CORRECT, 200),
    ("staff:player_disqualify", "post", ("registration_id",), CORRECT, 200),  # no confirmation
    ("staff:player", "get", ("registration_id",), OPERATE, 200),
    ("staff:player", "post", ("registration_id",), OPERATE, 200),  # an empty form: errors
    ("staff:event_edit", "get", (), MANAGE, 200),
    ("staff:event_edit", "post", (), MANAGE, 200),
    ("staff:disqualify", "post", (), CORRECT, 302),
    ("staff:decklists", "get", (), ALL_STAFF, 200),
    ("staff:decklist_record", "post", ("registration_id",), ALL_STAFF, 302),
    ("staff:deck_check", "post", (), ALL_STAFF, 302),
    ("staff:decklist_read", "get", ("registration_id",), ALL_STAFF, 200),
    ("staff:decklist_reopen", "post", ("registration_id",), ALL_STAFF, 302),
    ("staff:decklist_deadline", "post", (), ALL_STAFF, 302),
    ("staff:decklist_settings", "post", (), MANAGE, 302),  # an empty form: a message
    ("staff:team", "get", (), MANAGE, 200),
    ("staff:team_invite", "post", (), MANAGE, 200),
    ("staff:team_remove", "post", ("staff_id",), MANAGE, 302),
    ("staff:event_settings", "post", (), MANAGE, 200),  # an empty form: errors
    ("staff:event_listing", "post", (), MANAGE, 302),  # an empty form, a message
    ("staff:event_delete", "post", (), MANAGE, 302),  # an empty form, a message
]


@pytest.fixture
def setting(event8, organiser):
    """An 8-player event with a started round 1 and a pairing run, plus one user per role."""
    regs = list(event8.registrations.order_by("pk"))
    rnd = factories.round_in_order(event8, by=organiser, status=RoundStatus.PAIRED, why="test")
    other = factories.event(by=factories.user("other-organiser"), name="Other Cup")
    users = {
        "organiser": organiser,
        "scorekeeper": factories.staff(event8, StaffRole.SCOREKEEPER),
        "judge": factories.staff(event8, StaffRole.JUDGE),
        "other_event_staff": factories.staff(other, StaffRole.ORGANISER, username="other-staff"),
        "player": factories.user("player"),
        "private_link": None,
        "anonymous": None,
    }
    ids = {
        "registration_id": regs[0].pk,
        "run_id": BackgroundRun.objects.create(event=event8, kind="pairing", group="open").pk,
        "round_id": rnd.pk,
        "match_id": rnd.matches.order_by("table").first().pk,
        "staff_id": EventStaff.objects.get(event=event8, role=StaffRole.SCOREKEEPER).pk,
    }
    links = {"private_link": reverse("public:player", args=[event8.slug, regs[1].report_token])}
    return event8, users, ids, links


def _as(client, setting, role):
    event, users, _, links = setting
    if users[role] is not None:
        client.force_login(users[role])
    if role == "private_link":
        assert client.get(links[role]).status_code == 200


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "method", "params", "allowed", "status"), STAFF_URLS)
def test_staff_urls_answer_each_role(client, setting, role, name, method, params, allowed, status):
    event, _, ids, _ = setting
    _as(client, setting, role)
    url = reverse(name, kwargs={"slug": event.slug, **{p: ids[p] for p in params}})
    response = getattr(client, method)(url)
    if role in ("anonymous", "private_link"):
        assert response.status_code == 302
        assert response.url.startswith(reverse("login") + "?next=")
    elif (name, role) in REDIRECTED:
        assert response.status_code == 302
        assert response.url == reverse(REDIRECTED[name, role], args=[event.slug])
    elif role not in allowed:
        assert response.status_code == 403
    else:
        assert response.status_code == status
        if status == 302:
            assert not response.url.startswith(reverse("login"))


def test_forbidden_page_says_who_may_operate(client, setting):
    event, users, _, _ = setting
    client.force_login(users["judge"])
    response = client.get(reverse("staff:players", args=[event.slug]))
    assert response.status_code == 403
    assert "organisers and scorekeepers" in response.content.decode()


def test_a_judge_entering_the_staff_pages_lands_on_the_judges_desk(client, setting):
    event, users, _, _ = setting
    client.force_login(users["judge"])
    response = client.get(reverse("staff:dashboard", args=[event.slug]), follow=True)
    assert response.redirect_chain == [(reverse("staff:disputes", args=[event.slug]), 302)]
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("role", "shown", "hidden"),
    [
        ("organiser", ["Dashboard", "Disputes", "Corrections", "Audit", "Staff"], []),
        ("scorekeeper", ["Dashboard", "Players", "Disputes", "Audit"], ["Corrections", "Staff"]),
        ("judge", ["Disputes", "Corrections", "Penalties", "Audit"], ["Dashboard", "Players"]),
    ],
)
def test_staff_tabs_show_only_the_pages_of_the_role(client, setting, role, shown, hidden):
    event, users, _, _ = setting
    client.force_login(users[role])
    body = client.get(reverse("staff:disputes", args=[event.slug])).content.decode()
    tabs = body.split('aria-label="Staff pages"')[1].split("</nav>")[0]
    for label in shown:
        assert f">{label}</a>" in tabs
    for label in hidden:
        assert f">{label}</a>" not in tabs


def test_htmx_request_of_an_anonymous_visitor_redirects_the_whole_window(client, setting):
    event, _, ids, _ = setting
    url = reverse("staff:match_result", args=[event.slug, ids["match_id"]])
    response = client.post(url, {"result": "p1", "version": 0}, headers={"HX-Request": "true"})
    assert response.headers["HX-Redirect"].startswith(reverse("login"))


def test_a_match_of_another_event_is_not_found_from_this_event(client, setting, organiser):
    event, _, ids, _ = setting
    other = factories.event(by=organiser, name="Second Cup")
    client.force_login(organiser)
    response = client.get(reverse("staff:round", args=[other.slug, ids["round_id"]]))
    assert response.status_code == 404
    response = client.post(reverse("staff:result_correct", args=[other.slug, ids["match_id"]]))
    assert response.status_code == 404


def test_a_private_link_opens_only_its_own_event_and_an_unknown_token_is_404(client, setting):
    event, _, _, links = setting
    assert client.get(links["private_link"]).status_code == 200
    token = links["private_link"].rstrip("/").rsplit("/", 1)[1]
    other = factories.event(by=factories.user("third"), name="Third Cup")
    assert client.get(reverse("public:player", args=[other.slug, token])).status_code == 404
    assert client.get(reverse("public:player", args=[event.slug, "x" * 32])).status_code == 404
