"""The public pairings page's HTML, rendered once per published round and kept in the cache.

When a round is posted hundreds of phones ask for the pairings at the same moment, so
the page never renders a large table per request: ``pairings_fragment_store`` renders
the current published round(s) "by table" and "by name" once (``round_publish`` calls
it on commit; call it again whenever published pairings change) and the public view
serves the stored HTML, re-rendering only on a cache miss or when the published rounds
are no longer the stored ones. Records shown next to names are those at publication.

The cache is an accelerator, never a dependency: with Redis unreachable the cache backend
(``outages.TolerantRedisCache``) answers every read with a miss and skips every write, so
the page renders from PostgreSQL (slower, never a 500), and the first request after Redis
returns stores the fragment again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation

from .models import Event, Round
from .selectors import (
    RoundView,
    current_public_rounds,
    names_for_public,
    pairings_for_public,
    views_in_language,
)

TEMPLATE = "tournaments/public/pairings.html"
TIMEOUT = 3 * 24 * 3600  # seconds; an event lasts a day or two


class PairingsFragment(TypedDict):
    """What is stored: the round ids it was rendered from and the two HTML fragments."""

    rounds: list[int]
    by_table: str
    by_name: str


def _key(event_id: int, language: str | None = None) -> str:
    """One fragment per language: the current one unless ``language``."""
    return f"matchslip:pairings:{event_id}:{language or translation.get_language()}"


def _set_every_language(event: Event, rounds: Sequence[Round], views: Sequence[RoundView]):
    """Render and store the fragment in each of ``settings.LANGUAGES`` (``views``, read in
    any language, get each language's words: ``views_in_language``); returns the one of
    the current language."""
    current = translation.get_language()
    mine = None
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            fragment = _render(event, rounds, views_in_language(event, rounds, views))
        cache.set(_key(event.pk, code), fragment, TIMEOUT)
        if code == current or mine is None:
            mine = fragment
    return mine


def _render(
    event: Event, rounds: Sequence[Round], views: Sequence[RoundView] | None = None
) -> PairingsFragment:
    views = pairings_for_public(event, rounds) if views is None else views
    context = {"event": event, "rounds": views, "names": names_for_public(views)}
    return {
        "rounds": [r.pk for r in rounds],
        "by_table": render_to_string(f"{TEMPLATE}#by_table", context),
        "by_name": render_to_string(f"{TEMPLATE}#by_name", context),
    }


def pairings_fragment_store(event_id: int) -> PairingsFragment:
    """Render the current published round(s)' pairings of the event and store them in
    the cache (Redis when configured). Returns what was stored. 5 queries."""
    event = Event.objects.get(pk=event_id)
    rounds = current_public_rounds(event)
    return _set_every_language(event, rounds, pairings_for_public(event, rounds))


def pairings_fragment_save(
    event: Event, rounds: Sequence[Round], views: Sequence[RoundView]
) -> PairingsFragment:
    """Render and store the fragment of ``rounds`` from their ``views``, already read
    (``pairings_for_public(event, rounds)``, with records): no query. Returns it."""
    return _set_every_language(event, rounds, views)


def pairings_fragment(event: Event, rounds: Sequence[Round]) -> PairingsFragment:
    """The stored fragment for ``rounds`` (``current_public_rounds(event)``), rendered and
    stored only when missing or stale. No query on a hit."""
    fragment: PairingsFragment | None = cache.get(_key(event.pk))
    if fragment is None or fragment["rounds"] != [r.pk for r in rounds]:
        fragment = _render(event, rounds)
        cache.set(_key(event.pk), fragment, TIMEOUT)
    return fragment


def pairings_fragment_forget(event_id: int) -> None:
    """Drop the stored fragments (the next public request renders them again)."""
    cache.delete_many([_key(event_id, code) for code, _name in settings.LANGUAGES])
