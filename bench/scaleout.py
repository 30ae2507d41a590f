"""Scale-out shown (on demand only): two web instances and two workers.

Starts, as subprocesses on 127.0.0.1 only, two gunicorn instances (ports A and B), two
Celery workers and one Celery beat (the runs sweep), all against a fresh PostgreSQL
database of its own (``<DATABASE_URL's name>_scaleout``, dropped at the end unless
``--keep``) and the Redis database of ``--redis-url`` (emptied first: use one of your
own). Then it runs a whole round the way an event does:

- staff on instance A: sign in (CSRF), pair round 1 through the real staff view (a
  pairing run on a worker), publish, start, enter every slip (HTMX form posts, a few at a
  time), wait for the standings run, pair and publish round 2 (the turnaround, last
  slip → round 2 published, is timed);
- players on instance B meanwhile: ``--pollers`` threads asking for their own table,
  the pairings and the standings (with ``If-None-Match``, gzip), as phones do;
- checks: once the pages are prebuilt, the pairings (by table, by name) and standings
  pages of A and B agree (same status, ETag and bytes, plain and gzip, page and HTMX
  partial), and every player's own table on B names the table and opponent the
  database has; no answer was a server error.

Bounded: ``--seconds`` (default 300) for the whole run, a timeout on every request, a
fixed number of pollers; every subprocess is in its own process group and is stopped in
a ``finally`` (SIGTERM, then SIGKILL). Prints one JSON summary and exits 1 when a check
failed. Run::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/5 \\
      .venv/bin/python bench/scaleout.py [--players 512|2000] [--seconds 300]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"
POD = "open"
PASSWORD = secrets.token_urlsafe(16)


class Deadline(Exception):
    """The run's time bound (``--seconds``) was reached."""


class Clock:
    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise Deadline("time bound reached")
        return left

    def wait_for(self, what: str, ready, every: float = 0.02):
        """Poll ``ready()`` until it returns something truthy; Deadline at the bound."""
        while True:
            self.left()
            if value := ready():
                return value
            time.sleep(every)


# --- database, Django and the subprocesses -------------------------------------------


def _fresh_database(base_url: str) -> str:
    """Create an empty database beside ``base_url``'s (dropped first); its URL."""
    import psycopg

    url = urllib.parse.urlsplit(base_url)
    name = url.path.lstrip("/") + "_scaleout"
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url._replace(path=f"/{name}").geturl()


def _drop_database(url: str) -> None:
    import psycopg

    parts = urllib.parse.urlsplit(url)
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def _django(database_url: str, redis_url: str) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DEBUG="false",
        ALLOWED_HOSTS=f"{HOST},localhost",
    )
    os.environ.setdefault("SECRET_KEY", "scaleout-" + secrets.token_urlsafe(48))
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


