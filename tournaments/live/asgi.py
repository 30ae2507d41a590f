"""The public and players' live streams served before Django under ASGI.

Through Django's ASGI handler every request runs its middleware and view on a thread of
its own, kept for as long as the request lasts: for a stream, as long as the page is
open, so 3,000 phones meant 3,000 threads and a new database connection each. This
router answers ``/e/<event>/live/`` and ``/e/<event>/p/<token>/live/`` itself: the opening
(two small queries, ``live.opening``) runs on a shared pool of threads, and the stream
then waits on the event loop
(``stream.events_async``) until the page goes away. Everything else, the staff stream
included (it needs the session), goes to Django.

The answers carry what the Django view's carry (``views.live``): the event stream with
``STREAM_HEADERS``, or ``?once=1``'s JSON versions with an ETag, or 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable, Mapping
from http.cookies import SimpleCookie
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qsl

from asgiref.sync import sync_to_async
from django.db import DatabaseError, close_old_connections, connection
from django.utils import translation

from .opening import Opening, player_opening, public_opening, versions_body
from .stream import STREAM_HEADERS, events_async

# As Django's ASGI handler takes them, so that it fits where an ASGIApp goes.
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LIVE_PATH = re.compile(r"^/e/(?P<slug>[-a-zA-Z0-9_]+)/(?:p/(?P<token>[^/]+)/)?live/$")


def _open(
    slug: str, token: str | None, query: dict[str, str], language: str = ""
) -> Opening | None:
    """The opening, on a pool thread. Its database connection follows ``CONN_MAX_AGE`` as
    a request's does (closed after each opening by default; kept between openings with
    ``?conn_max_age=60`` in ``DATABASE_URL``, which the compose file's ``live`` service
    sets: a few pool threads, a few connections, however many phones). A connection the
    database dropped is opened again once."""
    close_old_connections()
    try:
        for attempt in (1, 2):
            try:
                if token is None:
                    return public_opening(slug, query)
                return player_opening(slug, token, query, language)
            except DatabaseError:
                connection.close()
                if attempt == 2:
                    raise
        return None
    finally:
        close_old_connections()


_open_async = sync_to_async(_open, thread_sensitive=False)


def live_router(django: ASGIApp) -> ASGIApp:
    """``django`` with the public and players' live streams answered before it."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        match = None
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            match = LIVE_PATH.match(scope["path"])
        if match is None:
            await django(scope, receive, send)
            return
        await serve(scope, receive, send, match["slug"], match["token"])

    return app


async def _answer(send: Send, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def serve(scope: Scope, receive: Receive, send: Send, slug: str, token: str | None) -> None:
    """One live request: 404, the JSON versions, or the stream until the page goes."""
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
    opened = await _open_async(slug, token, query, _language(scope))
    if opened is None:
        await _answer(send, 404, [("Content-Type", "text/plain")], b"Not found")
        return
    if query.get("once"):
        data, etag = versions_body(opened)
        headers = [("ETag", etag), ("Cache-Control", "no-cache")]
        offered = dict(scope.get("headers", [])).get(b"if-none-match", b"").decode("latin-1")
        if etag in offered:
            await _answer(send, 304, headers, b"")
        else:
            await _answer(send, 200, [("Content-Type", "application/json"), *headers], data)
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"text/event-stream")]
            + [(k.lower().encode(), v.encode()) for k, v in STREAM_HEADERS],
        }
    )
    body = events_async(opened.stream, opened.now)
    gone = asyncio.ensure_future(_until_disconnect(receive))
    try:
        while True:
            chunk = asyncio.ensure_future(body.__anext__())
            await asyncio.wait({chunk, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not chunk.done():  # the page went away while the stream waited
                chunk.cancel()
                with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                    await chunk  # the generator ends (its listener leaves the hub)
                return
            try:
                data = chunk.result()
            except StopAsyncIteration:
                break
            await send({"type": "http.response.body", "body": data, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    finally:
        gone.cancel()
        await body.aclose()


def _language(scope: Scope) -> str:
    """The visitor's language as ``LocaleMiddleware`` chooses it: the language cookie,
    else ``Accept-Language``, else ``LANGUAGE_CODE`` (a player's pushed table is in it)."""
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
    cookies: SimpleCookie = SimpleCookie()
    with contextlib.suppress(Exception):
        cookies.load(headers.get("cookie", ""))
    shim = SimpleNamespace(
        COOKIES={k: m.value for k, m in cookies.items()},
        META={"HTTP_ACCEPT_LANGUAGE": headers.get("accept-language", "")},
    )
    return translation.get_language_from_request(shim)  # type: ignore[arg-type]


async def _until_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
