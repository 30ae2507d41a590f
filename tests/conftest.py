"""Shared fixtures: users with staff roles, a small event with registered players."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from django.utils import translation

from tests import factories

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under ``tests/browser`` carries the ``browser`` marker, its module's
    ``pytestmark`` or not, so ``-m "not browser"`` always leaves Chromium out. (The
    ``multiprocess`` marker is set test by test where a test starts another process.)"""
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _own_cache_namespace(settings):
    """Each test gets an empty cache of its own on the real Redis server: a fresh key
    prefix instead of FLUSHDB, which would empty the cache under the other xdist worker.
    (Changing CACHES makes Django rebuild its cache connections.)"""
    caches = {name: dict(conf) for name, conf in settings.CACHES.items()}
    for conf in caches.values():
        conf["KEY_PREFIX"] = f"t-{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """The test client's requests leave the visitor's language active in the test thread
    (LocaleMiddleware activates it and nothing resets it); the services translate their
    refusals when raised, so each test starts and ends in the default English."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def organiser(db):
    return factories.user("organiser")


@pytest.fixture
def event(organiser):
    return factories.event(by=organiser)


@pytest.fixture
def event8(organiser):
    """An open Pokémon event with 8 registered players, 3 Swiss rounds, no cut."""
    return factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=0)


def _reset_celery_connections(app) -> None:
    """Forget connection pools made for the previous broker URL (new ones are made lazily)."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def redis_worker(settings):
    """A Celery worker thread (not eager) consuming from the Redis server of the test
    settings, for tests of tasks sent over the real broker."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    old = (app.conf.task_always_eager, app.conf.broker_url)
    app.conf.task_always_eager = False
    app.conf.broker_url = settings.REDIS_URL
    _reset_celery_connections(app)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            yield
    finally:
        app.conf.task_always_eager, app.conf.broker_url = old
        _reset_celery_connections(app)
