"""Shared fixtures: users with staff roles, a small event with registered players."""

from __future__ import annotations

import uuid

import pytest

from tests import factories


@pytest.fixture(autouse=True)
def _own_cache_namespace(settings):
    """Each test gets an empty cache of its own on the real Redis server: a fresh key
    prefix instead of FLUSHDB, which would empty the cache under the other xdist worker.
    (Changing CACHES makes Django rebuild its cache connections.)"""
    caches = {name: dict(conf) for name, conf in settings.CACHES.items()}
    for conf in caches.values():
        conf["KEY_PREFIX"] = f"t-{uuid.uuid4().hex}"
    settings.CACHES = caches


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
