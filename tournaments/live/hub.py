"""One hub per process: the open live connections of this process and the changes they
wait for.

A *listener* is one open page's connection: an event, the topics it follows and a
``deliver`` callable. Changes reach the hub three ways, and a listener is given each
version once whatever the way:

- from this process, at once (``versions.bump``: the embedded ``make run`` server, whose
  slips and pairings are made in the same process);
- from other processes through Redis pub/sub (when ``REDIS_URL`` is set: web, ASGI and
  Celery processes of a production install), within milliseconds;
- by reading the ``LiveVersion`` rows changed lately, every ``POLL_SECONDS`` while any
  listener is open: a management command, a process without Redis, or a lost pub/sub
  message are seen within that time. This read is the truth; the other two are speed.

The hub's threads are daemons started with the first listener; the reading thread opens
a database connection per read and closes it again (so a test database can always be
dropped and a database restart costs nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connections
from django.utils import timezone

from ..models import LiveVersion
from .seats import SeatChange, seat_html
from .topics import PUBLIC, Change, channel, encode, parse

POLL_SECONDS = 1.0  # how often a process reads the changed rows while listeners are open
MARGIN = dt.timedelta(seconds=5)  # rows changed this long before the last read: clocks differ
log = logging.getLogger(__name__)


@dataclass(eq=False)
class Listener:
    """One open connection: ``event_id``, the ``topics`` it follows, and ``deliver``
    (called from any thread with a list of changes for it); ``seat`` (a player's page:
    ``(event slug, language, report token)``) has their table pushed with each public
    change (``live.seats``)."""

    event_id: int
    topics: frozenset[str]
    deliver: Callable[[list[Change]], None]
    closed: bool = field(default=False)
    seat: tuple[str, str, str] | None = None
    loop: asyncio.AbstractEventLoop | None = None  # an ASGI connection's, with its inbox
    inbox: asyncio.Queue | None = None


def thread_listener(
    event_id: int, topics: Iterable[str], seat: tuple[str, str, str] | None = None
) -> tuple[Listener, queue.SimpleQueue]:
    """A listener for a WSGI thread, and the queue its changes arrive on (``None``: the
    hub is stopping)."""
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    return Listener(event_id, frozenset(topics), inbox.put, seat=seat), inbox


def loop_listener(
    event_id: int, topics: Iterable[str], seat: tuple[str, str, str] | None = None
) -> tuple[Listener, asyncio.Queue]:
    """A listener for an ASGI connection on the running event loop, and the queue its
    changes arrive on (``None``: the hub is stopping)."""
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue = asyncio.Queue()

    def deliver(changes: list[Change] | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the connection is gone
            loop.call_soon_threadsafe(inbox.put_nowait, changes)

    return Listener(event_id, frozenset(topics), deliver, seat=seat, loop=loop, inbox=inbox), inbox


class Hub:
    """The listeners of this process by event, the last version seen of every topic, and
    the threads that learn of other processes' changes."""

    def __init__(self, poll_seconds: float = POLL_SECONDS) -> None:
        self.poll_seconds = poll_seconds
        self._lock = threading.Lock()
        self._listeners: dict[int, set[Listener]] = {}
        self._seen: dict[tuple[int, str], int] = {}
        self._started = False
        self._stop = threading.Event()
        self.reads = 0  # rows reads made (for tests and the benchmark)

    # listeners -------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> dict[str, int]:
        """Add ``listener``; returns the versions this hub has seen of its topics, so a
        change handed out just before it subscribed is not missed (the caller compares
        them with what its page knows)."""
        with self._lock:
            self._listeners.setdefault(listener.event_id, set()).add(listener)
            if not self._started:
                self._start()
            seen = {t: self._seen.get((listener.event_id, t), 0) for t in listener.topics}
        return seen

    def unsubscribe(self, listener: Listener) -> None:
        listener.closed = True
        with self._lock:
            group = self._listeners.get(listener.event_id)
            if group is not None:
                group.discard(listener)
                if not group:
                    del self._listeners[listener.event_id]

    def count(self) -> int:
        """Open listeners in this process."""
        with self._lock:
            return sum(len(g) for g in self._listeners.values())

    # changes ---------------------------------------------------------------------------
    def publish(self, changes: Iterable[Change]) -> None:
        """Hand every change newer than the one last seen of its topic to the listeners
        of its event that follow it. Safe from any thread."""
        fresh: dict[int, list[Change]] = {}
        with self._lock:
            for c in changes:
                key = (c.event_id, c.topic)
                if self._seen.get(key, 0) >= c.version:
                    continue
                self._seen[key] = c.version
                fresh.setdefault(c.event_id, []).append(c)
            targets = [(list(self._listeners.get(e, ())), cs) for e, cs in fresh.items()]
        for listeners, cs in targets:
            # Pages without a table to push are told first; the players' tables are read
            # (one cache read for all of them) and sent after.
            players = [x for x in listeners if x.seat is not None]
            _deliver([x for x in listeners if x.seat is None], cs, {})
            if players:
                _deliver(players, cs, _seats(players, cs))

    def stop(self) -> None:
        """End every open stream of this process (each gets ``None``) and stop reading;
        the next listener starts the hub again."""
        with self._lock:
            listeners = [x for g in self._listeners.values() for x in g]
            self._listeners.clear()
            self._stop.set()
            self._started = False
        for listener in listeners:
            listener.deliver(None)  # type: ignore[arg-type]

    # threads ---------------------------------------------------------------------------
    def _start(self) -> None:
        self._stop = threading.Event()
        self._started = True
        stop = self._stop
        threading.Thread(
            target=self._read_loop, args=(stop,), name="live-read", daemon=True
        ).start()
        if getattr(settings, "REDIS_URL", ""):
            threading.Thread(
                target=self._redis_loop, args=(stop,), name="live-redis", daemon=True
            ).start()

    def _read_loop(self, stop: threading.Event) -> None:
        since = timezone.now() - MARGIN
        while not stop.wait(self.poll_seconds):
            if not self.count():
                continue
            started = timezone.now()
            try:
                self.publish(read_changed(since))
                since = started - MARGIN
            except Exception:  # noqa: BLE001 - the database is down: try again next second
                log.warning("Live pages: could not read changes", exc_info=True)
            finally:
                connections.close_all()  # this thread's only: one connection per read
            self.reads += 1

    def _redis_loop(self, stop: threading.Event) -> None:
        import redis

        while not stop.is_set():
            try:
                client = redis.Redis.from_url(
                    settings.REDIS_URL, socket_connect_timeout=1, health_check_interval=10
                )
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(channel())
                while not stop.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self.publish(parse(message["data"]))
                pubsub.close()
            except Exception:  # noqa: BLE001 - Redis down: the table read still carries changes
                log.info("Live pages: Redis pub/sub unavailable, reading the table only")
                stop.wait(2.0)


