"""Pages that keep working without a connection: the offline worker, the player's app
manifest and what ``static/js/offline.js`` needs to know.

The staff round page and a player's private page carry ``static/js/offline.js``
(``templates/tournaments/_offline_head.html``): a slip or report sent while the
connection is down is kept in the browser (IndexedDB, through the vendored
``idb-keyval``), shown as waiting to send, and posted in order when the connection
returns, to the same views as before (``staff.match_result``, ``player.player_report``).
The server tells the outcomes apart as it always does: the slip carries the match
version the page showed, so ``services.slip_enter`` answers a slip whose result is
already recorded with no change (a resent slip is recorded once) and refuses one that
differs from a result recorded meanwhile (``ResultConflict``, 409); a player's report
is compared with the recorded result by ``services.report_submit``. No submission id
is stored: the version and the result are enough.

The worker (:func:`service_worker`) is served at ``/e/service-worker.js``: a worker
controls the pages under its own folder, so this address covers every event's pages
(``/e/<event>/…``: staff pages and private links) and needs no
``Service-Worker-Allowed`` header; one at ``/static/…`` could control only ``/static/``.
It keeps a copy of the static files the pages use, and answers a page asked for while
the network is down with the copy the page itself last saved (``offline.js`` saves its
own HTML after each change), marked so the page says "Offline since 14:02". Browsers
run workers only on HTTPS or ``localhost``: on a plain-HTTP address the queue still
works in an open tab, but a reload needs the network.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

from ..models import Registration

WORKER_SOURCE = "js/service-worker.js"
#: The static files the round page and the player's page load: copied when the worker
#: is installed, so a page reloaded offline has its styles and scripts.
ASSETS = (
    "css/matchslip.css",
    "js/live.js",
    "js/matchslip.js",
    "js/timer.js",
    "js/offline.js",
    "vendor/idiomorph/idiomorph-ext.min.js",
    "vendor/idb-keyval/idb-keyval.umd.js",
    "django_htmx/htmx-2.min.js",
    "django_htmx/ext/hx-sse-2.min.js",
    "icons/matchslip.svg",
    "icons/matchslip-192.png",
)
ICONS = (
    ("icons/matchslip-192.png", "192x192", "image/png", "any"),
    ("icons/matchslip-512.png", "512x512", "image/png", "any"),
    ("icons/matchslip-maskable-512.png", "512x512", "image/png", "maskable"),
    ("icons/matchslip.svg", "any", "image/svg+xml", "any"),
)
THEME_COLOR = "#1d5fd1"  # --accent in static/css/matchslip.css


def _found(path: str) -> Path:
    found = finders.find(path)
    if not found:
        raise FileNotFoundError(path)
    return Path(str(found))


def _stamps() -> tuple[tuple[str, int, int], ...]:
    """Each file the worker names, with its modification time and size: the worker's
    text changes (and browsers install it again) when one of them does."""
    stamps = []
    for path in (WORKER_SOURCE, *ASSETS):
        stat = _found(path).stat()
        stamps.append((path, stat.st_mtime_ns, stat.st_size))
    return tuple(stamps)


@lru_cache(maxsize=4)
def _worker(stamps: tuple[tuple[str, int, int], ...], static_url: str) -> tuple[str, str]:
    """The worker's text and its ETag: ``static/js/service-worker.js`` after a first
    line giving it the cache version and the files to keep."""
    digest = hashlib.sha256(repr((stamps, static_url)).encode())
    for path, _mtime, _size in stamps:
        digest.update(_found(path).read_bytes())
    version = digest.hexdigest()[:16]
    config = {
        "version": version,
        "static": static_url,
        "assets": [static(path) for path in ASSETS],
    }
    source = _found(WORKER_SOURCE).read_text(encoding="utf-8")
    text = f"var MATCHSLIP = {json.dumps(config)};\n{source}"
    return text, f'"{version}"'


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The offline worker, ``/e/service-worker.js`` (scope ``/e/``:
    ``tournaments.offline.worker_scope``), as JavaScript: revalidated on every check
    (``no-cache``, with an ETag: a 304 while nothing changed), so a new version of the
    app installs on the next visit."""
    text, etag = _worker(_stamps(), static(""))
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(text, content_type="text/javascript; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def player_manifest(request: HttpRequest, slug: str, token: str) -> JsonResponse:
    """The web app manifest of a player's private page: installed, the app opens their
    page (``start_url``, one app per private link) and keeps the event's public pages
    inside it (``scope``). Sent like the page itself: private, never stored by shared
    caches, no referrer; an unknown token is a 404."""
    reg = get_object_or_404(
        Registration.objects.select_related("event"), event__slug=slug, report_token=token
    )
    page = reverse("public:player", args=[slug, token])
    name = reg.event.name
    data = {
        "id": page,
        "name": name,
        "short_name": name if len(name) <= 12 else "Matchslip",
        "description": gettext("Your table, opponent and results at %(event)s.") % {"event": name},
        "lang": get_language(),
        "start_url": page,
        "scope": reverse("public:event", args=[slug]),
        "display": "standalone",
        "background_color": "#f5f6f8",  # --bg
        "theme_color": THEME_COLOR,
        "icons": [
            {"src": static(src), "sizes": sizes, "type": kind, "purpose": purpose}
            for src, sizes, kind, purpose in ICONS
        ],
    }
    response = JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex"
    return response
