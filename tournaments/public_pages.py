"""Public pages as prebuilt responses: built once per change, served as stored bytes.

When a round posts at a large event every player reloads the pairings within seconds.
So the public pairings page (by table, by name) and the standings page are built once
per change as complete response bodies — in every language of ``settings.LANGUAGES``
(English and Spanish), the whole page and its ``live`` partial (what an HTMX refresh
asks for), each plain and gzipped, with an ETag — and a request reads only the stored
bytes of its own language: no database query, no template render (``views.prebuilt``).

Layout in the cache (``TolerantRedisCache``: an unreachable Redis is a miss):

- ``matchslip:pub:<slug>`` — the *pointer*: the current version, when it was built and
  every body's ETag by ``<language>:<page>:<variant>:<encoding>`` (a revalidation,
  ``If-None-Match``, reads only this). One pointer for every language: a change makes
  the pages of all languages current at once.
- ``matchslip:pub:<slug>:<version>:<language>:<page>:<variant>:<encoding>`` — one body's
  bytes.
- ``…:<version>:<language>:names`` — every seated player's (name, table, opponent …),
  compact, for "Find my table"; ``…:<version>:<language>:seat:<report token>`` — one
  player's own table (their round label and note are words, so per language too).

Every change that alters what those pages show calls :func:`public_pages_changed` in its
transaction (round publish, discard, re-pair, completion, a correction, a standings
snapshot, an import): it drops the pointer at once and, after commit, drops it again,
stamps a new *generation* (``matchslip:pub-gen:<event id>``) and sends the build to a
Celery worker (:func:`public_pages_committed`, ``tournaments.tasks.public_pages_build``;
in-process when no broker is configured), so neither the request nor the standings and
pairing tasks wait for a build: from the last slip to the next round published costs
standings + pairing only. The build writes a
new version and then sets the pointer, so a reader sees the old set, the new one or a
render from PostgreSQL, never a mix. A build whose generation is no longer current (a
newer change committed meanwhile) is skipped or thrown away: changes in quick
succession cost one build, and a slow build never points to pages older than a change.
A request that finds no pointer (Redis emptied, restarted or down, a build under way)
renders from PostgreSQL as before and, when it can take a short build lock (never while
Redis is down), builds the set for the next requests; that lazy build only *adds* the
pointer, and only while the generation it read is still current.

Once a build is current, :func:`public_pages_announce` tells the open pages (``live``)
that they may fetch the new bytes; a change that sends no build (``build`` False) leaves
the telling to the build its caller queues.

Pages are built by calling their own views with a synthetic anonymous request (as a
warming reverse proxy would), once per language under ``translation.override``, so the
prebuilt page is byte for byte what the view renders for a visitor in that language; the
views are named by URL (``PAGES``), which also keeps this module free of the
``standings`` app. The tables are read once per build and given each language's words
(``selectors.views_in_language``): a second language costs its renders, not another read.
"""

from __future__ import annotations

import gzip
import hashlib
import time
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.test import RequestFactory
from django.urls import resolve, reverse
from django.utils import timezone, translation
from django_htmx.middleware import HtmxDetails

from . import live
from .models import Event, EventListing, EventStatus, Registration
from .outages import BROKER_ERRORS, broker_outage
from .public_cache import pairings_fragment_save
from .selectors import (
    NameEntry,
    RoundView,
    current_public_rounds,
    names_for_public,
    pairings_for_public,
    seats_for_public,
    tables_by_registration,
    views_in_language,
)

TIMEOUT = 3 * 24 * 3600  # seconds; an event lasts a day or two
BUILD_LOCK_SECONDS = 30
BUILD_TASK = "tournaments.tasks.public_pages_build"
# page name → (URL name, query string): the prebuilt pages. Any other query is rendered.
PAGES: dict[str, tuple[str, dict[str, str]]] = {
    "pairings-table": ("public:pairings", {}),
    "pairings-name": ("public:pairings", {"by": "name"}),
    "standings": ("public:standings", {}),
}
VARIANTS = ("page", "live")  # the whole page; its ``live`` partial (an HTMX refresh)
ENCODINGS = ("plain", "gzip")
NameRow = tuple[str, int | None, str, str, str, int, str, str]  # a NameEntry's fields, in order


@dataclass(frozen=True)
class Pointer:
    """The current prebuilt version of an event's public pages."""

    version: str
    event_id: int
    built_at: datetime
    etags: dict[str, str]  # "<language>:<page>:<variant>:<encoding>" → quoted ETag

    def etag(self, language: str, page: str, variant: str, encoding: str) -> str | None:
        """The ETag of one prebuilt body; None when it was not built (another language)."""
        return self.etags.get(_body_part(language, page, variant, encoding))


