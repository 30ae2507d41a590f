"""Public pages as prebuilt responses: built once per change, served as stored bytes.

When a round posts at a large event every player reloads the pairings within seconds.
So the public pairings page (by table, by name) and the standings page are built once
per change as complete response bodies — the whole page and its ``live`` partial (what
an HTMX refresh asks for), each plain and gzipped, with an ETag — and a request reads
only the stored bytes: no database query, no template render (``views.prebuilt``).

Layout in the cache (``TolerantRedisCache``: an unreachable Redis is a miss):

- ``matchslip:pub:<slug>`` — the *pointer*: the current version, when it was built and
  every body's ETag (a revalidation, ``If-None-Match``, reads only this).
- ``matchslip:pub:<slug>:<version>:<page>:<variant>:<encoding>`` — one body's bytes.
- ``…:<version>:names`` — every seated player's (name, table, opponent …), compact,
  for "Find my table"; ``…:<version>:seat:<report token>`` — one player's own table.

Every change that alters what those pages show calls :func:`public_pages_changed` in its
transaction (round publish, discard, re-pair, completion, a correction, a standings
snapshot, an import): it drops the pointer at once and after commit builds a new version
and then sets the pointer, so a reader sees the old set, the new one or a render from
PostgreSQL, never a mix. A request that finds no pointer (Redis emptied, restarted or
down) renders from PostgreSQL as before and, when it can take a short build lock (never
while Redis is down), builds the set for the next requests; that lazy build only *adds*
the pointer, so it never replaces a newer one written by a change meanwhile.

Pages are built by calling their own views with a synthetic anonymous request (as a
warming reverse proxy would), so the prebuilt page is byte for byte what the view
renders; the views are named by URL (``PAGES``), which also keeps this module free of
the ``standings`` app.
"""

from __future__ import annotations

import gzip
import hashlib
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.test import RequestFactory
from django.urls import resolve, reverse
from django.utils import timezone
from django_htmx.middleware import HtmxDetails

from .models import Event, Registration
from .public_cache import pairings_fragment_store
from .selectors import (
    NameEntry,
    current_public_rounds,
    names_for_public,
    seats_for_public,
    tables_by_registration,
)

TIMEOUT = 3 * 24 * 3600  # seconds; an event lasts a day or two
BUILD_LOCK_SECONDS = 30
# page name → (URL name, query string): the prebuilt pages. Any other query is rendered.
PAGES: dict[str, tuple[str, dict[str, str]]] = {
    "pairings-table": ("public:pairings", {}),
    "pairings-name": ("public:pairings", {"by": "name"}),
    "standings": ("public:standings", {}),
}
VARIANTS = ("page", "live")  # the whole page; its ``live`` partial (an HTMX refresh)
ENCODINGS = ("plain", "gzip")
NameRow = tuple[str, int | None, str, str, str, int]  # a NameEntry's fields, in order


@dataclass(frozen=True)
class Pointer:
    """The current prebuilt version of an event's public pages."""

    version: str
    event_id: int
    built_at: datetime
    etags: dict[str, str]  # "<page>:<variant>:<encoding>" → quoted ETag


def pointer_key(slug: str) -> str:
    return f"matchslip:pub:{slug}"


def _versioned(slug: str, version: str, part: str) -> str:
    return f"matchslip:pub:{slug}:{version}:{part}"


def _body_part(page: str, variant: str, encoding: str) -> str:
    return f"{page}:{variant}:{encoding}"


def _seat_part(token: str) -> str:
    return f"seat:{token}"


def _lock_key(slug: str) -> str:
    return f"matchslip:pub:{slug}:building"


def etag_for(body: bytes, encoding: str = "plain") -> str:
    """A strong ETag of ``body``; the gzip representation gets its own (RFC 9110 §8.8.3)."""
    digest = hashlib.blake2b(body, digest_size=12).hexdigest()
    return f'"{digest}-gz"' if encoding == "gzip" else f'"{digest}"'


def gzip_bytes(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=6, mtime=0)


def _render(slug: str, page: str, variant: str, built_at: datetime) -> bytes:
    """The body the view answers to an anonymous GET of ``page`` (``live``: an HTMX
    refresh). ``prebuilding`` makes the view render instead of serving stored bytes."""
    name, params = PAGES[page]
    headers = {"HX-Request": "true"} if variant == "live" else {}
    request = RequestFactory().get(reverse(name, args=[slug]), params, headers=headers)
    request.user = AnonymousUser()
    request.htmx = HtmxDetails(request)
    request.prebuilding = True
    request.prebuilt_at = built_at
    match = resolve(request.path_info)
    response = match.func(request, *match.args, **match.kwargs)
    if response.status_code != 200:
        raise RuntimeError(f"{request.path} answered {response.status_code} while prebuilding")
    return response.content


