"""The live streams pages hold open, and their polling fallback.

``/e/<event>/live/`` (public pages: topics ``public`` and ``finished``; ``clock`` and
``results`` when asked for by name, as the projector does),
``/e/<event>/p/<token>/live/`` (a player's own page: ``public``, ``finished`` and their
own ``me``) and ``/e/<event>/staff/live/`` (staff pages, any staff role: ``staff`` and
``clock``; a staff stream stays open after the event finishes, as judges may still
correct within the window). The query string gives the versions the page shows
(``?public=12&me=3``). ``?once=1`` answers the versions now as JSON instead of a stream:
the fallback a page polls when push does not get through (a buffering proxy).

Under WSGI (``make run``, the tests' live server) a stream waits on a thread
(``live.stream``); under ASGI the public and players' streams are served before Django
by ``live.asgi`` (no thread per open page), and the staff stream, which needs the
session, by this view on the event loop. The database connection is given back before
the stream starts: an open page holds no connection.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.utils import translation
from django.views.decorators.http import require_safe

from .. import live
from ..live.opening import Opening, opening, player_opening, public_opening, versions_body
from ..live.stream import STREAM_HEADERS, events_async, events_sync
from ..models import Event
from ..permissions import event_staff_required


def _answer(request: HttpRequest, opened: Opening | None) -> HttpResponseBase:
    """The stream (or, with ``once``, the JSON versions) ``opened`` describes; 404 when
    there is none (an unknown event or token)."""
    if opened is None:
        raise Http404
    if request.GET.get("once"):
        data, etag = versions_body(opened)
        if etag in request.headers.get("If-None-Match", ""):
            response: HttpResponse = HttpResponseNotModified()
        else:
            response = HttpResponse(data, content_type="application/json")
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"  # revalidated each time: a 304 while unchanged
        return response
    if not connection.in_atomic_block:
        connection.close()  # an open page holds no database connection
    body: AsyncIterator[bytes] | Iterator[bytes]
    if isinstance(request, ASGIRequest):
        body = events_async(opened.stream, opened.now)
    else:
        body = events_sync(opened.stream, opened.now)
    streaming = StreamingHttpResponse(body, content_type="text/event-stream")
    for name, value in STREAM_HEADERS:
        streaming[name] = value
    return streaming


@require_safe
def public_live(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The public pages' stream: pairings, standings, bracket, event page; the clock and
    results too when the query string names them (the projector)."""
    return _answer(request, public_opening(slug, request.GET))


@require_safe
def player_live(request: HttpRequest, slug: str, token: str) -> HttpResponseBase:
    """A player's own page's stream: the public topic and their own (``me``)."""
    opened = player_opening(slug, token, request.GET, translation.get_language())
    return _answer(request, opened)


@require_safe
@event_staff_required("audit")
def staff_live(request: HttpRequest, event: Event) -> HttpResponseBase:
    """The staff pages' stream (any staff role): every change, and the clock."""
    topics = frozenset({live.STAFF, live.CLOCK})
    return _answer(request, opening(event, topics, request.GET, ends=False))
