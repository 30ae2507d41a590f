"""Production settings: no start with DEBUG off and no SECRET_KEY,
HTTPS settings from the environment, `check --deploy` clean with the documented production
environment, a Content-Security-Policy, and HEAD on public pages."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from tests import factories

ROOT = Path(__file__).resolve().parents[2]

# The production example of docs/operations.md ("Configuration"), with a fresh key.
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "events.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://events.example.org",
    "DATABASE_URL": "postgres://matchslip@127.0.0.1:5432/matchslip",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "SESSION_COOKIE_SECURE": "true",
    "CSRF_COOKIE_SECURE": "true",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
    "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
    "CLIENT_IP_HEADER": "X-Forwarded-For",
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """``manage.py`` in a fresh process with only ``env`` (plus PATH): no setting leaks
    in from the test run."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.multiprocess
def test_check_deploy_passes_with_the_documented_production_environment():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


@pytest.mark.multiprocess
def test_the_https_settings_come_from_the_environment():
    show = (
        "from django.conf import settings as s; print(s.SECURE_PROXY_SSL_HEADER, "
        "s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.SECURE_SSL_REDIRECT)"
    )
    result = manage("shell", "--verbosity", "0", "-c", show, env=PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "('HTTP_X_FORWARDED_PROTO',",
        "'https')",
        "31536000",
        "True",
        "True",
    ]


@pytest.mark.multiprocess
@pytest.mark.parametrize("key", [None, ""], ids=["unset", "empty"])
def test_with_debug_off_and_no_secret_key_the_app_refuses_to_start(key):
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    if key is not None:
        env["SECRET_KEY"] = key
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "ImproperlyConfigured: Set SECRET_KEY" in result.stderr


@pytest.mark.multiprocess
def test_with_nothing_set_debug_is_off_and_a_secret_key_is_required():
    result = manage("check", env={})
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr and "DEBUG=true" in result.stderr


@pytest.mark.multiprocess
def test_the_development_server_needs_no_configuration_with_debug_on():
    result = manage("check", env={"DEBUG": "true"})  # what `make run` sets
    assert result.returncode == 0, result.stderr


@pytest.mark.django_db
def test_public_pages_answer_head(client, organiser):
    event = factories.event(by=organiser)
    for url in [reverse("home"), reverse("public:event", args=[event.slug])]:
        response = client.head(url)
        assert response.status_code == 200, url
        assert response.content == b""


@pytest.mark.django_db
def test_staff_pages_answer_head(client, organiser):
    event = factories.event(by=organiser)
    client.force_login(organiser)
    assert client.head(reverse("staff:dashboard", args=[event.slug])).status_code == 200


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_without_inline_script_or_eval(client):
    policy = client.get(reverse("home"))["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


@pytest.mark.django_db
def test_the_print_pages_inline_style_carries_the_policys_nonce(client, django_user_model):
    event, rnd, _ = factories.started_round(players=4)
    client.force_login(django_user_model.objects.get(username="org"))
    response = client.get(reverse("staff:print_slips", args=[event.slug, rnd.pk]))
    nonce = re.search(r'<style nonce="([^"]+)">', response.content.decode()).group(1)
    assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]
    assert "onclick" not in response.content.decode()  # inline handlers are refused
