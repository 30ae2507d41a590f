"""What ``static/js/offline.js`` needs from the page: offline entry on the staff round
page and a player's private page (``views.offline`` has the worker and the player's app
manifest, and the whole story).

:func:`offline_config` is rendered into the page as JSON (``{% offline_config %}``,
``templates/tournaments/_offline_head.html``): which queue the page's waiting slips or
reports belong to, where the worker is, and every text the script shows, translated
here like any other text of the page (the script fills in ``%(name)s``).
"""

from __future__ import annotations

from typing import Any

from csp.utils import build_policy
from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from .models import Event, Registration

STAFF, PLAYER = "staff", "player"


def _waiting(count: int) -> str:
    return ngettext(
        "%(count)s slip is waiting to send. It is kept in this browser and sent when the "
        "connection returns.",
        "%(count)s slips are waiting to send. They are kept in this browser and sent in "
        "order when the connection returns.",
        count,
    )


def _staff_texts() -> dict[str, str]:
    """The staff round page's: the waiting slips (a count in both plural forms, one line
    each, a mark on each table's row) and what became of a slip sent late."""
    return {
        "panel": gettext("Connection and waiting slips"),
        "waiting_one": _waiting(1),
        "waiting_other": _waiting(2),
        "item": gettext("%(table)s: %(result)s, entered %(time)s"),
        "mark": gettext("Waiting to send: %(result)s (entered %(time)s)"),
        "conflict": gettext(
            "%(table)s: nothing changed. Your slip: %(mine)s. Recorded meanwhile: %(recorded)s."
        ),
        "refused": gettext("%(table)s: your slip (%(mine)s) was not recorded. %(reason)s"),
        "question": gettext(
            "%(table)s: your slip (%(mine)s) differs from what the players reported. "
            "Answer on the table's row."
        ),
        "signin": gettext(
            "The waiting slips could not be sent: sign in again. They are kept in this browser."
        ),
    }


def _player_texts() -> dict[str, str]:
    """A player's page's: their waiting report and what became of it."""
    return {
        "panel": gettext("Connection"),
        "waiting_one": gettext(
            "Your report (%(result)s) is waiting to send: it is sent when the connection returns."
        ),
        "mark": gettext("Waiting to send: %(result)s (entered %(time)s)"),
        "conflict": gettext(
            "Your report (%(mine)s) was not recorded: %(recorded)s was recorded meanwhile. "
            "Ask a judge if that is wrong."
        ),
        "refused": gettext("Your report (%(mine)s) was not recorded. %(reason)s"),
        "signin": gettext("Your report could not be sent: reload the page and report again."),
    }


def worker_url() -> str:
    """The offline worker's address, ``/e/service-worker.js``."""
    return reverse("public:service_worker")


def worker_scope() -> str:
    """The pages the worker controls: its folder, ``/e/`` (every event's pages)."""
    return worker_url().rsplit("/", 1)[0] + "/"


def offline_config(kind: str, event: Event, reg: Registration | None = None) -> dict[str, Any]:
    """What ``static/js/offline.js`` reads from the page (``#offline-config``): ``kind``
    (``staff`` or ``player``), the queue its entries belong to (one per event for staff,
    one per private link), the worker's address and scope, the Content-Security-Policy
    a page saved for offline use is served with, the CSRF cookie's name (a slip sent
    later takes the token of the moment) and every text it shows, in the visitor's
    language (``%(name)s`` placeholders, filled in by the script)."""
    if kind == PLAYER and reg:
        queue = f"player:{event.slug}:{reg.report_token}"
        texts = _player_texts()
    else:
        queue = f"staff:{event.slug}"
        texts = _staff_texts()
    texts |= {
        "offline_since": gettext("Offline since %(time)s."),
        "copy": gettext(
            "This is the page as it was last seen; it catches up when the connection returns."
        ),
        "dismiss": gettext("Dismiss"),
        "server": gettext("The server refused it (error %(status)s)."),
    }
    return {
        "kind": PLAYER if kind == PLAYER else STAFF,
        "queue": queue,
        "worker": worker_url(),
        "scope": worker_scope(),
        "csp": build_policy(),
        "csrf_cookie": settings.CSRF_COOKIE_NAME,
        "texts": texts,
    }
