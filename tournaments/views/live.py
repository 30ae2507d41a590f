"""The live streams pages hold open, and their polling fallback (issue 19).

``/e/<event>/live/`` (public pages: topics ``public`` and ``finished``; ``clock`` and
``results`` when asked for by name, as the projector does),
``/e/<event>/p/<token>/live/`` (a player's own page: ``public``, ``finished`` and their
own ``me``) and ``/e/<event>/staff/live/`` (staff pages, any staff role: ``staff`` and
``clock``; a staff stream stays open after the event finishes, as judges may still
correct within the window). The query string gives the versions the page shows
(``?public=12&me=3``). ``?once=1`` answers the versions now as JSON instead of a stream:
the fallback a page polls when push does not get through (a buffering proxy).

Under ASGI the stream waits on the event loop; under WSGI (``make run``, the tests' live
server) on a thread (``live.stream``). The database connection is given back before the
stream starts: an open page holds no connection.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    JsonResponse,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from .. import live
from ..live.stream import Stream, event_name, events_async, events_sync
from ..models import Event, EventStatus, Registration
from ..permissions import event_staff_required


def _known(request: HttpRequest, topics: Iterable[str]) -> dict[str, int]:
    """The version of each topic the page shows, from its query string (0: unknown)."""
    out = {}
    for topic in topics:
        value = request.GET.get(event_name(topic), "")
        out[topic] = int(value) if value.isdigit() and len(value) < 19 else 0
    return out


def _answer(
    request: HttpRequest, event: Event, topics: frozenset[str], *, ends: bool
) -> HttpResponse:
    """The stream (or, with ``once``, the JSON versions) of ``topics`` at ``event``;
    ``ends``: the stream closes when the event is finished. 1 query."""
    now = live.current(event.pk, topics)
    finished = ends and event.status == EventStatus.FINISHED
    if request.GET.get("once"):
        return _versions(request, now, finished)
    if not connection.in_atomic_block:
        connection.close()  # an open page holds no database connection
    stream = Stream(event.pk, topics, _known(request, topics), finished=finished)
    if isinstance(request, ASGIRequest):
        body = events_async(stream, now)
    else:
        body = events_sync(stream, now)
    streaming = StreamingHttpResponse(body, content_type="text/event-stream")
    streaming["Cache-Control"] = "no-cache, no-store"
    streaming["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return streaming  # type: ignore[return-value]


def _versions(request: HttpRequest, now: dict[str, int], finished: bool) -> HttpResponse:
    """The versions now as JSON, with an ETag: a poll that changes nothing is a 304."""
    body = {"versions": {event_name(t): v for t, v in sorted(now.items())}, "finished": finished}
    etag = (
        '"'
        + hashlib.blake2b(json.dumps(body, sort_keys=True).encode(), digest_size=8).hexdigest()
        + '"'
    )
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = JsonResponse(body)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"  # revalidated every time: a 304 while nothing changed
    return response


@require_safe
def public_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The public pages' stream: pairings, standings, bracket, event page; the clock and
    results too when the query string names them (the projector)."""
    event = get_object_or_404(Event, slug=slug)
    asked = {t for t in live.OPTIONAL_PUBLIC if t in request.GET}
    return _answer(request, event, frozenset({live.PUBLIC, live.FINISHED, *asked}), ends=True)


@require_safe
def player_live(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """A player's own page's stream: the public topic and their own (``me``)."""
    reg = get_object_or_404(
        Registration.objects.select_related("event"), event__slug=slug, report_token=token
    )
    topics = frozenset({live.PUBLIC, live.FINISHED, live.player_topic(reg.pk)})
    return _answer(request, reg.event, topics, ends=True)


@require_safe
@event_staff_required("audit")
def staff_live(request: HttpRequest, event: Event) -> HttpResponse:
    """The staff pages' stream (any staff role): every change, and the clock."""
    return _answer(request, event, frozenset({live.STAFF, live.CLOCK}), ends=False)