def languages() -> list[str]:
    """The language codes every page is prebuilt in: ``settings.LANGUAGES``, in order."""
    return [code for code, _name in settings.LANGUAGES]


def pointer_key(slug: str) -> str:
    return f"matchslip:pub:{slug}"


def _versioned(slug: str, version: str, part: str) -> str:
    return f"matchslip:pub:{slug}:{version}:{part}"


def _body_part(language: str, page: str, variant: str, encoding: str) -> str:
    return f"{language}:{page}:{variant}:{encoding}"


def _names_part(language: str) -> str:
    return f"{language}:names"


def _seat_part(language: str, token: str) -> str:
    return f"{language}:seat:{token}"


def _lock_key(slug: str) -> str:
    return f"matchslip:pub:{slug}:building"


def _generation_key(event_id: int) -> str:
    return f"matchslip:pub-gen:{event_id}"


def _fragment_stale_key(event_id: int) -> str:
    return f"matchslip:pub-gen:{event_id}:fragment-stale"


def generation(event_id: int) -> str | None:
    """The event's current build generation (None: none stamped, or the cache is down)."""
    return cache.get(_generation_key(event_id))


def _current(event_id: int, gen: str | None) -> bool:
    """Whether a build that read generation ``gen`` may still publish its pages."""
    return generation(event_id) in (gen, None)


def etag_for(body: bytes, encoding: str = "plain", language: str = "") -> str:
    """A strong ETag of ``body`` in ``language`` (a language code; each language's copy
    gets its own even were the bytes alike); the gzip representation gets its own too
    (RFC 9110 §8.8.3)."""
    digest = hashlib.blake2b(body, digest_size=12, person=language.encode()[:16]).hexdigest()
    return f'"{digest}-gz"' if encoding == "gzip" else f'"{digest}"'


def gzip_bytes(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=6, mtime=0)


def _render(slug: str, page: str, variant: str, built_at: datetime, ahead: int = 0) -> bytes:
    """The body the view answers to an anonymous GET of ``page`` (``live``: an HTMX
    refresh) in the active language. ``prebuilding`` makes the view render instead of
    serving stored bytes; ``ahead`` (1 for a build that is announced when stored) is
    added to the ``public`` version the page says it shows (``live_source``): the
    version its announcement will give, so the phones that load it are not told again
    of what they show, and the page is byte for byte what the view renders once
    announced."""
    name, params = PAGES[page]
    headers = {"HX-Request": "true"} if variant == "live" else {}
    request = RequestFactory().get(reverse(name, args=[slug]), params, headers=headers)
    request.user = AnonymousUser()
    # The factory's request goes through no middleware: it gets what HtmxMiddleware adds
    # (``htmx``) and the marks of a prebuild, which the views read with getattr.
    vars(request).update(
        htmx=HtmxDetails(request), prebuilding=True, prebuilt_at=built_at, live_ahead=ahead
    )
    match = resolve(request.path_info)
    response = match.func(request, *match.args, **match.kwargs)
    if response.status_code != 200:
        raise RuntimeError(f"{request.path} answered {response.status_code} while prebuilding")
    return response.content


def _row(e: NameEntry) -> NameRow:
    return (e.name, e.table, e.opponent, e.round_label, e.note, e.seat, e.seating, e.feature_table)


def _build(
    event: Event, *, fragment: bool = False, ahead: int = 0
) -> tuple[Pointer, dict[str, Any]]:
    """Every prebuilt body, the name list and each player's table of ``event`` in every
    language of :func:`languages` (by key part, :func:`_versioned`), and the pointer to
    them; ``fragment``: the pairings fragment (``public_cache``) of every language is
    stored first, from the same read of the tables. The tables are read once whatever
    the number of languages: about 4 queries, plus those of the page views per language
    (which find the fragment and the standings tables in the cache)."""
    version = f"{time.time_ns():x}"
    built_at = timezone.now()
    rounds = current_public_rounds(event)
    # One read of the tables for the fragment, the name list and every player's table
    # (which need no records: ``seats_for_public``), in every language.
    views = (pairings_for_public if fragment else seats_for_public)(event, rounds)
    if fragment:
        pairings_fragment_save(event, rounds, views)
    tokens = list(Registration.objects.filter(event=event).values_list("pk", "report_token"))
    values: dict[str, Any] = {}
    etags: dict[str, str] = {}
    for language in languages():
        with translation.override(language):
            mine = views_in_language(event, rounds, views)
            _build_language(event, language, built_at, mine, tokens, values, etags, ahead)
    return Pointer(version, event.pk, built_at, etags), values


