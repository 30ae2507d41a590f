"""Live pages under load: a round posted to a few thousand open phones.

Run on demand (not part of the test suite), on PostgreSQL and Redis::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python bench/live.py [--phones 3000] [--players 2048] \\
        [--page pairings|player|both] [--scorekeepers 20] [--slip-rate 10] [--seconds 240] \\
        [--fallback] [--player-part] [--clients N] [--proxy] [--keep]

With ``--proxy``, Debian's nginx must be installed (``apt-get install -y nginx``; the
system service is not used and need not run).

Diagnoses: ``--slip-rate 0`` (no slips: the push and the page fetches alone) and
``--notice-only`` (phones fetch nothing; "current" is the notice's arrival: the build
and the push alone).

What it builds, in a fresh database of its own (``<DATABASE_URL's name>_live``, dropped at
the end unless ``--keep``) and the Redis database of ``REDIS_URL`` (emptied first: use one
of your own):

- the *main event*: ``--players`` players, round 1 played and complete (results written
  in bulk, standings computed) and round 2 paired but not published;
- a *side event* on the same server, its round 1 started with every table pending, big
  enough for the whole slip load (about twice ``--slip-rate`` x the measured seconds
  players): its ``--scorekeepers`` scorekeepers (each an account of their own, signed in
  through the sign-in page with CSRF) enter its slips while the main event's phones
  wait. A second event running beside the big one is what a store or a convention has
  on a Saturday; its slips bump the side event's live topics (results, staff, the two
  players' own topics), which the stream server reads and hands to nobody here.

Then it starts, each in its own process group on 127.0.0.1 and stopped in a ``finally``
(SIGTERM, then SIGKILL): one uvicorn process serving the live streams (``config.asgi``,
uvloop, httptools, no access log), gunicorn with ``--workers 2 --threads 8`` (gthread)
for pages and slips, and one Celery worker (concurrency 1) for the public-page builds.
The file-descriptor limit is raised to its hard limit here and inherited by them.

With ``--proxy``, nginx is in front as in production: a process of its own
(``nginx -c <conf> -p <dir> -g 'daemon off;'``, in its own process group, stopped with
the others) on a free port (``--proxy-port``), its configuration ``deploy/nginx.conf``
with the upstreams (``$web``, ``$live``) set to gunicorn's and uvicorn's ports here, no
``resolver``, ``listen`` on 127.0.0.1 (``backlog=4096``, as the other servers here),
and the cache, temporary files, pid and error log in ``<logs>/nginx/`` (no access log).
Phones, scorekeepers and the organiser then talk only to nginx: the streams
(``/e/…/live/``) go unbuffered to uvicorn, the rest to gunicorn, the public pages
cached per their ``Cache-Control`` with ``proxy_cache_lock``. The line then has
``"proxy": true``, nginx's CPU and memory beside the other servers', the cache status
of the phones' fetches (``fetch_cache:HIT`` etc. in ``phone_statuses``, from
``X-Cache``) and the count of nginx's error-log lines per level (``nginx_log``).

The phones (asyncio on uvloop, raw HTTP/1.1; ``--clients`` processes, default one per
2,000 phones) each hold one stream on uvicorn: with ``--page both`` (the default) half
follow the public pairings page (``/e/<slug>/live/?public=<v>``) and half their own
player page (``/e/<slug>/p/<token>/live/?public=<v>&me=<v>``), with the versions the
page would show. On an ``event: public`` newer than they know, a pairings phone fetches
the page's ``#live`` partial on gunicorn (or nginx, ``--proxy``) on a new connection, as
htmx does (``?live=public-<v>``, ``HX-Request: true``, gzip). A player phone gets its own
table in the stream itself, just before the notice (``event: seat``, HTML:
tournaments/live/seats.py), or is asked to fetch it (``event: seatfetch``:
``/p/<token>/table/``). A phone is *current* when that body shows the new round (its
label, "Round 2"); a body without it counts as missed (``stale``).
With ``--player-part`` a player phone also fetches the rest of its page
(``/p/<token>/?part=live``) after a random wait within the spread the server sent, as
static/js/live.js does; those fetches are timed apart (``player_part``), not counted
in "current".

Once every phone has had its ``hello``, the scorekeepers enter slips at a steady total
``--slip-rate`` per second (HTMX posts to ``staff:match_result``, each scorekeeper every
``scorekeepers / slip-rate`` seconds, open loop), ``--warmup`` seconds later the main
event's organiser publishes round 2 (a POST to ``staff:round_publish``) and every phone's
publish-request-start to phone-current time is taken, until every phone is current or
the window ends (30 s; with ``--fallback`` the refresh interval + 30 s). The server
processes' CPU (utime+stime from /proc, from the first slip to the end of the window)
and memory (VmRSS at the end) are read for uvicorn, gunicorn (master and workers) and
Celery (main and pool process); the phone clients' CPU beside them shows whether the
client process was the bottleneck.

With ``--fallback`` the phones hold no stream: each polls ``?once=1`` on the same URL
(the stream server's, where ``/live/`` is routed) every ``PUBLIC_REFRESH_SECONDS``
(20 s, from a random phase; ``If-None-Match`` when an ETag was sent) and fetches its
page part the same way on a newer version.

Prints one JSON line (``"bench": "live_push"``, or ``"live_poll"`` with ``--fallback``):
phones, page, ``proxy``, the latency percentiles of the phones that got the new round (``p50_s``,
``p95_s``, ``p99_s``, ``max_s``), ``current`` and ``missed`` (with ``missed_why``), the
same split per page with ``--page both``, where the time goes (``notice_*``: publish to
the notice reaching the phone, which includes the build on the worker; ``fetch_*``:
notice to current), slips (``slips``, ``slip_p50_ms``, ``slip_p99_ms``, statuses),
``server_cpu_s``, ``server_rss_mb``, ``server_threads``, ``client_cpu_s``,
``machine_busy_pct``, ``load_avg`` (at the end of the window; ``load_avg_start`` before
the setup), the streams' opening (``connect_s``, uvicorn's CPU then and the PostgreSQL
sessions opened meanwhile, ``connect_pg_sessions``; ``window_pg_sessions`` likewise for
the measured window) and the HTTP statuses seen. 's
targets — phones p99 <= 3 s at 3,000 phones, slips p99 <= 300 ms — are reported, not
asserted. Exit status 1 only when a server failed to start, the run hit its bound
(``--seconds``, the whole run including the setup) or an answer was a 5xx.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import http.cookiejar
import json
import math
import os
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"
PASSWORD = secrets.token_urlsafe(16)
CONNECTING = 100  # phones opening their stream at once (the rest wait their turn)
RETRY_SECONDS = 2.0  # the stream's "retry: 2000": a dropped phone connects again
PUSH_WINDOW = 30.0  # seconds after the publish request that phones have to be current
GZIP_HEADER = "Accept-Encoding: gzip, deflate"


def raise_fd_limit() -> tuple[int, int]:
    """Raise this process's open-files limit to the hard limit (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def quantile(values: list[float], q: float) -> float | None:
    """The nearest-rank ``q`` quantile of ``values`` (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))]


# --- the phones: a child process of its own, asyncio, no Django -----------------------


def parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    """Status and lower-cased header fields of an HTTP/1.1 response head."""
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            fields[name.strip().lower()] = value.strip()
    return status, fields


async def body_parts(reader, fields: dict[str, str]):  # noqa: ANN001, ANN201 - asyncio stream
    """The body as it arrives: chunked, of a Content-Length, or to the end."""
    if "chunked" in fields.get("transfer-encoding", ""):
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await reader.readline()
                return
            data = await reader.readexactly(size + 2)
            yield data[:-2]
    elif "content-length" in fields:
        yield await reader.readexactly(int(fields["content-length"]))
    else:
        while data := await reader.read(65536):
            yield data


async def get(port: int, target: str, headers: list[str], timeout: float = 20.0):  # noqa: ANN201
    """One GET on a new connection (``Connection: close``): status, fields, body (gzip
    undone). Raises OSError or TimeoutError."""

    async def exchange() -> tuple[int, dict[str, str], bytes]:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            lines = [f"GET {target} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
            writer.write(("\r\n".join([*lines, *headers]) + "\r\n\r\n").encode())
            status, fields = parse_head(await reader.readuntil(b"\r\n\r\n"))
            body = b""
            if status not in (204, 304):
                body = b"".join([part async for part in body_parts(reader, fields)])
            if fields.get("content-encoding") == "gzip":
                body = gzip.decompress(body)
            return status, fields, body
        finally:
            writer.close()

    return await asyncio.wait_for(exchange(), timeout)


class Phones:
    """The phones of one client process. ``config``: ports, slug, the round label that
    means "current", the public version every page shows, the phones (``[page, report
    token, own version]``), the mode (``push`` or ``poll``) and the refresh interval."""

    def __init__(self, config: dict) -> None:
        self.cfg = config
        self.phones = config["phones"]
        self.label = config["label"].encode()
        self.hello = 0
        self.noticed = 0
        self.current = 0
        self.statuses: Counter[str] = Counter()
        self.records: list[dict] = [{} for _ in self.phones]
        self.part_ms: list[float] = []
        self.stop = asyncio.Event()
        self.gate = asyncio.Semaphore(CONNECTING)
        self.tasks: set = set()

    # a page part, fetched on a notice ------------------------------------------------
    def part(self, i: int, version: int) -> str:
        page, token, _ = self.phones[i]
        slug = self.cfg["slug"]
        if page == "pairings":
            return f"/e/{slug}/pairings/?live=public-{version}"
        return f"/e/{slug}/p/{token}/table/?live=public-{version}"

    def notice(self, i: int, version: int, spread: float) -> None:
        """A newer public version reached phone ``i``: fetch its part (once per
        version, as htmx swaps the element once)."""
        record = self.records[i]
        if "notice" not in record:
            record["notice"] = time.monotonic()
            self.noticed += 1
        if self.cfg["notice_only"]:  # a diagnosis: the push alone, no fetch
            if "current" not in record:
                record["current"] = record["notice"]
                self.current += 1
            return
        self.spawn(self.refresh(i, version))
        if self.cfg["player_part"] and self.phones[i][0] == "player":
            self.spawn(self.rest_of_page(i, version, random.uniform(0, max(0.0, spread))))

    def pushed(self, i: int, html: str) -> None:
        """A player's table arrived in their stream (``event: seat``): current when it
        shows the new round, with no request at all."""
        record = self.records[i]
        self.statuses["seat:pushed"] += 1
        if "notice" not in record:
            record["notice"] = time.monotonic()
            self.noticed += 1
        if "current" not in record and self.label.decode() in html:
            record["current"] = time.monotonic()
            record["fetch_ms"] = 0.0
            record.pop("why", None)
            self.current += 1

    def player_notice(self, i: int, version: int, spread: float) -> None:
        """A player's page's public notice: their table came (or is fetched) on its own
        message; the rest of the page refreshes within the spread (``--player-part``)."""
        record = self.records[i]
        if "notice" not in record:
            record["notice"] = time.monotonic()
            self.noticed += 1
        if self.cfg["player_part"]:
            self.spawn(self.rest_of_page(i, version, random.uniform(0, max(0.0, spread))))

    def spawn(self, coro) -> None:  # noqa: ANN001
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def refresh(self, i: int, version: int) -> None:
        record = self.records[i]
        started = time.monotonic()
        headers = ["HX-Request: true", GZIP_HEADER, "Accept: */*"]
        try:
            status, fields, body = await get(self.cfg["web_port"], self.part(i, version), headers)
        except (OSError, TimeoutError, ValueError) as e:
            self.statuses[f"fetch:{type(e).__name__}"] += 1
            record.setdefault("why", "fetch_failed")
            return
        self.statuses[f"fetch:{status}"] += 1
        if "x-cache" in fields:  # behind nginx (--proxy): HIT, MISS, EXPIRED, ...
            self.statuses[f"fetch_cache:{fields['x-cache']}"] += 1
        if "current" in record:
            return
        if status == 200 and self.label in body:
            record["current"] = time.monotonic()
            record["fetch_ms"] = (record["current"] - started) * 1000
            record.pop("why", None)
            self.current += 1
        else:
            record["why"] = "stale" if status == 200 else f"fetch_{status}"

    async def rest_of_page(self, i: int, version: int, wait: float) -> None:
        await asyncio.sleep(wait)
        _, token, _ = self.phones[i]
        target = f"/e/{self.cfg['slug']}/p/{token}/?part=live&live=public-{version}"
        started = time.monotonic()
        try:
            status, fields, _ = await get(
                self.cfg["web_port"], target, ["HX-Request: true", GZIP_HEADER]
            )
        except (OSError, TimeoutError, ValueError) as e:
            self.statuses[f"player_part:{type(e).__name__}"] += 1
            return
        self.statuses[f"player_part:{status}"] += 1
        if "x-cache" in fields:
            self.statuses[f"player_part_cache:{fields['x-cache']}"] += 1
        self.part_ms.append((time.monotonic() - started) * 1000)

    # push: one stream per phone ------------------------------------------------------
    def stream_target(self, i: int, known: dict[str, int], once: bool = False) -> str:
        page, token, _ = self.phones[i]
        slug = self.cfg["slug"]
        query = f"public={known['public']}"
        if page == "pairings":
            path = f"/e/{slug}/live/"
        else:
            path = f"/e/{slug}/p/{token}/live/"
            query += f"&me={known['me']}"
        return f"{path}?{query}" + ("&once=1" if once else "")

    async def follow(self, i: int) -> None:
        """Hold phone ``i``'s stream, connecting again after a drop (``retry``)."""
        known = {"public": self.cfg["public"], "me": self.phones[i][2]}
        greeted = False
        while not self.stop.is_set():
            writer = None
            waiting = True
            await self.gate.acquire()
            try:
                reader, writer = await asyncio.open_connection(HOST, self.cfg["stream_port"])
                request = (
                    f"GET {self.stream_target(i, known)} HTTP/1.1\r\nHost: {HOST}\r\n"
                    "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
                )
                writer.write(request.encode())
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
                status, fields = parse_head(head)
                self.statuses[f"stream:{status}"] += 1
                if status != 200:
                    raise ValueError(f"stream answered {status}")
                pending = b""
                async for data in body_parts(reader, fields):
                    pending += data
                    while (cut := pending.find(b"\n\n")) >= 0:
                        message, pending = pending[:cut], pending[cut + 2 :]
                        name, value = "message", ""
                        for line in message.decode().split("\n"):
                            if line.startswith("event:"):
                                name = line[6:].strip()
                            elif line.startswith("data:"):
                                value = line[5:].strip()
                        if name == "hello":
                            if waiting:
                                self.gate.release()
                                waiting = False
                            if not greeted:
                                greeted = True
                                self.hello += 1
                        elif name == "seat":  # a player's table pushed (live.seats)
                            self.pushed(i, value)
                        elif name == "seatfetch":  # not pushed: the page fetches it
                            self.notice(i, int(value.split()[0]), 0.0)
                        elif name in ("public", "me"):
                            parts = value.split()
                            version = int(parts[0])
                            if version > known[name]:
                                known[name] = version
                                if name == "public":
                                    spread = float(parts[1]) if len(parts) > 1 else 0.0
                                    if self.phones[i][0] == "player":
                                        self.player_notice(i, version, spread)
                                    else:
                                        self.notice(i, version, spread)
                self.statuses["stream:ended"] += 1
            except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError) as e:
                self.statuses[f"stream:{type(e).__name__}"] += 1
            finally:
                if waiting:
                    self.gate.release()
                if writer is not None:
                    writer.close()
            await asyncio.sleep(RETRY_SECONDS)

    # fallback: polling ``?once=1`` ---------------------------------------------------
    async def poll(self, i: int) -> None:
        """Phone ``i`` without a stream: the versions every refresh interval, from a
        random phase, one poll at a time (a poll that hangs is given up after 20 s;
        live.js's ``setInterval`` would send the next one meanwhile)."""
        known = {"public": self.cfg["public"], "me": self.phones[i][2]}
        every = self.cfg["refresh"]
        etag = ""
        next_at = time.monotonic() + random.uniform(0, every)
        while not self.stop.is_set():
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            next_at += every
            headers = ["Accept: */*", GZIP_HEADER, "Cache-Control: no-cache"]
            if etag:
                headers.append(f"If-None-Match: {etag}")
            try:
                status, fields, body = await get(
                    self.cfg["stream_port"], self.stream_target(i, known, once=True), headers
                )
                self.statuses[f"poll:{status}"] += 1
                etag = fields.get("etag", etag)
                if status != 200:
                    continue
                versions = json.loads(body)["versions"]
            except (OSError, TimeoutError, ValueError, KeyError) as e:
                self.statuses[f"poll:{type(e).__name__}"] += 1
                continue
            if versions.get("me", 0) > known["me"]:
                known["me"] = versions["me"]
            if versions.get("public", 0) > known["public"]:
                known["public"] = versions["public"]
                self.notice(i, known["public"], 0.0)

    # the process ---------------------------------------------------------------------
    async def run(self) -> dict:
        loop = asyncio.get_running_loop()

        def commands() -> None:  # the parent's "stop" (or its end) on stdin
            for line in sys.stdin:
                if line.strip() == "stop":
                    break
            loop.call_soon_threadsafe(self.stop.set)

        threading.Thread(target=commands, daemon=True).start()
        each = self.follow if self.cfg["mode"] == "push" else self.poll
        phones = [asyncio.ensure_future(each(i)) for i in range(len(self.phones))]
        last = None
        while not self.stop.is_set():
            now = (self.hello, self.noticed, self.current)
            if now != last:
                report = {"hello": self.hello, "noticed": self.noticed, "current": self.current}
                print(json.dumps(report), flush=True)
                last = now
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), 0.25)
        for task in [*phones, *self.tasks]:
            task.cancel()
        await asyncio.gather(*phones, *self.tasks, return_exceptions=True)
        cpu = os.times()
        return {
            "records": self.records,
            "statuses": dict(self.statuses),
            "player_part_ms": self.part_ms,
            "cpu_s": round(cpu.user + cpu.system, 2),
        }


