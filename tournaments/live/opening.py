"""Opening a live stream: which event and topics, what the page shows, the versions now.
 One place for the Django views (``views.live``, served under WSGI and for the
staff stream) and the ASGI fast path (``live.asgi``), which serves the public and the
players' streams without Django's request machinery: no thread and no database
connection held per open page.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings

from ..models import Event, EventStatus, Registration
from .stream import Stream, event_name
from .versions import FINISHED, OPTIONAL_PUBLIC, PUBLIC, current, player_topic


@dataclass(frozen=True)
class Opening:
    """A stream to open: its state and the versions now."""

    stream: Stream
    now: dict[str, int]


def known(query: Mapping[str, str], topics: frozenset[str]) -> dict[str, int]:
    """The version of each topic the page shows, from its query string (0: unknown)."""
    out = {}
    for topic in topics:
        value = query.get(event_name(topic), "")
        out[topic] = int(value) if value.isdigit() and len(value) < 19 else 0
    return out


def opening(
    event: Event, topics: frozenset[str], query: Mapping[str, str], *, ends: bool
) -> Opening:
    """The stream of ``topics`` at ``event`` for a page whose query string is ``query``;
    ``ends``: it closes when the event is finished. 1 query."""
    finished = ends and event.status == EventStatus.FINISHED
    now = current(event.pk, topics)
    return Opening(Stream(event.pk, topics, known(query, topics), finished=finished), now)


def public_opening(slug: str, query: Mapping[str, str]) -> Opening | None:
    """The public pages' stream (``clock`` and ``results`` when named in the query), or
    None for an unknown event. 2 queries."""
    event = Event.objects.filter(slug=slug).only("id", "status").first()
    if event is None:
        return None
    asked = {t for t in OPTIONAL_PUBLIC if t in query}
    return opening(event, frozenset({PUBLIC, FINISHED, *asked}), query, ends=True)


def player_opening(
    slug: str, token: str, query: Mapping[str, str], language: str = ""
) -> Opening | None:
    """A player's own page's stream (``public``, ``finished``, their ``me``; their table
    pushed in ``language`` with each public change), or None for an unknown token.
    2 queries."""
    reg = (
        Registration.objects.filter(event__slug=slug, report_token=token)
        .select_related("event")
        .only("id", "event__id", "event__status")
        .first()
    )
    if reg is None:
        return None
    topics = frozenset({PUBLIC, FINISHED, player_topic(reg.pk)})
    opened = opening(reg.event, topics, query, ends=True)
    opened.stream.seat = (slug, language or settings.LANGUAGE_CODE, token)
    return opened


def versions_body(opened: Opening) -> tuple[bytes, str]:
    """The ``?once=1`` answer (the polling fallback): the versions now as JSON, and its
    ETag (a poll that changes nothing is answered 304)."""
    body = {
        "versions": {event_name(t): v for t, v in sorted(opened.now.items())},
        "finished": opened.stream.finished,
    }
    data = json.dumps(body, sort_keys=True).encode()
    return data, '"' + hashlib.blake2b(data, digest_size=8).hexdigest() + '"'