def _deliver(
    listeners: list[Listener], changes: list[Change], pushed: dict[Listener, Change]
) -> None:
    """Hand each listener the changes it follows (a pushed table first). Listeners on an
    event loop are handed theirs in one wake-up of that loop: a few thousand open pages
    cost one callback, not a few thousand."""
    batches: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Queue, list[Change]]]] = {}
    for listener in listeners:
        mine = [c for c in changes if c.topic in listener.topics]
        if listener in pushed:
            mine.insert(0, pushed[listener])
        if not mine or listener.closed:
            continue
        if listener.loop is not None and listener.inbox is not None:
            batches.setdefault(listener.loop, []).append((listener.inbox, mine))
        else:
            listener.deliver(mine)
    for loop, batch in batches.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: its connections are gone
            loop.call_soon_threadsafe(_put_all, batch)


def _put_all(batch: list[tuple[asyncio.Queue, list[Change]]]) -> None:
    for inbox, changes in batch:
        inbox.put_nowait(changes)


def _seats(listeners: list[Listener], changes: list[Change]) -> dict[Listener, Change]:
    """For a public change: each player page's own table (``live.seats``), read for all
    of this event's player pages at once; a table not stored is asked to be fetched
    (``html`` empty). A cache failure costs only the push: every page is asked to fetch."""
    public = next((c for c in changes if c.topic == PUBLIC), None)
    players = [x for x in listeners if x.seat is not None and not x.closed]
    if public is None or not players:
        return {}
    seats = {x: x.seat for x in players if x.seat is not None}
    slug = next(iter(seats.values()))[0]
    try:
        html = seat_html(slug, [(lang, token) for _slug, lang, token in seats.values()])
    except Exception:  # noqa: BLE001 - the cache is down: the pages fetch their tables
        log.warning("Live pages: could not read the players' tables", exc_info=True)
        html = {}
    return {
        x: SeatChange(public.event_id, "seat", public.version, html.get((lang, token), ""))
        for x, (_slug, lang, token) in seats.items()
    }


def read_changed(since: dt.datetime) -> list[Change]:
    """Every topic changed after ``since``, at its version now. 1 query."""
    rows = LiveVersion.objects.filter(changed_at__gt=since).values_list(
        "event_id", "topic", "version"
    )
    return [Change(e, t, int(v)) for e, t, v in rows]


_redis_client = None
_redis_down_until = 0.0


def publish_redis(changes: list[Change]) -> None:
    """Tell the other processes through Redis pub/sub (no-op without ``REDIS_URL``). A
    failure is logged and skipped for 10 s: their table read carries the change."""
    global _redis_client, _redis_down_until
    url = getattr(settings, "REDIS_URL", "")
    if not url or not changes or time.monotonic() < _redis_down_until:
        return
    try:
        if _redis_client is None:
            import redis

            _redis_client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        _redis_client.publish(channel(), encode(changes))
    except Exception:  # noqa: BLE001
        _redis_down_until = time.monotonic() + 10
        log.info("Live pages: Redis publish failed; other processes read the table")


_hub: Hub | None = None
_hub_lock = threading.Lock()


def hub() -> Hub:
    """This process's hub."""
    global _hub
    with _hub_lock:
        if _hub is None:
            _hub = Hub()
        return _hub