def client_main() -> None:
    """A phone client process (``--client``): its configuration on the first line of
    stdin, then "stop"; its progress and then its result as JSON lines on stdout."""
    import uvloop

    raise_fd_limit()
    phones = Phones(json.loads(sys.stdin.readline()))
    result = uvloop.run(phones.run())
    print(json.dumps({"result": result}), flush=True)


class Client:
    """A phone client process seen from the parent: its progress and its result."""

    def __init__(self, config: dict, log: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--client"],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(log, "wb"),  # noqa: SIM115
            text=True, start_new_session=True,
        )  # fmt: skip
        self.proc.stdin.write(json.dumps(config) + "\n")
        self.proc.stdin.flush()
        self.progress = {"hello": 0, "noticed": 0, "current": 0}
        self.result: dict | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            message = json.loads(line)
            if "result" in message:
                self.result = message["result"]
            else:
                self.progress = message

    def stop(self, timeout: float) -> dict | None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("stop\n")
                self.proc.stdin.flush()
            except OSError:
                pass
        self.thread.join(timeout)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
        return self.result

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=5)


# --- the servers ---------------------------------------------------------------------


class Deadline(Exception):
    """The run's bound (``--seconds``) was reached."""


class Clock:
    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise Deadline("time bound reached")
        return left

    def until(self, what: str, ready, every: float = 0.1, within: float | None = None):  # noqa: ANN001, ANN201
        """Poll ``ready()`` until truthy; Deadline at the bound (or after ``within`` s)."""
        end = time.monotonic() + within if within is not None else None
        while True:
            self.left()
            if value := ready():
                return value
            if end is not None and time.monotonic() > end:
                raise Deadline(f"{what}: not within {within} s")
            time.sleep(every)


