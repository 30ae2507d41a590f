"""Follow-up tasks off the request when there is no worker (embedded default, venue mode).

Without ``REDIS_URL`` Celery runs every task eagerly, inside the request that sends it.
That suits the work a page must show at once (the standings after a round), but not the
work that only *follows* it: the cut-line outlook simulates thousands of endings (2–3 s
for a 12-player event on a laptop, more when it is busy) and the receipts are counted
ahead of the pages. A scorekeeper whose last slip completes a round would wait for both,
with the slip's row still showing "Not reported". So, with eager tasks and
``settings.DEFER_FOLLOW_UPS`` (on by default; the test settings turn it off so that a
test reads the outlook right after the standings), :func:`send` hands such a task to one
thread of this process, which runs the tasks in the order sent, each with its own
database connection; the page that shows the result (live pages follow the database's
versions) updates when it is done.

The thread is not a daemon: a management command (``pair --publish``) waits for its
follow-ups before the process exits. A task that fails is logged and dropped, as a
worker would log it; nothing that was saved depends on it.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor

from celery import current_app
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

_threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="matchslip-follow-up")


def deferred() -> bool:
    """Whether follow-up tasks run on this process's follow-up thread: Celery is eager
    (no worker) and ``settings.DEFER_FOLLOW_UPS`` is on."""
    return bool(current_app.conf.task_always_eager and getattr(settings, "DEFER_FOLLOW_UPS", False))


def send(task: str, *args: object) -> Future[None]:
    """Run the Celery task named ``task`` with ``args`` on the follow-up thread, after
    those sent before it. Returns the Future (done when the task ran or failed; it never
    raises: a failure is logged)."""
    return _threads.submit(_run, task, args)


def wait(timeout: float | None = None) -> None:
    """Block until every follow-up sent so far has run (``timeout`` in seconds; None:
    no limit). Raises TimeoutError when they have not."""
    _threads.submit(lambda: None).result(timeout=timeout)


def _run(task: str, args: tuple[object, ...]) -> None:
    try:
        current_app.tasks[task].apply(args=args, throw=True)
    except Exception:
        log.exception("follow-up task %s%r failed", task, args)
    finally:
        connections.close_all()  # this thread's own connections
