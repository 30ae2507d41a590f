"""docker-compose.yml keeps the application running: web, live, worker
and beat restart unless stopped; web is checked over HTTP and the worker by a Celery ping
(the compose file is not run by the test suite: no Docker engine here, docs/operations.md "Docker")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]


@pytest.mark.parametrize("name", ["web", "live", "worker", "beat"])
def test_the_application_services_restart_unless_stopped(services, name):
    assert services[name]["restart"] == "unless-stopped"


def test_the_worker_is_checked_by_a_ping_to_itself(services):
    check = services["worker"]["healthcheck"]
    assert check["test"] == [
        "CMD-SHELL",
        "celery -A config inspect ping -d celery@$$HOSTNAME --timeout 10",
    ]


@pytest.mark.multiprocess
@pytest.mark.django_db
def test_the_web_check_passes_against_a_running_server_and_fails_without_one(services, live_server):
    """The web service's check, run as compose runs it, against this test's server."""
    test = services["web"]["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"]
    port = live_server.url.rsplit(":", 1)[1]
    code = test[3].replace("8000", port)
    env = {"ALLOWED_HOSTS": "localhost,127.0.0.1", "PATH": "/usr/bin:/bin"}
    ok = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=30)
    assert ok.returncode == 0, ok.stderr
    closed = subprocess.run(
        [sys.executable, "-c", test[3].replace("8000", "9")], env=env, capture_output=True
    )
    assert closed.returncode != 0  # nothing listening: unhealthy
