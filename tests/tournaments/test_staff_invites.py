"""Staff accounts: invites by e-mail or one-time link, making an
account or accepting while signed in, expiry and single use, withdrawing, the staff of an
organiser's previous event carried over, and password reset by e-mail."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import AuditEvent, EventStaff, StaffInvite, StaffRole

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"https?://testserver/staff/invite/([A-Za-z0-9_-]+)/")


def invite(client, event, who: str, role: str = "scorekeeper"):
    """Post the staff page's invite form; returns (response, token of the link shown)."""
    response = client.post(
        reverse("staff:team_invite", args=[event.slug]), {"who": who, "role": role}
    )
    found = LINK.search(response.content.decode())
    return response, found.group(1) if found else None


def test_an_email_without_an_account_gets_a_one_time_link_by_mail(client, event8, organiser):
    client.force_login(organiser)
    response, token = invite(client, event8, "New.Person@example.org")
    assert response.status_code == 200 and token
    assert response["Cache-Control"] == "private, no-store"
    row = StaffInvite.objects.get(event=event8)
    assert (row.email, row.role, row.created_by) == (
        "New.Person@example.org",
        "scorekeeper",
        organiser,
    )
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest() and token != row.token_hash
    assert timedelta(days=6, hours=23) < row.expires_at - timezone.now() <= timedelta(days=7)
    assert row.used_at is None
    [sent] = mail.outbox
    assert sent.to == ["New.Person@example.org"]
    assert sent.subject == "You are invited to help run Test Cup"
    assert f"http://testserver/staff/invite/{token}/" in sent.body
    assert "organiser invites you to be scorekeeper of Test Cup" in sent.body
    audit = AuditEvent.objects.get(event=event8, action="staff.invite")
    assert audit.new == {"email": "New.Person@example.org", "role": "scorekeeper"}
    assert token not in str(audit.new)
    assert not EventStaff.objects.filter(event=event8, role=StaffRole.SCOREKEEPER).exists()


def test_an_empty_name_makes_a_link_to_hand_over_and_sends_nothing(client, event8, organiser):
    client.force_login(organiser)
    response, token = invite(client, event8, "", role="judge")
    assert token and mail.outbox == []
    row = StaffInvite.objects.get(event=event8)
    assert (row.email, row.role) == ("", "judge")
    body = client.get(reverse("staff:team", args=[event8.slug])).content.decode()
    assert "(link) · Judge" in body  # listed among the invites not yet accepted
    assert token not in body  # the link is shown once


def test_an_unknown_username_is_refused_with_what_to_do(client, event8, organiser):
    client.force_login(organiser)
    response, token = invite(client, event8, "nobody")
    assert token is None
    assert "Enter their e-mail address to send them an invite" in response.content.decode()
    assert not StaffInvite.objects.exists() and mail.outbox == []


def test_an_email_of_an_existing_account_adds_it_at_once(client, event8, organiser):
    factories.user("sam", email="sam@example.org")
    client.force_login(organiser)
    response, token = invite(client, event8, "SAM@example.org")
    assert response.status_code == 302 and token is None
    assert EventStaff.objects.filter(
        event=event8, user__username="sam", role="scorekeeper"
    ).exists()
    assert not StaffInvite.objects.exists()


def test_the_invited_person_makes_an_account_and_becomes_staff(client, event8, organiser):
    client.force_login(organiser)
    _, token = invite(client, event8, "kim@example.org")
    client.logout()
    url = reverse("staff:invite_accept", args=[token])
    page = client.get(url)
    assert page.status_code == 200 and page["Referrer-Policy"] == "same-origin"
    assert 'value="kim@example.org"' in page.content.decode()  # the e-mail offered as username
    assert re.search(
        r"The link works once, until \d+ \w+ \d{4}, \d\d:\d\d\.<", page.content.decode()
    )
    too_short = client.post(url, {"username": "kim", "password1": "short", "password2": "short"})
    assert "This password is too short" in too_short.content.decode()
    assert not get_user_model().objects.filter(username="kim").exists()
    password = "a long enough pass phrase"
    done = client.post(url, {"username": "kim", "password1": password, "password2": password})
    assert done.status_code == 302 and done.url == reverse("staff:dashboard", args=[event8.slug])
    kim = get_user_model().objects.get(username="kim")
    assert kim.email == "kim@example.org" and kim.check_password(password)
    assert EventStaff.objects.filter(event=event8, user=kim, role="scorekeeper").exists()
    assert client.get(reverse("staff:dashboard", args=[event8.slug])).status_code == 200
    row = StaffInvite.objects.get()
    assert row.used_by == kim and row.used_at is not None
    added = AuditEvent.objects.get(event=event8, action="staff.add")
    assert (added.actor, added.reason) == (kim, "accepted an invite")
    client.logout()
    again = client.get(url)
    assert again.status_code == 410 and "already used" in again.content.decode()