class Processes:
    """The subprocesses, each in its own process group, logs in ``logs``."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.procs: list[tuple[str, subprocess.Popen]] = []

    def start(self, name: str, cmd: list[str]) -> None:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        self.procs.append((name, proc))

    def alive(self) -> list[str]:
        return [name for name, p in self.procs if p.poll() is None]

    def stop(self) -> None:
        for _, p in self.procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        end = time.monotonic() + 10
        for _, p in self.procs:
            try:
                p.wait(timeout=max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=5)


def _start_all(procs: Processes, ports: tuple[int, int], web_workers: int, logs: Path) -> None:
    for name, port in zip(("web-a", "web-b"), ports, strict=True):
        procs.start(
            name,
            [
                str(BIN / "gunicorn"), "config.wsgi", "--bind", f"{HOST}:{port}",
                "--workers", str(web_workers), "--threads", "4", "--timeout", "30",
                "--log-level", "warning",
            ],
        )  # fmt: skip
    for n in (1, 2):
        procs.start(
            f"worker-{n}",
            [
                str(BIN / "celery"), "-A", "config", "worker", "-n", f"scaleout{n}@%h",
                "--concurrency", "1", "--loglevel", "WARNING", "--without-gossip",
                "--without-mingle",
            ],
        )  # fmt: skip
    procs.start(
        "beat",
        [
            str(BIN / "celery"), "-A", "config", "beat", "--loglevel", "WARNING",
            "--schedule", str(logs / "celerybeat-schedule"),
        ],
    )  # fmt: skip


# --- HTTP ----------------------------------------------------------------------------


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003
        return None


class Client:
    """A browser-like client of one instance: cookies, CSRF, no redirects followed."""

    def __init__(self, port: int, timeout: float = 15) -> None:
        self.base = f"http://{HOST}:{port}"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )
        self.timeout = timeout

    def request(self, path: str, data: dict | None = None, headers: dict | None = None):
        """``(status, headers, body bytes, seconds)``; HTTP errors are answers too."""
        headers = dict(headers or {})
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data).encode()
            headers["X-CSRFToken"] = self.csrf()
            headers["Referer"] = self.base + path
        req = urllib.request.Request(self.base + path, data=body, headers=headers)
        t0 = time.perf_counter()
        try:
            with self.opener.open(req, timeout=self.timeout) as resp:
                out = resp.status, dict(resp.headers), resp.read()
        except urllib.error.HTTPError as e:
            out = e.code, dict(e.headers), e.read()
        return (*out, time.perf_counter() - t0)

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def login(self, username: str) -> None:
        self.request("/accounts/login/")
        status, headers, _, _ = self.request(
            "/accounts/login/",
            {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": self.csrf()},
        )
        if status != 302:
            raise RuntimeError(f"staff sign-in answered {status}")


def _wait_http(clock: Clock, port: int) -> None:
    client = Client(port, timeout=2)

    def up() -> bool:
        try:
            return client.request("/")[0] == 200
        except OSError:
            return False

    clock.wait_for(f"web on {port}", up, every=0.2)


# --- the players on instance B --------------------------------------------------------


class Pollers:
    """``n`` threads asking instance B what phones ask, until stopped."""

    def __init__(self, port: int, slug: str, tokens: list[str], n: int) -> None:
        self.port, self.slug, self.tokens, self.n = port, slug, tokens, n
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.statuses: Counter[str] = Counter()
        self.seconds: dict[str, list[float]] = {}
        self.threads = [threading.Thread(target=self._run, args=(i,)) for i in range(n)]

    def _run(self, i: int) -> None:
        client = Client(self.port, timeout=10)
        etags: dict[str, str] = {}
        pages = {
            "pairings": f"/e/{self.slug}/pairings/",
            "standings": f"/e/{self.slug}/standings/",
        }
        k = i
        while not self.stop.is_set():
            k += self.n
            token = self.tokens[k % len(self.tokens)]
            kind = ("table", "table", "pairings", "table", "standings")[k % 5]
            path = pages.get(kind, f"/e/{self.slug}/p/{token}/table/")
            headers = {"Accept-Encoding": "gzip", "HX-Request": "true"}
            if path in etags:
                headers["If-None-Match"] = etags[path]
            try:
                status, got, _, seconds = client.request(path, headers=headers)
            except OSError:
                status, got, seconds = 0, {}, 0.0
            if "ETag" in got:
                etags[path] = got["ETag"]
            with self.lock:
                self.statuses[f"{kind}:{status}"] += 1
                self.seconds.setdefault(kind, []).append(seconds)
            time.sleep(0.05)  # a phone does not hammer; 20 requests/s per poller at most

    def __enter__(self) -> Pollers:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=15)

    def summary(self) -> dict:
        def ms(values: list[float], q: float) -> float:
            return round(1000 * statistics.quantiles(values, n=100)[q - 1], 1)

        return {
            "requests": sum(self.statuses.values()),
            "statuses": dict(sorted(self.statuses.items())),
            "ms": {
                kind: {"p50": ms(v, 50), "p95": ms(v, 95)}
                for kind, v in self.seconds.items()
                if len(v) >= 2
            },
        }


# --- the round ------------------------------------------------------------------------


def _event(players: int):
    from django.contrib.auth import get_user_model

    from tournaments import services

    user = get_user_model().objects.create_user("scaleout-organiser", password=PASSWORD)
    event = services.event_create(name="Scale-out Regional", by=user, swiss_rounds=9)
    text = "\n".join(f"Player {i:04d}" for i in range(players))
    services.registrations_add_csv(event=event, text=text, by=user)
    return event, user


def _pair(clock: Clock, staff: Client, event, number: int):
    """Pair round ``number`` through the staff view and wait for its pairing run."""
    from tournaments.models import Round

    status, _, _, _ = staff.request(f"/e/{event.slug}/staff/pair/", {"group": POD})
    if status != 302:
        raise RuntimeError(f"pair answered {status}")
    return clock.wait_for(
        "paired", lambda: Round.objects.filter(event=event, group__key=POD, number=number).first()
    )


def _round_action(staff: Client, event, rnd, action: str) -> None:
    status, _, _, _ = staff.request(f"/e/{event.slug}/staff/rounds/{rnd.pk}/{action}/", {})
    if status != 302:
        raise RuntimeError(f"{action} answered {status}")


def _slips(clock: Clock, staff: Client, event, rnd, threads: int) -> dict:
    """Enter every pending slip of ``rnd`` (seat 1 wins, one table in 30 a tie), a few
    at a time, as HTMX posts of the staff round page."""
    matches = list(rnd.matches.filter(outcome="pending").values_list("pk", "version", "table"))
    statuses: Counter[int] = Counter()

    def one(m: tuple[int, int, int]) -> float:
        clock.left()
        pk, version, table = m
        result = "draw" if table % 30 == 0 else ("p1" if table % 2 else "p2")
        status, _, _, seconds = staff.request(
            f"/e/{event.slug}/staff/matches/{pk}/result/",
            {"result": result, "version": version},
            headers={"HX-Request": "true"},
        )
        statuses[status] += 1
        return seconds

    with ThreadPoolExecutor(threads) as pool:
        seconds = list(pool.map(one, matches))
    return {
        "slips": len(matches),
        "statuses": dict(statuses),
        "ms_p50": round(1000 * statistics.median(seconds), 1) if seconds else None,
    }


def _run_done(clock: Clock, event, kind: str, after: int) -> None:
    """Wait for a ``kind`` run newer than run ``after`` to be done."""

    def done():
        run = event.runs.filter(kind=kind, pk__gt=after).order_by("-pk").first()
        if run is not None and run.status == "failed":
            raise RuntimeError(f"{kind} run failed: {run.error}")
        return run is not None and run.status == "done"

    clock.wait_for(kind, done)


def _pages_built(clock: Clock, slug: str) -> None:
    from tournaments.public_pages import pointer

    clock.wait_for("prebuilt pages", lambda: pointer(slug) is not None)


# --- the checks -----------------------------------------------------------------------


def _pages_agree(a: Client, b: Client, slug: str) -> list[str]:
    """Where the public pages of A and B differ (empty: they agree)."""
    problems = []
    for path in (f"/e/{slug}/pairings/", f"/e/{slug}/pairings/?by=name", f"/e/{slug}/standings/"):
        for headers in ({}, {"Accept-Encoding": "gzip"}, {"HX-Request": "true"}):
            sa, ha, ba, _ = a.request(path, headers=headers)
            sb, hb, bb, _ = b.request(path, headers=headers)
            if sa != 200 or sb != 200:
                problems.append(f"{path} {headers}: {sa} on A, {sb} on B")
            elif ba != bb or ha.get("ETag") != hb.get("ETag") or not ha.get("ETag"):
                problems.append(f"{path} {headers}: A and B differ")
    return problems


TABLE = re.compile(r"Table <strong>(\d+)</strong>")
OPPONENT = re.compile(r'<span class="opponent">vs ([^<]*)</span>')


def _expected_tables(event, rnd) -> dict[str, tuple[int | None, str]]:
    """``{report token: (table, opponent names)}`` of every registration in ``rnd``."""
    from tournaments.models import MatchSeat, Registration

    seats = MatchSeat.objects.filter(round=rnd).values_list(
        "match_id", "match__table", "registration_id", "registration__player__name"
    )
    by_match: dict[int, list[tuple[int | None, int, str]]] = {}
    for match_id, table, reg_id, name in seats:
        by_match.setdefault(match_id, []).append((table, reg_id, name))
    tokens = dict(Registration.objects.filter(event=event).values_list("pk", "report_token"))
    out = {}
    for group in by_match.values():
        for table, reg_id, _ in group:
            others = ", ".join(n for _, r, n in group if r != reg_id)
            out[tokens[reg_id]] = (table, others)
    return out


def _tables_agree(b: Client, event, rnd, threads: int) -> tuple[int, list[str]]:
    """Every player's own table on B against the database: (checked, problems)."""
    expected = _expected_tables(event, rnd)

    def one(item: tuple[str, tuple[int | None, str]]) -> str | None:
        token, (table, opponent) = item
        status, _, body, _ = b.request(f"/e/{event.slug}/p/{token}/table/")
        text = body.decode()
        shown_table = TABLE.search(text)
        shown_opponent = OPPONENT.search(text)
        got = (
            int(shown_table.group(1)) if shown_table else None,
            shown_opponent.group(1) if shown_opponent else "",
        )
        if status != 200 or got != (table, opponent):
            return f"{token}: {status} {got} != {(table, opponent)}"
        return None

    with ThreadPoolExecutor(threads) as pool:
        problems = [p for p in pool.map(one, expected.items()) if p]
    return len(expected), problems


