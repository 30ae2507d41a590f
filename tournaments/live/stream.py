"""The server-sent-events answer a live page holds open.

The wire format is plain SSE (``text/event-stream``), read in the browser by the htmx
SSE extension through ``static/js/live.js``. Each message names what changed and its
version: ``event: public`` / ``data: 17``. A page's topics are named ``public``,
``staff``, ``clock``, ``finished`` and, on a player's own page, ``me`` (their
``reg:<id>`` topic). A connection begins with ``hello`` (its topics' versions now, so
the page can tell push works) and, at once, every topic newer than the versions the page
said it shows (the query string): a page shown after a hidden spell or a lost connection
catches up at once. Comments (``: ping``) every ``KEEPALIVE_SECONDS`` keep proxies from
closing an idle connection; after ``LIFETIME_SECONDS`` the server ends the stream and
the page connects again (a process restart or a scaled-down replica costs the same).

``events_sync`` serves a WSGI thread (``make run``, the tests' live server);
``events_async`` serves an ASGI connection (uvicorn) on the event loop. Both wait on
the process's hub (``hub.py``) and share :class:`Stream`.
"""

from __future__ import annotations

import asyncio
import json
import queue
import time
from collections.abc import AsyncGenerator, Iterator
from dataclasses import dataclass, field

from .hub import hub, loop_listener, thread_listener
from .topics import FINISHED, PLAYER_PREFIX, PUBLIC, Change

KEEPALIVE_SECONDS = 15
LIFETIME_SECONDS = 600
RETRY_MS = 2000  # the browser's wait before it connects again after a drop
# The answer's headers: an event stream, never stored, passed on at once by nginx.
STREAM_HEADERS = (("Cache-Control", "no-cache, no-store"), ("X-Accel-Buffering", "no"))
# Pages whose refresh needs the database (a player's own section) spread it over
# ``open connections / SPREAD_PER_SECOND`` seconds, at most ``SPREAD_MAX_SECONDS``: the
# prebuilt public pages and a player's table need no spreading.
SPREAD_PER_SECOND = 500
SPREAD_MAX_SECONDS = 10.0


def spread() -> float:
    """Seconds over which this process's open pages should spread a database fetch."""
    return round(min(SPREAD_MAX_SECONDS, hub().count() / SPREAD_PER_SECOND), 1)


def event_name(topic: str) -> str:
    """A topic's name on the wire: ``reg:<id>`` is ``me`` (only its player listens)."""
    return "me" if topic.startswith(PLAYER_PREFIX) else topic


@dataclass
class Stream:
    """One connection's state: the event, its topics and the version of each that the
    page shows (``known``, from the query string, then from what was sent)."""

    event_id: int
    topics: frozenset[str]
    known: dict[str, int]
    finished: bool = False
    seat: tuple[str, str, str] | None = None  # a player's page: (slug, language, token)
    done: bool = field(default=False, init=False)

    def opening(self, now: dict[str, int]) -> bytes:
        """``retry``, ``hello`` with the versions now, then every topic newer than the
        page's (and ``finished`` when the event is over)."""
        hello: dict[str, object] = {
            "versions": {event_name(t): v for t, v in sorted(now.items())},
            "spread": spread(),
        }
        head = f"retry: {RETRY_MS}\nevent: hello\ndata: {json.dumps(hello)}\n\n".encode()
        body = self.newer(now)
        if self.finished:
            self.done = True
            body += b"event: finished\ndata: 1\n\n"
        return head + body

    def newer(self, versions: dict[str, int]) -> bytes:
        """Messages for the topics of ``versions`` newer than known (known grows), each
        ``data: <version> <spread seconds>``; ``finished`` last, so a page refreshes
        before its stream closes."""
        out = []
        wait = None
        for topic, version in sorted(versions.items(), key=lambda tv: (tv[0] == FINISHED, tv[0])):
            if topic in self.topics and version > self.known.get(topic, 0):
                self.known[topic] = version
                wait = spread() if wait is None else wait
                out.append(f"event: {event_name(topic)}\ndata: {version} {wait}\n\n")
                if topic == FINISHED:
                    self.done = True
        return "".join(out).encode()

    def changes(self, changes: list[Change]) -> bytes:
        """Messages for ``changes``; a player's table (``seat``: its HTML, or
        ``seatfetch`` when it must be fetched) comes before the public notice it goes
        with, and only with a public change newer than the page's."""
        head = ""
        for c in changes:
            if c.topic == "seat" and c.version > self.known.get(PUBLIC, 0):
                html = getattr(c, "html", "")
                if html:
                    head += f"event: seat\ndata: {html}\n\n"
                else:
                    head += f"event: seatfetch\ndata: {c.version}\n\n"
        rest = self.newer({c.topic: c.version for c in changes if c.topic != "seat"})
        return head.encode() + rest


def events_sync(stream: Stream, now: dict[str, int]) -> Iterator[bytes]:
    """The stream for a WSGI server thread: blocks on a queue between messages."""
    listener, inbox = thread_listener(stream.event_id, stream.topics, stream.seat)
    seen = hub().subscribe(listener)
    try:
        yield stream.opening(now) + stream.newer(seen)
        end = time.monotonic() + LIFETIME_SECONDS
        while not stream.done and (left := end - time.monotonic()) > 0:
            try:
                changes = inbox.get(timeout=min(KEEPALIVE_SECONDS, left))
            except queue.Empty:
                yield b": ping\n\n"
                continue
            if changes is None:  # the hub stops (tests, shutdown)
                return
            out = stream.changes(changes)
            if out:
                yield out
    finally:
        hub().unsubscribe(listener)


async def events_async(stream: Stream, now: dict[str, int]) -> AsyncGenerator[bytes, None]:
    """The stream for an ASGI connection: waits on the event loop, costing no thread.
    A client that goes away cancels it (Django's ASGI handler)."""
    listener, inbox = loop_listener(stream.event_id, stream.topics, stream.seat)
    seen = hub().subscribe(listener)
    try:
        yield stream.opening(now) + stream.newer(seen)
        end = time.monotonic() + LIFETIME_SECONDS
        while not stream.done and (left := end - time.monotonic()) > 0:
            try:
                changes = await asyncio.wait_for(inbox.get(), min(KEEPALIVE_SECONDS, left))
            except TimeoutError:
                yield b": ping\n\n"
                continue
            if changes is None:
                return
            out = stream.changes(changes)
            if out:
                yield out
    finally:
        hub().unsubscribe(listener)