def test_a_taken_username_is_refused_and_the_invite_stays_unused(client, event8, organiser):
    factories.user("kim")
    _, token = services.staff_invite_create(event=event8, role="judge", by=organiser)
    url = reverse("staff:invite_accept", args=[token])
    password = "a long enough pass phrase"
    page = client.post(url, {"username": "KIM", "password1": password, "password2": password})
    assert "That username is taken" in page.content.decode()
    assert get_user_model().objects.filter(username__iexact="kim").count() == 1
    assert StaffInvite.objects.get().used_at is None


def test_someone_signed_in_accepts_with_one_click(client, event8, organiser):
    jude = factories.user("jude")
    _, token = services.staff_invite_create(event=event8, role="judge", by=organiser)
    client.force_login(jude)
    url = reverse("staff:invite_accept", args=[token])
    assert "Accept the invite" in client.get(url).content.decode()
    response = client.post(url)
    assert response.url == reverse("staff:disputes", args=[event8.slug])  # a judge's desk
    assert EventStaff.objects.filter(event=event8, user=jude, role="judge").exists()
    with pytest.raises(InvalidInput, match="already used"):
        services.staff_invite_accept(token=token, user=organiser)


def test_an_expired_link_is_refused_and_gives_no_role(client, event8, organiser):
    jude = factories.user("jude")
    row, token = services.staff_invite_create(event=event8, role="judge", by=organiser)
    StaffInvite.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    client.force_login(jude)
    url = reverse("staff:invite_accept", args=[token])
    page = client.get(url)
    assert page.status_code == 410 and "has expired" in page.content.decode()
    assert client.post(url).status_code == 410
    assert not EventStaff.objects.filter(user=jude).exists()


def test_an_unknown_link_answers_404(client):
    page = client.get(reverse("staff:invite_accept", args=["not-a-token"]))
    assert page.status_code == 404 and "not valid" in page.content.decode()


def test_a_withdrawn_invite_stops_working(client, event8, organiser):
    row, token = services.staff_invite_create(event=event8, role="judge", by=organiser)
    client.force_login(organiser)
    client.post(reverse("staff:team_invite_withdraw", args=[event8.slug, row.pk]))
    assert not StaffInvite.objects.exists()
    assert AuditEvent.objects.get(action="staff.invite_withdraw").old == {
        "email": "",
        "role": "judge",
    }
    assert client.get(reverse("staff:invite_accept", args=[token])).status_code == 404