def _row(e: NameEntry) -> NameRow:
    return (e.name, e.table, e.opponent, e.round_label, e.note, e.seat)


def _build(event: Event) -> tuple[Pointer, dict[str, Any]]:
    """Every prebuilt body, the name list and each player's table of ``event`` (by key
    part, :func:`_versioned`), and the pointer to them. About 10 queries, plus those of
    the page views."""
    version = f"{time.time_ns():x}"
    built_at = timezone.now()
    slug = event.slug
    values: dict[str, Any] = {}
    etags: dict[str, str] = {}
    for page in PAGES:
        for variant in VARIANTS:
            plain = _render(slug, page, variant, built_at)
            for encoding, body in (("plain", plain), ("gzip", gzip_bytes(plain))):
                values[_body_part(page, variant, encoding)] = body
                etags[f"{page}:{variant}:{encoding}"] = etag_for(plain, encoding)
    views = seats_for_public(event, current_public_rounds(event))
    values["names"] = [_row(e) for e in names_for_public(views)]
    tables = tables_by_registration(views)
    tokens = Registration.objects.filter(event=event).values_list("pk", "report_token")
    for reg_id, token in tokens:
        values[_seat_part(token)] = [_row(e) for e in tables.get(reg_id, [])]
    return Pointer(version, event.pk, built_at, etags), values


def _store(event: Event, *, replace: bool) -> Pointer:
    """Write a new version, then point to it; a replaced version's keys are deleted (a
    request that read the old pointer just before then renders from PostgreSQL)."""
    slug = event.slug
    new, values = _build(event)
    cache.set_many({_versioned(slug, new.version, k): v for k, v in values.items()}, TIMEOUT)
    if not replace:
        cache.add(pointer_key(slug), new, TIMEOUT)
        return new
    old: Pointer | None = cache.get(pointer_key(slug))
    cache.set(pointer_key(slug), new, TIMEOUT)
    if old is not None and old.version != new.version:
        cache.delete_many([_versioned(slug, old.version, k) for k in values])
    return new


def public_pages_changed(event_id: int, *, pairings: bool = True) -> None:
    """What the event's public pages show is changing in this transaction: drop the
    current prebuilt pages now (until commit, requests render from PostgreSQL) and
    rebuild them after commit (``pairings``: the pairings fragment too). 1 query."""
    slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
    if slug is not None:
        public_pages_forget(slug)
    transaction.on_commit(lambda: public_pages_refresh(event_id, pairings=pairings))


def public_pages_refresh(event_id: int, *, pairings: bool = True) -> Pointer:
    """Rebuild the event's prebuilt public pages (``pairings``: and first its pairings
    fragment, ``public_cache``) and make them current. With the cache down it stores
    nothing, harmlessly."""
    if pairings:
        pairings_fragment_store(event_id)
    return _store(Event.objects.get(pk=event_id), replace=True)


def public_pages_fill(slug: str) -> None:
    """After a request found no prebuilt pages: build them, unless another request is
    already building or the cache is unreachable (the lock cannot be taken)."""
    if not cache.add(_lock_key(slug), 1, BUILD_LOCK_SECONDS):
        return
    try:
        event = Event.objects.filter(slug=slug).first()
        if event is not None:
            _store(event, replace=False)
    finally:
        cache.delete(_lock_key(slug))


def public_pages_forget(slug: str) -> None:
    """Drop the pointer: the next request renders from PostgreSQL (and builds again)."""
    cache.delete(pointer_key(slug))


def pointer(slug: str) -> Pointer | None:
    return cache.get(pointer_key(slug))


def body(slug: str, current: Pointer, page: str, variant: str, encoding: str) -> bytes | None:
    return cache.get(_versioned(slug, current.version, _body_part(page, variant, encoding)))


def names(slug: str, current: Pointer) -> list[NameEntry] | None:
    """Every seated player of the current rounds, alphabetical; None when not stored."""
    rows: list[NameRow] | None = cache.get(_versioned(slug, current.version, "names"))
    return None if rows is None else [NameEntry(*row) for row in rows]


def seat(slug: str, current: Pointer, token: str) -> list[NameEntry] | None:
    """Where the player with ``token`` sits (empty: not seated); None when not stored."""
    rows: list[NameRow] | None = cache.get(_versioned(slug, current.version, _seat_part(token)))
    return None if rows is None else [NameEntry(*row) for row in rows]