# --- main -----------------------------------------------------------------------------


def run(args: argparse.Namespace, clock: Clock, procs: Processes, summary: dict) -> None:
    from config.celery import app
    from tournaments.models import BackgroundRun

    t0 = time.perf_counter()
    event, user = _event(args.players)
    slug = event.slug
    tokens = list(event.registrations.values_list("report_token", flat=True))
    summary["setup_s"] = round(time.perf_counter() - t0, 2)
    _start_all(procs, (args.port_a, args.port_b), args.web_workers, args.logs)
    for port in (args.port_a, args.port_b):
        _wait_http(clock, port)
    clock.wait_for("workers", lambda: len(app.control.ping(timeout=0.5)) >= 2, every=0.2)
    summary["started_s"] = round(time.perf_counter() - t0, 2)
    staff, players = Client(args.port_a), Client(args.port_b)
    staff.login(user.username)
    timings: dict[str, float] = {}
    with Pollers(args.port_b, slug, tokens, args.pollers) as pollers:
        t = time.perf_counter()
        rnd = _pair(clock, staff, event, 1)
        timings["pair_1_s"] = time.perf_counter() - t
        _round_action(staff, event, rnd, "publish")
        _round_action(staff, event, rnd, "start")
        last_run = BackgroundRun.objects.filter(event=event).order_by("-pk").first().pk
        t = time.perf_counter()
        summary["slips"] = _slips(clock, staff, event, rnd, args.slip_threads)
        t_last = time.perf_counter()
        timings["slips_s"] = t_last - t
        _run_done(clock, event, "standings", last_run)
        timings["last_slip_to_standings_s"] = time.perf_counter() - t_last
        rnd2 = _pair(clock, staff, event, 2)
        timings["last_slip_to_paired_s"] = time.perf_counter() - t_last
        _round_action(staff, event, rnd2, "publish")
        timings["last_slip_to_published_s"] = time.perf_counter() - t_last
        _pages_built(clock, slug)
        timings["last_slip_to_pages_built_s"] = time.perf_counter() - t_last
        time.sleep(min(2.0, clock.left()))  # players see round 2 for a moment
    summary["seconds"] = {k: round(v, 3) for k, v in timings.items()}
    summary["players_on_b"] = pollers.summary()
    _pages_built(clock, slug)
    summary["pages_differ"] = _pages_agree(Client(args.port_a), players, slug)
    checked, problems = _tables_agree(players, event, rnd2, args.slip_threads)
    summary["tables_checked"] = checked
    summary["tables_wrong"] = problems[:10]
    server_errors = sum(
        n for key, n in pollers.statuses.items() if key.endswith(":0") or ":5" in key
    )
    summary["server_errors"] = server_errors
    summary["processes_alive"] = procs.alive()
    summary["ok"] = (
        not summary["pages_differ"]
        and not problems
        and server_errors == 0
        and set(summary["slips"]["statuses"]) == {200}
        and len(summary["processes_alive"]) == 5
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--seconds", type=float, default=300, help="bound on the whole run")
    parser.add_argument("--port-a", type=int, default=8471)
    parser.add_argument("--port-b", type=int, default=8472)
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn workers each")
    parser.add_argument("--pollers", type=int, default=8, help="player threads on B")
    parser.add_argument("--slip-threads", type=int, default=4, help="staff threads on A")
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", ""))
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith("postgres") or not args.redis_url:
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL (a Redis db of your own).")
    clock = Clock(args.seconds)
    # A last resort for the bound: SIGALRM raises in the main thread, the finally cleans up.
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(Deadline("alarm")))
    signal.alarm(int(args.seconds) + 30)
    database_url = _fresh_database(base)
    args.logs = Path(tempfile.mkdtemp(prefix="scaleout-"))
    summary: dict = {"players": args.players, "logs": str(args.logs), "ok": False}
    procs = Processes(args.logs)
    try:
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()
        _django(database_url, args.redis_url)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        run(args, clock, procs, summary)
    except Exception as e:  # noqa: BLE001 - reported in the summary, exit status 1
        summary["error"] = f"{type(e).__name__}: {e}"
    finally:
        signal.alarm(0)
        procs.stop()
        if "django" in sys.modules and "DATABASE_URL" in os.environ:
            from django.db import connections

            connections.close_all()
        if not args.keep:
            _drop_database(database_url)
    print(json.dumps(summary, indent=1), flush=True)
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