def _build_language(
    event: Event,
    language: str,
    built_at: datetime,
    views: list[RoundView],
    tokens: list[tuple[int, str]],
    values: dict[str, Any],
    etags: dict[str, str],
    ahead: int = 0,
) -> None:
    """Add the bodies, name list and players' tables in ``language`` (active) to
    ``values`` and their ETags to ``etags``; ``views`` already in that language, ``tokens``
    every registration's ``(id, report token)``. Queries: those of the page views."""
    for page in PAGES:
        for variant in VARIANTS:
            plain = _render(event.slug, page, variant, built_at, ahead)
            for encoding, body in (("plain", plain), ("gzip", gzip_bytes(plain))):
                part = _body_part(language, page, variant, encoding)
                values[part] = body
                etags[part] = etag_for(plain, encoding, language)
    values[_names_part(language)] = [_row(e) for e in names_for_public(views)]
    tables = tables_by_registration(views)
    for reg_id, token in tokens:
        values[_seat_part(language, token)] = [_row(e) for e in tables.get(reg_id, [])]


def _store(
    event: Event, *, replace: bool, gen: str | None, fragment: bool = False, ahead: int = 0
) -> Pointer:
    """Write a new version, then point to it, unless a change newer than generation
    ``gen`` committed meanwhile (its keys are then deleted again: that change's build
    follows). A replaced version's keys are deleted (a request that read the old pointer
    just before then renders from PostgreSQL)."""
    slug = event.slug
    new, values = _build(event, fragment=fragment, ahead=ahead)
    keys = {_versioned(slug, new.version, k): v for k, v in values.items()}
    cache.set_many(keys, TIMEOUT)
    if not _current(event.pk, gen):
        cache.delete_many(list(keys))
        return new
    if not replace:
        cache.add(pointer_key(slug), new, TIMEOUT)
    else:
        old: Pointer | None = cache.get(pointer_key(slug))
        cache.set(pointer_key(slug), new, TIMEOUT)
        if old is not None and old.version != new.version:
            cache.delete_many([_versioned(slug, old.version, k) for k in values])
    # Checked again after pointing: a change that committed between the check above and
    # the pointer write stamped its generation before dropping the pointer
    # (public_pages_committed), so it is seen here and these pages are withdrawn.
    if not _current(event.pk, gen):
        now: Pointer | None = cache.get(pointer_key(slug))
        if now is not None and now.version == new.version:
            cache.delete(pointer_key(slug))
    return new


def public_pages_changed(event_id: int, *, pairings: bool = True, build: bool = True) -> None:
    """What the event's public pages show is changing in this transaction: drop the
    current prebuilt pages now (until the new ones are built, requests render from
    PostgreSQL) and, after commit, have them rebuilt by a worker (``pairings``: the
    pairings fragment too; :func:`public_pages_committed`). ``build`` False: another
    change this commit queues (the standings run after a round completes) rebuilds them,
    so no build is sent for this one. 1 query."""
    slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
    if slug is not None:
        public_pages_forget(slug)
    transaction.on_commit(partial(public_pages_committed, event_id, pairings=pairings, build=build))


def public_pages_committed(event_id: int, *, pairings: bool = True, build: bool = True) -> str:
    """After a change committed: drop the pointer again (a lazy build that read before
    the commit must not stay current), stamp a new generation and (``build``) send the
    build task. Until a build makes pages current, requests render from PostgreSQL
    without building themselves: the build lock is held for the worker (released by the
    build, or after ``BUILD_LOCK_SECONDS`` if none comes). Returns the generation. With
    the broker unreachable nothing is sent (logged once per outage) and the lock is
    released: requests build the pages themselves. 1 query."""
    gen = f"{time.time_ns():x}"
    if pairings:
        cache.set(_fragment_stale_key(event_id), 1, TIMEOUT)
    # The generation first, then the pointer dropped: a build that points between the
    # two sees the new generation when it checks again (``_store``).
    cache.set(_generation_key(event_id), gen, TIMEOUT)
    slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
    if slug is None:
        return gen
    cache.set(_lock_key(slug), 1, BUILD_LOCK_SECONDS)
    public_pages_forget(slug)
    if not build:
        return gen
    try:
        current_app.tasks[BUILD_TASK].delay(event_id, gen)
    except BROKER_ERRORS as e:
        broker_outage.failed(e)
        cache.delete(_lock_key(slug))
        public_pages_announce(event_id)  # no build is coming: pages render on request
    else:
        broker_outage.worked()
    return gen


