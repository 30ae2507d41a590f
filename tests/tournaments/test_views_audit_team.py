"""The audit page (filters, CSV) and the organiser's staff page (invite, remove,
settings)."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests import factories
from tournaments import services
from tournaments.models import AuditEvent, EventStaff, SelfReportMode, StaffRole
from tournaments.services import Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(event8, organiser):
    """Round 1 started: table 1 entered by the organiser, table 2 reported by its players."""
    regs = list(event8.registrations.order_by("pk"))
    rnd = factories.round_in_order(event8, by=organiser)
    services.slip_enter(match=rnd.matches.get(table=1), result=Result.win(regs[0]), by=organiser)
    t2 = rnd.matches.get(table=2)
    for reg in regs[2:4]:
        services.report_submit(match=t2, registration=reg, result=Result.draw())
    return regs


def audit_page(client, event, **params):
    return client.get(reverse("staff:audit", args=[event.slug]), params).content.decode()


def test_audit_page_filters_by_round_player_and_person(client, event8, organiser, played):
    client.force_login(organiser)
    everything = audit_page(client, event8)
    assert "event.create" in everything and "result.enter" in everything
    round_1 = audit_page(client, event8, round=1)
    assert "event.create" not in round_1 and "round.started" in round_1
    player_3 = audit_page(client, event8, player=played[2].pk)
    assert "report.submit" in player_3 and "Player 003 (player link)" in player_3
    assert "table 1" not in player_3  # the organiser's slip of table 1 is not about them
    by_player = audit_page(client, event8, person=f"p:{played[3].pk}")
    assert "result.enter" in by_player and "round.started" not in by_player
    by_organiser = audit_page(client, event8, person=f"u:{organiser.pk}")
    assert "report.submit" not in by_organiser and "winner: Player 001" in by_organiser


def test_audit_csv_has_every_matching_row(client, event8, organiser, played):
    client.force_login(organiser)
    response = client.get(reverse("staff:audit_csv", args=[event8.slug]), {"round": 1})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == AuditEvent.objects.filter(event=event8, round_number=1).count()
    entered = next(r for r in rows if r["action"] == "result.enter" and r["who"] == "organiser")
    assert entered["object"] == "table 1"
    assert set(entered["old"].split("; ")) == {"outcome: pending", "winner: —"}


def test_organiser_invites_staff_by_username_or_email_and_removes_them(client, event8, organiser):
    factories.user("sam", email="Sam@Example.org")
    factories.user("jude")
    client.force_login(organiser)
    url = reverse("staff:team_invite", args=[event8.slug])
    client.post(url, {"who": "sam@example.org", "role": "scorekeeper"})
    client.post(url, {"who": "JUDE", "role": "judge"})
    roles = set(EventStaff.objects.filter(event=event8).values_list("user__username", "role"))
    assert {("sam", "scorekeeper"), ("jude", "judge"), ("organiser", "organiser")} == roles
    body = client.post(url, {"who": "nobody", "role": "judge"}).content.decode()
    assert "No account has the username or e-mail" in body
    judge = EventStaff.objects.get(event=event8, role=StaffRole.JUDGE)
    client.post(reverse("staff:team_remove", args=[event8.slug, judge.pk]))
    assert not EventStaff.objects.filter(pk=judge.pk).exists()
    assert AuditEvent.objects.get(action="staff.remove").old == {"user": "jude", "role": "judge"}


def test_the_last_organiser_cannot_be_removed(client, event8, organiser):
    client.force_login(organiser)
    me = EventStaff.objects.get(event=event8, user=organiser)
    response = client.post(reverse("staff:team_remove", args=[event8.slug, me.pk]), follow=True)
    assert "keeps at least one organiser" in response.content.decode()
    assert EventStaff.objects.filter(pk=me.pk).exists()


def test_organiser_sets_agreed_results_to_wait_for_a_staff_click(client, event8, organiser):
    client.force_login(organiser)
    client.post(reverse("staff:event_settings", args=[event8.slug]), {"self_report": "hold"})
    event8.refresh_from_db()
    assert event8.self_report == SelfReportMode.HOLD
    assert AuditEvent.objects.get(action="event.settings").old == {"self_report": "accept"}


def test_a_judge_lands_on_the_disputes_page_from_the_home_page(client, event8):
    judge = factories.staff(event8, StaffRole.JUDGE)
    client.force_login(judge)
    body = client.get(reverse("home")).content.decode()
    assert reverse("staff:disputes", args=[event8.slug]) in body
    assert f'href="{reverse("staff:dashboard", args=[event8.slug])}"' not in body