def test_when_the_mail_cannot_be_sent_the_link_is_still_shown(
    client, event8, organiser, monkeypatch
):
    def refuse(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr("tournaments.services.invites.send_mail", refuse)
    client.force_login(organiser)
    response, token = invite(client, event8, "kim@example.org")
    body = response.content.decode()
    assert token and "The e-mail could not be sent (connection refused)" in body
    assert StaffInvite.objects.get().email == "kim@example.org"


def test_an_unknown_role_makes_no_invite(organiser, event8):
    with pytest.raises(InvalidInput, match="not a staff role"):
        services.staff_invite_create(event=event8, role="boss", by=organiser)
    assert not StaffInvite.objects.exists()


def test_a_new_event_gets_the_staff_of_the_organisers_previous_event(client, organiser):
    older = factories.event(by=organiser, name="Winter Cup")
    last = factories.event(by=organiser, name="Autumn Cup")
    sam = factories.staff(last, StaffRole.SCOREKEEPER, username="sam")
    jude = factories.staff(last, StaffRole.JUDGE, username="jude")
    factories.staff(older, StaffRole.JUDGE, username="old-judge")
    client.force_login(organiser)
    client.post(
        reverse("staff:event_create"),
        {
            "name": "Spring Cup",
            "ruleset": "pokemon",
            "structure": "swiss-top-cut",
            "divisions": "open",
            "swiss_rounds": 5,
            "top_cut_size": 8,
        },
    )
    new = EventStaff.objects.get(user=organiser, event__name="Spring Cup").event
    roles = set(EventStaff.objects.filter(event=new).values_list("user__username", "role"))
    assert roles == {("organiser", "organiser"), ("sam", "scorekeeper"), ("jude", "judge")}
    reasons = set(
        AuditEvent.objects.filter(event=new, action="staff.add").values_list("reason", flat=True)
    )
    assert reasons == {"carried over from Autumn Cup"}
    assert {sam, jude} == {s.user for s in new.staff.exclude(user=organiser)}


def test_events_made_by_services_and_factories_carry_no_staff_over(organiser):
    last = factories.event(by=organiser, name="Autumn Cup")
    factories.staff(last, StaffRole.JUDGE, username="jude")
    new = factories.event(by=organiser, name="Spring Cup")
    assert list(new.staff.values_list("user__username", flat=True)) == ["organiser"]
    assert services.staff_carry_over(event=new, by=None) == []


def test_password_reset_by_email_from_the_login_page(client):
    user = factories.user("kim", email="kim@example.org")
    login_page = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in login_page
    assert "Reset your password" in client.get(reverse("password_reset")).content.decode()
    sent = client.post(reverse("password_reset"), {"email": "kim@example.org"})
    assert sent.url == reverse("password_reset_done")
    [message] = mail.outbox
    assert message.to == ["kim@example.org"] and "Your username: kim" in message.body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)
    form_url = client.get(link).url  # Django swaps the token for a session and redirects
    page = client.get(form_url).content.decode()
    assert "Choose a new password" in page
    password = "a brand new pass phrase"
    done = client.post(form_url, {"new_password1": password, "new_password2": password})
    assert done.url == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(password)
    assert "This link does not work" in client.get(link, follow=True).content.decode()


def test_a_reset_for_an_unknown_address_sends_nothing(client):
    sent = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert sent.url == reverse("password_reset_done") and mail.outbox == []


@pytest.mark.multiprocess
@pytest.mark.parametrize(
    ("env", "backend"),
    [
        ({"DEBUG": "true"}, "django.core.mail.backends.console.EmailBackend"),
        ({"DEBUG": "false"}, "django.core.mail.backends.smtp.EmailBackend"),
        (
            {"DEBUG": "false", "EMAIL_URL": "smtp+tls://kim%40example.org:pw@smtp.example.org:587"},
            "django.core.mail.backends.smtp.EmailBackend smtp.example.org 587 kim@example.org True",
        ),
    ],
)
def test_email_settings_come_from_the_environment(env, backend):
    code = (
        "from django.conf import settings as s; import django; django.setup(); "
        "print(s.EMAIL_BACKEND, *([s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_USE_TLS]"
        " if 'EMAIL_URL' in __import__('os').environ else []))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "DEBUG"))}
    run_env = {**clean, "DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "k" * 60, **env}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=run_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == backend


def test_the_invite_and_password_pages_are_in_spanish(client, event8, organiser):
    _, token = services.staff_invite_create(event=event8, role="judge", by=organiser)
    spanish = {"HTTP_ACCEPT_LANGUAGE": "es"}
    page = client.get(reverse("staff:invite_accept", args=[token]), **spanish).content.decode()
    assert "Únete al personal de Test Cup" in page and "Te invitan como juez." in page
    assert "Crear la cuenta y aceptar" in page
    reset = client.get(reverse("password_reset"), **spanish).content.decode()
    assert "Restablece tu contraseña" in reset and "Enviar el enlace" in reset
    login_page = client.get(reverse("login"), **spanish).content.decode()
    assert "¿Olvidaste tu contraseña?" in login_page
    client.force_login(organiser)
    team = client.get(reverse("staff:team", args=[event8.slug]), **spanish).content.decode()
    assert "Quién encuentra el evento" in team and "Ocultar" in team
    assert "Invitaciones aún no aceptadas" in team and "(enlace) · Juez" in team
