"""``manage.py venue [--address A] [--port 8000] [--bind 0.0.0.0] [--no-restart]``: run the
event on this laptop for the phones of the local network (``make venue``; docs/operations.md,
"Venue mode").

What it does, in order:

* finds the laptop's LAN address (``tournaments.venue.lan_address``; ``--address`` names it
  instead: another interface, or a host name the venue's router resolves);
* migrates the database (SQLite by default, or ``DATABASE_URL``) and collects the static
  files, so the pages need nothing from the internet;
* prints the address and its QR code for the door and the projector; the staff page
  "QR code of the event" and the projector's round clock show QR codes of that address too
  (``VENUE_URL``);
* serves the whole site (pages and live streams, ``uvicorn config.asgi:application``) on
  ``--bind`` (all the laptop's addresses by default, so ``127.0.0.1`` keeps working on the
  laptop when the Wi-Fi drops) with: ``DEBUG`` off, a secret key kept in
  ``var/venue-secret-key`` when ``SECRET_KEY`` is unset (sessions survive a restart),
  ``ALLOWED_HOSTS`` = the LAN address, the host name, ``<host name>.local`` and this
  computer's own addresses (plus any ``ALLOWED_HOSTS`` set), background tasks in-process
  (``REDIS_URL`` removed: Celery runs eagerly, the cache is files);
* restarts the server within a second whenever it stops unexpectedly (a crash, ``kill -9``)
  unless ``--no-restart``; it gives up after five failures within ten seconds of their
  start each (e.g. the port is taken). Ctrl-C stops both.

Crash safety: a slip answered "saved" is committed to disk first (SQLite: WAL with
``synchronous=FULL``, ``config/settings.py``; PostgreSQL is durable), so a killed server or
a laptop losing power loses none; running the command again serves within seconds.
"""

from __future__ import annotations

import io
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import segno
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.venue import lan_address, venue_hosts, venue_url

SECRET_FILE = Path(settings.BASE_DIR) / "var" / "venue-secret-key"
FAST_FAILURE_SECONDS = 10  # a server that stops sooner than this after its start failed to start
FAST_FAILURES = 5  # … this many times in a row: give up


def secret_key() -> str:
    """``SECRET_KEY`` from the environment, else the one kept in ``var/venue-secret-key``
    (made once, 50+ random characters, readable by this user only)."""
    if key := os.environ.get("SECRET_KEY", ""):
        return key
    if SECRET_FILE.exists() and (key := SECRET_FILE.read_text().strip()):
        return key
    SECRET_FILE.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    SECRET_FILE.touch(mode=0o600)
    SECRET_FILE.write_text(key + "\n")
    return key


def server_environment(address: str, url: str) -> dict[str, str]:
    """The server's environment: this one with ``DEBUG`` off, a secret key, the venue's
    ``ALLOWED_HOSTS`` and ``VENUE_URL``, and no ``REDIS_URL`` (tasks in-process)."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    extra = [h for h in env.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    env.update(
        DEBUG="false",
        SECRET_KEY=secret_key(),
        ALLOWED_HOSTS=",".join(venue_hosts(address, extra)),
        VENUE_URL=url,
        DJANGO_SETTINGS_MODULE=env.get("DJANGO_SETTINGS_MODULE", "config.settings"),
    )
    return env


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: the server gets SIGTERM when this command dies (even by ``kill -9``), so no
    orphan keeps the port. Elsewhere nothing."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Command(BaseCommand):
    help = (
        "Run Matchslip on this laptop for the local network: binds the LAN address, allows "
        "its host names, prints its QR code, restarts the server if it stops."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--address",
            help="The address phones open (default: this laptop's LAN address, detected).",
        )
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--bind",
            default="0.0.0.0",
            help="The address the server listens on (default: all of this laptop's).",
        )
        parser.add_argument(
            "--no-restart",
            action="store_true",
            help="Do not start the server again when it stops unexpectedly.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        address = options["address"] or lan_address()
        port: int = options["port"]
        url = venue_url(address, port)
        env = server_environment(address, url)
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        self.announce(address, url)
        self.serve(env, options["bind"], port, restart=not options["no_restart"])

    def announce(self, address: str, url: str) -> None:
        """Print the address, its QR code, the events and how staff sign in."""
        out = self.stdout
        out.write(f"Matchslip venue mode: phones on this network open {url}/")
        if address.startswith("127."):
            out.write(
                "No local network found: only this computer reaches the server. "
                "Join the venue's network, or name the address with --address."
            )
        qr = io.StringIO()
        segno.make_qr(f"{url}/", error="m").terminal(out=qr, compact=True)
        out.write(qr.getvalue(), ending="")
        for event in Event.objects.order_by("-created_at")[:5]:
            out.write(
                f"  {event.name}: {url}/e/{event.slug}/  (staff: {url}/e/{event.slug}/staff/)"
            )
        users = get_user_model()._default_manager.exclude(password__startswith="!")
        if not users.exists():
            out.write(
                "No account can sign in here yet: `manage.py createsuperuser`, or "
                "`manage.py changepassword NAME` for a staff member of an imported event."
            )
        out.write("The page 'QR code of the event' (staff dashboard) shows this address to print.")
        out.write("Ctrl-C stops the server.")
        out.flush()

    def serve(self, env: dict[str, str], bind: str, port: int, *, restart: bool) -> None:
        """Run the server; start it again when it stops unexpectedly (``restart``)."""
        command = [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            bind,
            "--port",
            str(port),
            "--lifespan",
            "off",
            "--no-access-log",
            "--timeout-graceful-shutdown",
            "2",
        ]
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True
            server.terminate()

        failures = 0
        while True:
            started = time.monotonic()
            server = subprocess.Popen(
                command, cwd=settings.BASE_DIR, env=env, preexec_fn=_die_with_parent
            )
            signal.signal(signal.SIGTERM, stop)
            try:
                code = server.wait()
            except KeyboardInterrupt:
                stopping = True
                server.terminate()
                code = server.wait()
            if stopping or code == 0 or not restart:
                return
            failures = failures + 1 if time.monotonic() - started < FAST_FAILURE_SECONDS else 1
            if failures >= FAST_FAILURES:
                raise CommandError(
                    f"The server stopped {failures} times right after starting (is port "
                    f"{port} taken?); giving up."
                )
            how = f"signal {-code}" if code < 0 else f"exit status {code}"
            self.stderr.write(f"The server stopped ({how}); starting it again.")
            time.sleep(0.5)