class Servers:
    """The server subprocesses, each in a process group of its own, logs in ``logs``."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str, cmd: list[str], env: dict[str, str] | None = None) -> None:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        self.procs[name] = subprocess.Popen(
            cmd, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def dead(self) -> list[str]:
        return [name for name, p in self.procs.items() if p.poll() is not None]

    def stop(self) -> None:
        for p in self.procs.values():
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        end = time.monotonic() + 10
        for p in self.procs.values():
            try:
                p.wait(timeout=max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=5)


def _with_conn_max_age(url: str) -> str:
    """``url`` with ``conn_max_age=60`` (persistent connections), unless it sets one."""
    if "conn_max_age" in url:
        return url
    return url + ("&" if "?" in url else "?") + "conn_max_age=60"


def start_servers(
    servers: Servers, stream_port: int, web_port: int, workers: int, threads: int
) -> None:
    servers.start(
        "uvicorn",
        [
            str(BIN / "uvicorn"), "config.asgi:application", "--host", HOST,
            "--port", str(stream_port), "--no-access-log", "--loop", "uvloop",
            "--http", "httptools", "--log-level", "warning", "--backlog", "4096",
        ],
        # as docker-compose.yml's `live` service: its few pool threads keep their
        # database connections between openings (tournaments/live/asgi.py)
        env={"DATABASE_URL": _with_conn_max_age(os.environ["DATABASE_URL"])},
    )  # fmt: skip
    servers.start(
        "gunicorn",
        [
            str(BIN / "gunicorn"), "config.wsgi", "--bind", f"{HOST}:{web_port}",
            "--workers", str(workers), "--threads", str(threads), "--timeout", "30",
            "--backlog", "4096", "--log-level", "warning",
        ],
    )  # fmt: skip
    servers.start(
        "celery",
        [
            str(BIN / "celery"), "-A", "config", "worker", "-n", "live-bench@%h",
            "--concurrency", "1", "--loglevel", "WARNING", "--without-gossip",
            "--without-mingle", "--without-heartbeat",
        ],
    )  # fmt: skip


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (the kernel's pick)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def nginx_binary() -> str | None:
    """Debian's nginx (/usr/sbin, maybe not on PATH)."""
    return shutil.which("nginx", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin"]))


def nginx_conf(source: str, port: int, web_port: int, stream_port: int, prefix: Path) -> str:
    """``deploy/nginx.conf`` (``source``) for this bench: the upstreams on 127.0.0.1
    (``web_port``: gunicorn, ``stream_port``: uvicorn), no ``resolver`` (addresses, not
    names), ``listen`` on 127.0.0.1:``port``, and the cache, temporary files, pid and
    error log under ``prefix``, no access log. Anything else as in production; a line
    that is not found exactly once is an error (the bench would measure something else)."""

    def sub(pattern: str, replacement: str, text: str) -> str:
        out, n = re.subn(pattern, lambda _: replacement, text, flags=re.MULTILINE)
        if n != 1:
            raise RuntimeError(f"deploy/nginx.conf: {pattern!r} matched {n} times, not once")
        return out

    conf = sub(r"set \$web http://web:8000;", f"set $web http://{HOST}:{web_port};", source)
    conf = sub(r"set \$live http://live:8001;", f"set $live http://{HOST}:{stream_port};", conf)
    conf = sub(r"^[ \t]*resolver [^;]*;[ \t]*\n", "", conf)
    conf = sub(r"listen 80;", f"listen {HOST}:{port} backlog=4096;", conf)
    conf = sub(r"proxy_cache_path /var/cache/nginx/matchslip ", f"proxy_cache_path {prefix}/cache ",
               conf)  # fmt: skip
    conf = sub(
        r"^worker_processes ",
        f"pid {prefix}/nginx.pid;\nerror_log {prefix}/error.log warn;\nworker_processes ",
        conf,
    )
    temp = "".join(
        f"    {kind}_temp_path {prefix}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    include = "    include /etc/nginx/mime.types;\n"
    return sub(r"^[ \t]*include /etc/nginx/mime\.types;\n", f"{include}    access_log off;\n{temp}",
               conf)  # fmt: skip


def start_proxy(servers: Servers, binary: str, port: int, web_port: int, stream_port: int) -> Path:
    """nginx in front (``--proxy``), its directory ``<logs>/nginx``; the configuration
    is checked first (``nginx -t``), its complaint raised."""
    prefix = servers.logs / "nginx"
    prefix.mkdir()
    # nginx's workers run as nobody (its master is root here): they cross the log folder
    # (mkdtemp's 0700) to the cache and temporary folders, which the master creates.
    servers.logs.chmod(0o711)
    prefix.chmod(0o755)
    conf = prefix / "nginx.conf"
    source = (ROOT / "deploy" / "nginx.conf").read_text()
    conf.write_text(nginx_conf(source, port, web_port, stream_port, prefix))
    base = [binary, "-c", str(conf), "-p", f"{prefix}/", "-e", str(prefix / "error.log")]
    check = subprocess.run([*base, "-t"], capture_output=True, text=True, check=False)
    if check.returncode != 0:
        raise RuntimeError(f"nginx -t: {check.stderr.strip()}")
    servers.start("nginx", [*base, "-g", "daemon off;"])
    return prefix


def nginx_log(prefix: Path) -> dict[str, int]:
    """Lines of nginx's error log per level (``[warn]``, ``[error]``, ...)."""
    try:
        text = (prefix / "error.log").read_text(errors="replace")
    except OSError:
        return {}
    return dict(Counter(re.findall(r"^\S+ \S+ \[(\w+)\]", text, flags=re.MULTILINE)))


# --- /proc ---------------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            out.setdefault(ppid, []).append(int(entry))
    return out


def tree(pid: int) -> list[int]:
    """``pid`` and every process under it."""
    children, out, todo = _children(), [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def threads(pid: int) -> int:
    """Threads of ``pid`` and the processes under it."""
    total = 0
    for p in tree(pid):
        with contextlib.suppress(OSError):  # gone meanwhile
            total += len(os.listdir(f"/proc/{p}/task"))
    return total


def fd_limit(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return int(line.split()[3])
    except OSError:
        pass
    return None


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot (/proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICK, sum(values) / TICK


class Usage:
    """CPU of process trees between two snapshots: ``{role: {pid: cpu seconds}}``."""

    def __init__(self, roots: dict[str, int]) -> None:
        self.roots = roots
        self.first = self.snapshot()
        self.busy = machine_busy()

    def snapshot(self) -> dict[str, dict[int, float]]:
        return {role: {p: cpu_seconds(p) for p in tree(pid)} for role, pid in self.roots.items()}

    def delta(self) -> tuple[dict[str, float], dict[str, float], float]:
        """CPU seconds per role since the first snapshot, VmRSS now (MB), and the
        machine's busy share (%)."""
        now = self.snapshot()
        cpu = {
            role: round(sum(t - self.first[role].get(p, 0.0) for p, t in pids.items()), 2)
            for role, pids in now.items()
        }
        rss = {role: round(sum(rss_mb(p) for p in pids), 1) for role, pids in now.items()}
        busy, total = machine_busy()
        share = 100 * (busy - self.busy[0]) / max(1e-9, total - self.busy[1])
        return cpu, rss, round(share, 1)


# --- staff over HTTP -----------------------------------------------------------------


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201
        return None


class Staff:
    """A signed-in browser of gunicorn: session and CSRF cookies, no redirects followed."""

    def __init__(self, port: int, timeout: float = 30) -> None:
        self.base = f"http://{HOST}:{port}"
        self.jar = http.cookiejar.CookieJar()
        handlers = (urllib.request.HTTPCookieProcessor(self.jar), NoRedirect())
        self.opener = urllib.request.build_opener(*handlers)
        self.timeout = timeout

    def request(self, path: str, data: dict | None = None, headers: dict | None = None):  # noqa: ANN201
        """``(status, body, seconds)``; an HTTP error is an answer too."""
        headers = dict(headers or {})
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data).encode()
            headers["X-CSRFToken"] = next((c.value for c in self.jar if c.name == "csrftoken"), "")
            headers["Referer"] = self.base + path
        req = urllib.request.Request(self.base + path, data=body, headers=headers)
        started = time.perf_counter()
        try:
            with self.opener.open(req, timeout=self.timeout) as resp:
                status, content = resp.status, resp.read()
        except urllib.error.HTTPError as e:
            status, content = e.code, e.read()
        return status, content, time.perf_counter() - started

    def sign_in(self, username: str) -> None:
        self.request("/accounts/login/")
        token = next((c.value for c in self.jar if c.name == "csrftoken"), "")
        status, _, _ = self.request(
            "/accounts/login/",
            {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token},
        )
        if status != 302:
            raise RuntimeError(f"sign-in of {username} answered {status}")


class Scorekeepers:
    """``len(staff)`` scorekeepers entering the side event's slips (``matches``: pk,
    version, table) at ``rate`` per second in all: slip k is due at start + k / rate and
    entered by scorekeeper k mod n, an HTMX post of the staff round page's result form."""

    def __init__(self, staff: list[Staff], slug: str, matches: list, rate: float) -> None:
        self.staff, self.slug, self.matches, self.rate = staff, slug, matches, rate
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.slips: list[tuple[float, float, int]] = []  # (sent at, seconds, status)
        self.behind = 0  # slips sent more than a second after they were due
        self.threads = [threading.Thread(target=self._run, args=(j,)) for j in range(len(staff))]

    def _run(self, j: int) -> None:
        client = self.staff[j]
        for k in range(j, len(self.matches), len(self.staff)):
            due = self.start + k / self.rate
            if self.stop.wait(max(0.0, due - time.monotonic())):
                return
            pk, version, table = self.matches[k]
            result = "draw" if table % 30 == 0 else ("p1" if table % 2 else "p2")
            sent = time.monotonic()
            try:
                status, _, seconds = client.request(
                    f"/e/{self.slug}/staff/matches/{pk}/result/",
                    {"result": result, "version": version},
                    headers={"HX-Request": "true"},
                )
            except OSError:
                status, seconds = 0, time.monotonic() - sent
            with self.lock:
                self.slips.append((sent, seconds, status))
                self.behind += sent - due > 1.0

    def __enter__(self) -> Scorekeepers:
        self.start = time.monotonic()
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=35)


# --- the database and the events ------------------------------------------------------


def fresh_database(base_url: str) -> str:
    """An empty database beside ``base_url``'s, ``<name>_live`` (dropped first)."""
    import psycopg

    url = urllib.parse.urlsplit(base_url)
    name = url.path.lstrip("/") + "_live"
    with psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url._replace(path=f"/{name}").geturl()


def drop_database(url: str) -> None:
    import psycopg

    parts = urllib.parse.urlsplit(url)
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def setup_django(database_url: str, redis_url: str) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DEBUG="false",
        ALLOWED_HOSTS=f"{HOST},localhost",
        LOG_LEVEL="WARNING",
    )
    os.environ.setdefault("SECRET_KEY", "live-bench-" + secrets.token_urlsafe(48))
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def build_events(players: int, side_players: int, scorekeepers: int):  # noqa: ANN201
    """The main event (round 1 complete, round 2 paired) and the side event (round 1
    started), their organiser and the side event's scorekeepers (usernames)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from pairings.services import round_pair
    from standings.services import standings_compute
    from tournaments import services
    from tournaments.models import Match, Outcome, RoundStatus, StaffRole

    User = get_user_model()
    hashed = make_password(PASSWORD)  # once: every account signs in with it
    names = ["live-organiser", *(f"live-scorekeeper-{j:02d}" for j in range(scorekeepers))]
    User.objects.bulk_create([User(username=n, password=hashed) for n in names])
    organiser = User.objects.get(username="live-organiser")

    event = services.event_create(name=f"Live bench {players}", by=organiser, swiss_rounds=9)
    text = "\n".join(f"Player {i:05d},{100000 + i},1990" for i in range(players))
    services.registrations_add_csv(event=event, text=text, by=organiser)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    matches = list(rnd.matches.prefetch_related("seats"))
    for m in matches:  # results in bulk: a bench shortcut, round 1 is not what is measured
        seats = sorted(m.seats.all(), key=lambda s: s.seat)
        m.outcome = Outcome.BYE if len(seats) == 1 else Outcome.WIN
        m.winner_id = None if len(seats) == 1 else seats[0].registration_id
        m.version = 1
    Match.objects.bulk_update(matches, ["outcome", "winner", "version"])
    rnd.status = RoundStatus.COMPLETE
    rnd.save(update_fields=["status"])
    standings_compute(event=event)
    (round2,) = round_pair(event=event, group="open", by=organiser, seed=2)

    side = services.event_create(name="Live bench side event", by=organiser, swiss_rounds=5)
    text = "\n".join(f"Side {i:05d}" for i in range(side_players))
    services.registrations_add_csv(event=side, text=text, by=organiser)
    (side_round,) = round_pair(event=side, group="open", by=organiser, seed=3)
    services.round_publish(round=side_round, by=organiser)
    services.round_start(round=side_round, by=organiser)
    for name in names[1:]:
        services.staff_invite(event=side, who=name, role=StaffRole.SCOREKEEPER, by=organiser)
    return event, round2, side, side_round, organiser.username, names[1:]


def phones_of(event, n: int, page: str) -> list[list]:  # noqa: ANN001
    """``n`` phones ``[page, report token, own version]``: with ``both`` every other one
    on the pairings page, the rest on their player page (a player has two phones when
    there are more player phones than players)."""
    from tournaments.models import LiveVersion

    regs = list(event.registrations.order_by("pk").values_list("pk", "report_token"))
    own = dict(
        LiveVersion.objects.filter(event=event, topic__startswith="reg:").values_list(
            "topic", "version"
        )
    )
    out, k = [], 0
    for i in range(n):
        kind = page if page != "both" else ("pairings", "player")[i % 2]
        if kind == "pairings":
            out.append(["pairings", None, 0])
        else:
            pk, token = regs[k % len(regs)]
            k += 1
            out.append(["player", token, int(own.get(f"reg:{pk}", 0))])
    return out


def pg_sessions() -> int:
    """Sessions ever opened on this database (PostgreSQL's count, ``pg_stat_database``;
    updated as sessions end): every stream or poll that opens a connection adds one."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


def public_version(event) -> int:  # noqa: ANN001
    from tournaments import live

    return live.current(event.pk, [live.PUBLIC])[live.PUBLIC]


def settled(clock: Clock, redis_url: str, slugs: list[str], event) -> None:  # noqa: ANN001
    """Wait until the setup's page builds are done: every event's pages prebuilt, the
    broker's queue empty and the main event's public version still for 3 s."""
    import redis

    from tournaments.public_pages import pointer

    broker = redis.Redis.from_url(redis_url)
    seen: list = [None, 0.0]

    def ready() -> bool:
        if any(pointer(s) is None for s in slugs) or broker.llen("celery"):
            return False
        v = public_version(event)
        if v != seen[0]:
            seen[:] = [v, time.monotonic()]
        return time.monotonic() - seen[1] > 3

    clock.until("pages built", ready, every=0.5)


# --- the run -------------------------------------------------------------------------


def seconds(values: list[float], q: float) -> float | None:
    v = quantile(values, q)
    return None if v is None else round(v, 3)


def summarise(records: list[dict], t0: float, kinds: list[str]) -> dict:
    """Latency percentiles of the phones that got the new round, counts, and where the
    time went (``notice``: publish to the notice on the phone; ``fetch``: notice to
    current)."""
    done = [r["current"] - t0 for r in records if "current" in r]
    notices = [r["notice"] - t0 for r in records if "notice" in r]
    fetch = [r["fetch_ms"] for r in records if "fetch_ms" in r]
    why = Counter(r.get("why", "no_notice") for r in records if "current" not in r)
    out = {
        "p50_s": seconds(done, 0.5),
        "p95_s": seconds(done, 0.95),
        "p99_s": seconds(done, 0.99),
        "max_s": seconds(done, 1.0),
        "current": len(done),
        "missed": len(records) - len(done),
        "missed_why": dict(why),
        "notice_first_s": seconds(notices, 0.0001),
        "notice_p50_s": seconds(notices, 0.5),
        "notice_p99_s": seconds(notices, 0.99),
        "fetch_p50_ms": round(quantile(fetch, 0.5), 1) if fetch else None,
        "fetch_p99_ms": round(quantile(fetch, 0.99), 1) if fetch else None,
    }
    if len(set(kinds)) > 1:
        out["by_page"] = {}
        for kind in sorted(set(kinds)):
            mine = [r for r, k in zip(records, kinds, strict=True) if k == kind]
            got = [r["current"] - t0 for r in mine if "current" in r]
            out["by_page"][kind] = {
                "phones": len(mine),
                "current": len(got),
                "p50_s": seconds(got, 0.5),
                "p99_s": seconds(got, 0.99),
                "max_s": seconds(got, 1.0),
            }
    return out


def sign_in_all(pairs: list[tuple[Staff, str]], clock: Clock) -> None:
    """Sign every client in, a thread each (a password check each, on the server)."""
    errors: list[Exception] = []

    def one(client: Staff, username: str) -> None:
        try:
            client.sign_in(username)
        except Exception as e:  # noqa: BLE001 - raised below, in the main thread
            errors.append(e)

    threads = [threading.Thread(target=one, args=pair) for pair in pairs]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=clock.left())
    if errors:
        raise RuntimeError(f"sign-in failed: {errors[0]}")


def run(
    args: argparse.Namespace, clock: Clock, servers: Servers, clients: list[Client], line: dict
) -> None:
    from django.db import connections
    from django.urls import reverse

    from config.celery import app
    from tournaments.models import LiveVersion

    mode = "poll" if args.fallback else "push"
    window = PUSH_WINDOW if mode == "push" else args.refresh + 30.0
    side_players = 2 * math.ceil(args.slip_rate * (args.warmup + window + 15)) + 2
    t = time.perf_counter()
    event, round2, side, side_round, organiser, keepers = build_events(
        args.players, side_players, args.scorekeepers
    )
    line["setup_s"] = round(time.perf_counter() - t, 1)
    line["side_event_tables"] = side_players // 2

    t = time.perf_counter()
    start_servers(servers, args.stream_port, args.web_port, args.workers, args.threads)
    probes = [(args.web_port, "/"), (args.stream_port, f"/e/{event.slug}/live/?once=1")]
    # What phones and staff talk to: nginx with --proxy (both ports), else the servers.
    front_web, front_stream = args.web_port, args.stream_port
    if args.proxy:
        args.nginx_dir = start_proxy(
            servers, args.nginx, args.proxy_port, args.web_port, args.stream_port
        )
        front_web = front_stream = args.proxy_port
        probes += [(args.proxy_port, path) for _, path in probes]
    probe = Staff(args.web_port, timeout=5)
    for port, path in probes:
        probe.base = f"http://{HOST}:{port}"

        def up(path: str = path) -> bool:
            if servers.dead():
                raise RuntimeError(f"a server stopped: {servers.dead()} (logs: {args.logs})")
            try:
                return probe.request(path)[0] == 200
            except OSError:
                return False

        clock.until(f"server on {port}", up, every=0.3, within=60)
    clock.until("celery worker", lambda: len(app.control.ping(timeout=0.5)) >= 1, within=60)
    settled(clock, args.redis_url, [event.slug, side.slug], event)
    line["servers_ready_s"] = round(time.perf_counter() - t, 1)
    line["fd_limit"] = {name: fd_limit(p.pid) for name, p in servers.procs.items()}

    # Staff sign in (a password check each: before the measurement).
    t = time.perf_counter()
    boss = Staff(front_web)
    keeper_clients = [Staff(front_web) for _ in keepers]
    sign_in_all([(boss, organiser), *zip(keeper_clients, keepers, strict=True)], clock)
    line["sign_in_s"] = round(time.perf_counter() - t, 1)

    # Before the publish no part may show the new round already (else "current" means
    # nothing), and every part answers.
    label = f"Round {round2.number}"
    token = event.registrations.values_list("report_token", flat=True).first()
    for path in (f"/e/{event.slug}/pairings/", f"/e/{event.slug}/p/{token}/table/"):
        req = urllib.request.Request(
            f"http://{HOST}:{front_web}{path}", headers={"HX-Request": "true"}
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            body = resp.read().decode()
        if label in body:
            raise RuntimeError(f"{path} shows {label!r} before the publish")

    public = public_version(event)
    phones = phones_of(event, args.phones, args.page)
    side_matches = list(
        side_round.matches.filter(outcome="pending")
        .order_by("table")
        .values_list("pk", "version", "table")
    )
    if args.slip_rate <= 0:
        side_matches = []  # no slip load
    connections.close_all()
    n = args.clients or max(1, math.ceil(args.phones / 2000))
    for c in range(n):
        config = {
            "stream_port": front_stream,
            "web_port": front_web,
            "slug": event.slug,
            "label": label,
            "public": public,
            "phones": phones[c::n],
            "mode": mode,
            "refresh": args.refresh,
            "player_part": args.player_part,
            "notice_only": args.notice_only,
        }
        clients.append(Client(config, args.logs / f"client-{c}.log"))
    kinds = [k for c in range(n) for k, _, _ in phones[c::n]]
    line["clients"] = n

    t = time.perf_counter()
    connecting = Usage({"uvicorn": servers.procs["uvicorn"].pid})
    sessions_before = pg_sessions()
    if mode == "push":
        total = lambda: sum(c.progress["hello"] for c in clients)  # noqa: E731
        # Published anyway after a while: the phones without hello are missed, and reported.
        with contextlib.suppress(Deadline):
            clock.until("every phone's hello", lambda: total() >= args.phones, every=0.25,
                        within=max(10.0, clock.left() - args.warmup - window - 20))  # fmt: skip
        line["connected"] = total()
    else:
        line["connected"] = args.phones
    line["connect_s"] = round(time.perf_counter() - t, 1)
    line["connect_uvicorn_cpu_s"] = connecting.delta()[0]["uvicorn"]
    line["connect_pg_sessions"] = pg_sessions() - sessions_before

    roots = {"uvicorn": servers.procs["uvicorn"].pid, "gunicorn": servers.procs["gunicorn"].pid,
             "celery": servers.procs["celery"].pid}  # fmt: skip
    if "nginx" in servers.procs:
        roots["nginx"] = servers.procs["nginx"].pid
    roots.update({f"client_{c}": cl.proc.pid for c, cl in enumerate(clients)})
    usage = Usage(roots)
    sessions_before = pg_sessions()
    w0 = time.monotonic()
    with Scorekeepers(keeper_clients, side.slug, side_matches, args.slip_rate) as keepers_run:
        time.sleep(min(args.warmup, max(0.0, clock.left() - window - 5)))
        publish = reverse("staff:round_publish", args=[event.slug, round2.pk])
        t0 = time.monotonic()
        wall0 = time.time()
        status, _, took = boss.request(publish, {})
        line["publish_status"] = status
        line["publish_ms"] = round(took * 1000, 1)
        done = lambda: sum(c.progress["current"] for c in clients) >= args.phones  # noqa: E731
        with contextlib.suppress(Deadline):
            clock.until("every phone current", done, every=0.1,
                        within=min(window, clock.left() - 15))  # fmt: skip
        waited = time.monotonic() - t0
        cpu, rss, busy = usage.delta()
        held = {k: threads(servers.procs[k].pid) for k in ("uvicorn", "gunicorn")}
        line["window_pg_sessions"] = pg_sessions() - sessions_before
        load = [round(v, 2) for v in os.getloadavg()]
        end = time.monotonic()
    bumped = (
        LiveVersion.objects.filter(event=event, topic="public")
        .values_list("changed_at", flat=True)
        .first()
    )
    line["announce_s"] = round(bumped.timestamp() - wall0, 3) if bumped else None
    results = [c.stop(timeout=30) for c in clients]
    if any(r is None for r in results):
        raise RuntimeError(f"a phone client gave no result (logs: {args.logs})")

    records = [rec for r in results for rec in r["records"]]
    line.update(summarise(records, t0, kinds))
    line["waited_s"] = round(waited, 1)

    slips = keepers_run.slips
    slip_ms = [s * 1000 for _, s, _ in slips]
    after = [s * 1000 for sent, s, _ in slips if t0 <= sent <= t0 + 10]
    line.update(
        slips=len(slips),
        slip_p50_ms=round(quantile(slip_ms, 0.5), 1) if slips else None,
        slip_p99_ms=round(quantile(slip_ms, 0.99), 1) if slips else None,
        slip_max_ms=round(max(slip_ms), 1) if slips else None,
        slip_p99_ms_10s_after_publish=round(quantile(after, 0.99), 1) if after else None,
        slip_statuses=dict(Counter(str(st) for _, _, st in slips)),
        slips_late_1s=keepers_run.behind,
    )
    statuses: Counter[str] = Counter()
    for r in results:
        statuses.update(r["statuses"])
    line["phone_statuses"] = dict(sorted(statuses.items()))
    part_ms = [ms for r in results for ms in r["player_part_ms"]]
    if args.player_part:
        line["player_part"] = {
            "fetches": len(part_ms),
            "p50_ms": round(quantile(part_ms, 0.5), 1) if part_ms else None,
            "p99_ms": round(quantile(part_ms, 0.99), 1) if part_ms else None,
        }
    line["window_s"] = round(end - w0, 1)
    line["server_cpu_s"] = {k: v for k, v in cpu.items() if not k.startswith("client")}
    line["server_rss_mb"] = {k: v for k, v in rss.items() if not k.startswith("client")}
    line["client_cpu_s"] = {k: v for k, v in cpu.items() if k.startswith("client")}
    line["server_threads"] = held  # at the end of the window, the streams still open
    line["machine_busy_pct"] = busy
    line["load_avg"] = load
    server_errors = sum(n for key, n in statuses.items() if key.split(":")[1].startswith("5"))
    server_errors += sum(1 for _, _, st in slips if st >= 500) + (status >= 500)
    line["answers_5xx"] = server_errors
    line["servers_alive"] = sorted(set(servers.procs) - set(servers.dead()))
    if args.proxy:
        line["nginx_log"] = nginx_log(args.nginx_dir)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=3000)
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--page", choices=("pairings", "player", "both"), default="both")
    parser.add_argument("--scorekeepers", type=int, default=20)
    parser.add_argument("--slip-rate", type=float, default=10.0, help="slips per second, in all")
    parser.add_argument("--seconds", type=float, default=240, help="bound on the whole run")
    parser.add_argument("--fallback", action="store_true", help="phones poll ?once=1, no stream")
    parser.add_argument("--player-part", action="store_true",
                        help="player phones also fetch the rest of their page (?part=live)")  # fmt: skip
    parser.add_argument("--notice-only", action="store_true",
                        help="diagnosis: phones fetch nothing, current = the notice arrived")  # fmt: skip
    parser.add_argument("--warmup", type=float, default=10.0, help="slips before the publish (s)")
    parser.add_argument("--refresh", type=float, default=None,
                        help="poll interval with --fallback (default PUBLIC_REFRESH_SECONDS)")  # fmt: skip
    parser.add_argument("--clients", type=int, default=0, help="phone client processes")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker")
    parser.add_argument("--stream-port", type=int, default=8491)
    parser.add_argument("--web-port", type=int, default=8492)
    parser.add_argument("--proxy", action="store_true",
                        help="nginx in front, as deploy/nginx.conf (caching reverse proxy)")  # fmt: skip
    parser.add_argument("--proxy-port", type=int, default=0,
                        help="nginx's port with --proxy (default: a free one)")  # fmt: skip
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        client_main()  # a phone client process
        return 0
    args.redis_url = os.environ.get("REDIS_URL", "")
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith("postgres") or not args.redis_url:
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL (a Redis database of your own).")
    if args.proxy:
        args.nginx = nginx_binary()
        if args.nginx is None:
            sys.exit("--proxy needs nginx: apt-get install -y nginx")
        args.proxy_port = args.proxy_port or free_port()
    load_start = [round(v, 2) for v in os.getloadavg()]
    soft, hard = raise_fd_limit()
    clock = Clock(args.seconds)
    # The last resort for the bound: SIGALRM raises in the main thread, the finally cleans up.
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(Deadline("alarm")))
    signal.alarm(int(args.seconds) + 30)
    args.logs = Path(tempfile.mkdtemp(prefix="live-bench-"))
    line: dict = {
        "bench": "live_poll" if args.fallback else "live_push",
        "phones": args.phones,
        "page": args.page,
        "players": args.players,
        "scorekeepers": args.scorekeepers,
        "slip_rate": args.slip_rate,
        "gunicorn": f"--workers {args.workers} --threads {args.threads}",
        "proxy": args.proxy,
        **({"notice_only": True} if args.notice_only else {}),
        "fd_limit_bench": soft,
        "load_avg_start": load_start,
        "logs": str(args.logs),
    }
    database_url = fresh_database(base)
    servers = Servers(args.logs)
    clients: list[Client] = []
    failed = False
    try:
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()
        setup_django(database_url, args.redis_url)
        if args.refresh is None:
            from django.conf import settings

            args.refresh = float(settings.PUBLIC_REFRESH_SECONDS)
        if args.fallback:
            line["refresh_s"] = args.refresh
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        run(args, clock, servers, clients, line)
        failed = bool(line["answers_5xx"]) or line["publish_status"] != 302
    except Exception as e:  # noqa: BLE001 - reported on the line, exit status 1
        line["error"] = f"{type(e).__name__}: {e}"
        failed = True
    finally:
        signal.alarm(0)
        for client in clients:
            client.kill()
        servers.stop()
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if not args.keep:
            drop_database(database_url)
    print(json.dumps(line), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