def public_pages_build(event_id: int, gen: str | None) -> Pointer | None:
    """Body of the build task: rebuild the event's prebuilt pages for generation ``gen``
    and make them current; None (nothing built) when a newer change has committed since
    (its own build follows), the event is gone, or it is a draft (its
    pages answer only its staff, so nothing is prebuilt; the open pages are told at once).
    The pairings fragment is rebuilt too
    when a change since the last build asked for it. Safe to run twice."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not _current(event_id, gen):
        return None
    if event.listing == EventListing.DRAFT:  # staff only: nothing to serve anonymously
        cache.delete(_lock_key(event.slug))
        public_pages_announce(event_id, event)
        return None
    fragment = cache.get(_fragment_stale_key(event_id)) is not None
    if fragment:
        cache.delete(_fragment_stale_key(event_id))
    built = _store(event, replace=True, gen=gen, fragment=fragment, ahead=1)
    if _current(event_id, gen):
        cache.delete(_lock_key(event.slug))  # requests may build again (after a Redis loss)
        public_pages_announce(event_id, event)
    return built


def public_pages_refresh(event_id: int, *, pairings: bool = True) -> Pointer:
    """Rebuild the event's prebuilt public pages now, in this process (``pairings``: and
    first its pairings fragment, ``public_cache``), and make them current. With the cache
    down it stores nothing, harmlessly."""
    event = Event.objects.get(pk=event_id)
    built = _store(event, replace=True, gen=generation(event_id), fragment=pairings, ahead=1)
    public_pages_announce(event_id, event)
    return built


def public_pages_announce(event_id: int, event: Event | None = None) -> None:
    """Tell the open pages of the event that its public pages changed (``live``: the
    ``public`` topic, and ``finished`` with it once the event is over, so a page shows
    the final standings before its stream closes). Called once the new pages are built,
    so a few hundred phones fetch the prebuilt bytes rather than render from the
    database; at once when no build is coming (the broker is unreachable). 1-2 queries."""
    if event is None:
        event = Event.objects.filter(pk=event_id).only("status").first()
    if event is None:
        return
    topics = [live.PUBLIC, live.STAFF]
    if event.status == EventStatus.FINISHED:
        topics.append(live.FINISHED)
    live.bump(event_id, topics)


def public_pages_fill(slug: str) -> None:
    """After a request found no prebuilt pages: build them, unless another request is
    already building or the cache is unreachable (the lock cannot be taken)."""
    if not cache.add(_lock_key(slug), 1, BUILD_LOCK_SECONDS):
        return
    try:
        event = Event.objects.filter(slug=slug).first()
        if event is not None and event.listing != EventListing.DRAFT:
            _store(event, replace=False, gen=generation(event.pk))
    finally:
        cache.delete(_lock_key(slug))


def public_pages_forget(slug: str) -> None:
    """Drop the pointer: the next request renders from PostgreSQL (and builds again)."""
    cache.delete(pointer_key(slug))


def pointer(slug: str) -> Pointer | None:
    return cache.get(pointer_key(slug))


def body(
    slug: str, current: Pointer, language: str, page: str, variant: str, encoding: str
) -> bytes | None:
    """One prebuilt body's bytes (``language``: a code of :func:`languages`); None when
    not stored."""
    part = _body_part(language, page, variant, encoding)
    return cache.get(_versioned(slug, current.version, part))


def names(slug: str, current: Pointer, language: str) -> list[NameEntry] | None:
    """Every seated player of the current rounds, alphabetical, their round label and note
    in ``language``; None when not stored (or not built in that language)."""
    part = _names_part(language)
    rows: list[NameRow] | None = cache.get(_versioned(slug, current.version, part))
    return None if rows is None else [NameEntry(*row) for row in rows]


def seats(
    slug: str, current: Pointer, wanted: list[tuple[str, str]]
) -> dict[tuple[str, str], list[NameEntry]]:
    """Where each ``(language, token)`` of ``wanted`` sits, in one cache read; those not
    stored are left out (``live.seats`` pushes a thousand phones their tables at once)."""
    keys = {
        _versioned(slug, current.version, _seat_part(lang, tok)): (lang, tok)
        for lang, tok in wanted
    }
    found: dict[str, list[NameRow]] = cache.get_many(list(keys))
    return {keys[k]: [NameEntry(*row) for row in rows] for k, rows in found.items()}


def seat(slug: str, current: Pointer, language: str, token: str) -> list[NameEntry] | None:
    """Where the player with ``token`` sits (empty: not seated), in ``language``; None
    when not stored (or not built in that language)."""
    part = _seat_part(language, token)
    rows: list[NameRow] | None = cache.get(_versioned(slug, current.version, part))
    return None if rows is None else [NameEntry(*row) for row in rows]
