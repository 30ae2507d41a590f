"""Login throttling (item 6): django-axes locks a (username,
address) pair, and an address, after LOGIN_FAILURE_LIMIT failed logins for
LOGIN_COOLOFF_MINUTES — never a username alone, so a guessed username cannot keep its owner
out from another address — says so on the login page, and records every attempt where the
admin can see it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.urls import reverse

from tests import factories

ATTACKER = "192.0.2.10"  # documentation addresses (RFC 5737): request metadata only
COLLEAGUE = "198.51.100.20"


def login(client, username: str, password: str, address: str):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db
def test_sixty_wrong_passwords_lock_the_address_and_the_right_one_is_refused_there(client):
    factories.user("olivia")
    responses = [login(client, "olivia", f"guess {n}", ATTACKER) for n in range(60)]

    assert [r.status_code for r in responses[:4]] == [200] * 4  # the usual form error
    assert {r.status_code for r in responses[4:]} == {429}
    refused = login(client, "olivia", factories.PASSWORD, ATTACKER)
    assert refused.status_code == 429
    assert not logged_in(client)
    page = refused.content.decode()
    assert "Login locked for 15 minutes" in page
    assert (
        "too many failed logins (5) from this address, for this username or for any. "
        "Other addresses are not locked." in page
    )
    assert 'name="password"' in page  # still the login page, not a bare error page


@pytest.mark.django_db
def test_a_guessed_username_still_logs_in_from_another_address_while_one_is_locked(client):
    """The lock is on (username, address) and on the address, never on
    the username alone."""
    factories.user("olivia")
    for n in range(60):
        login(client, "olivia", f"guess {n}", ATTACKER)
    assert login(client, "olivia", factories.PASSWORD, ATTACKER).status_code == 429

    response = login(client, "olivia", factories.PASSWORD, COLLEAGUE)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert logged_in(client)
    client.logout()
    # The attacker's address stays locked, even for the right password: the success
    # elsewhere cleared olivia's failures but not the address's.
    assert AccessAttempt.objects.filter(ip_address=ATTACKER).exists()
    assert login(client, "olivia", factories.PASSWORD, ATTACKER).status_code == 429
    assert not logged_in(client)


@pytest.mark.django_db
def test_wrong_passwords_spread_over_addresses_lock_none_of_them(client):
    """Four failures from each of two addresses: neither pair nor address reaches five."""
    factories.user("olivia")
    for n in range(4):
        login(client, "olivia", f"guess {n}", ATTACKER)
        login(client, "olivia", f"guess {n}", COLLEAGUE)
    response = login(client, "olivia", factories.PASSWORD, COLLEAGUE)
    assert response.status_code == 302 and logged_in(client)


@pytest.mark.django_db
def test_another_username_from_another_address_still_logs_in(client):
    factories.user("olivia")
    factories.user("sam")
    for n in range(60):
        login(client, "olivia", f"guess {n}", ATTACKER)

    response = login(client, "sam", factories.PASSWORD, COLLEAGUE)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert logged_in(client)


@pytest.mark.django_db
def test_the_locked_address_is_refused_for_every_username(client):
    factories.user("sam")
    for n in range(5):
        login(client, f"nobody{n}", "guess", ATTACKER)

    response = login(client, "sam", factories.PASSWORD, ATTACKER)
    assert response.status_code == 429 and "Login locked" in response.content.decode()
    assert not logged_in(client)


@pytest.mark.django_db
def test_attempts_are_recorded_and_listed_in_the_admin(client):
    factories.user("olivia")
    factories.user("sam")
    for n in range(60):
        login(client, "olivia", f"guess {n}", ATTACKER)
    login(client, "olivia", factories.PASSWORD, ATTACKER)
    login(client, "sam", factories.PASSWORD, COLLEAGUE)

    attempt = AccessAttempt.objects.get(username="olivia")
    assert attempt.ip_address == ATTACKER
    assert attempt.failures_since_start == 61  # refused tries count too
    assert AccessFailureLog.objects.filter(username="olivia").count() == 61
    assert AccessLog.objects.filter(username="sam", ip_address=COLLEAGUE).count() == 1

    admin = factories.user("root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    listing = client.get(reverse("admin:axes_accessattempt_changelist"))
    assert listing.status_code == 200 and "olivia" in listing.content.decode()


@pytest.mark.django_db
def test_the_lock_lifts_after_the_cool_off(client):
    factories.user("olivia")
    for n in range(5):
        login(client, "olivia", f"guess {n}", ATTACKER)
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
    )

    response = login(client, "olivia", factories.PASSWORD, ATTACKER)
    assert response.status_code == 302 and logged_in(client)
    assert not AccessAttempt.objects.filter(username="olivia").exists()  # reset on success


@pytest.mark.django_db
def test_a_success_before_the_limit_clears_the_failures(client):
    factories.user("olivia")
    for n in range(4):
        login(client, "olivia", f"guess {n}", ATTACKER)
    assert login(client, "olivia", factories.PASSWORD, ATTACKER).status_code == 302
    client.logout()

    for n in range(4):
        login(client, "olivia", f"again {n}", ATTACKER)
    assert login(client, "olivia", factories.PASSWORD, ATTACKER).status_code == 302


@pytest.mark.django_db
def test_behind_a_proxy_the_address_comes_from_the_named_header(client, settings):
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    client.post(
        reverse("login"),
        {"username": "olivia", "password": "guess"},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR=f"203.0.113.9, {ATTACKER}",  # the proxy appended the last one
    )
    assert AccessAttempt.objects.get().ip_address == ATTACKER
