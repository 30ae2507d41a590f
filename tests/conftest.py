"""Shared fixtures: users with staff roles, a small event with registered players."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests import factories


@pytest.fixture(autouse=True)
def _clear_cache():
    """Each test starts with an empty cache (the test settings use a per-process key prefix)."""
    cache.clear()
    yield
    cache.clear()


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
