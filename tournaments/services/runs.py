"""Background runs (docs/style.md §4): a ``BackgroundRun`` row records the progress and
failure of one Celery job, and the staff pages poll it.

At most one run per event, kind and pairing group is queued or running: the partial unique index
``run_one_active`` guards it, and :func:`run_request` turns a second request into the run
already going (a double click, two staff at once) instead of a second job.

The row, not the broker, is the source of truth, and carries a lease: ``sent_at`` when its
message was handed to the broker, ``started_at`` and ``heartbeat_at`` while a worker holds
it (:func:`run_claim`, :func:`run_heartbeat`). A request whose message cannot be sent (Redis
down) still succeeds; :func:`runs_sweep`, run by Celery beat every 20 s, re-sends a run
never handed over or whose worker stopped beating, and fails it after ``MAX_ATTEMPTS``
starts. A late or duplicate message finds its run finished or held and does nothing.
Without a broker (eager mode) tasks run at commit and none of this is needed.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from celery import current_app
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_noop

from .. import live
from ..actors import Actor, acting_user
from ..models import BackgroundRun, BackgroundRunStatus
from ..outages import BROKER_ERRORS, broker_outage
from ..stored_text import deferred

logger = logging.getLogger(__name__)

QUEUED, RUNNING = BackgroundRunStatus.QUEUED, BackgroundRunStatus.RUNNING
ACTIVE = (QUEUED, RUNNING)
# An active run this old lost its worker or its task message: a new request replaces it,
# so one lost message cannot block a pairing group for good. Pairing and standings take seconds.
ABANDONED_AFTER = dt.timedelta(minutes=15)
# Notes and errors are stored language-neutrally (``tournaments.stored_text``): fixed texts
# as their English msgid, the others as stored messages; staff pages translate them.
ABANDONED = gettext_noop(
    "Abandoned: no worker finished this run within 15 minutes; a new one was started."
)

# The lease. A worker beats every HEARTBEAT_EVERY while it holds a run; one silent for
# LEASE is taken for dead. A run whose request could not send it gets SEND_GRACE to be
# sent before the sweep does; a sent run no worker took within START_GRACE is sent again
# (its message was lost, e.g. Redis restarted empty). Times in seconds.
HEARTBEAT_EVERY = 10.0
LEASE = dt.timedelta(seconds=30)
SEND_GRACE = dt.timedelta(seconds=10)
START_GRACE = dt.timedelta(seconds=60)
MAX_ATTEMPTS = 2  # starts by a worker before a run whose worker keeps dying is failed
# Staff pages say a worker has not answered once a sent row waited this
# long to be picked up, or a held row's heartbeat is this old (two beats missed); "Try
# again" comes once the lease is lost (``lease_lost``). Judged in the web request, so it
# shows even when no worker is left to run the sweep.
NO_PICKUP_AFTER = SEND_GRACE
NO_HEARTBEAT_AFTER = dt.timedelta(seconds=2 * HEARTBEAT_EVERY)
# Someone pressed a button and watches the run: tell them at once instead of leaving it
# queued (the sweep cannot run while the broker is down either).
FAIL_WHEN_UNSENT = (BackgroundRun.Kind.PAIRING,)
UNSENT = gettext_noop(
    "Could not reach the task queue (Redis), so nothing was done. Try again once it is back."
)
WORKER_LOST = gettext_noop(
    "The worker running this stopped %(n)s times before finishing. Try again."
)


def task_on_commit(name: str, run_id: int) -> None:
    """Send the Celery task registered as ``name`` for run ``run_id`` once the transaction
    commits (:func:`run_send`).

    Looked up by name so ``tournaments`` needs not import ``standings`` or ``pairings``
    (docs/style.md layout); ``current_app.tasks`` loads every app's ``tasks`` module, so the
    task runs eagerly when no broker is configured.
    """
    transaction.on_commit(partial(run_send, run_id, name))


def run_send(run_id: int, task: str) -> bool:
    """Hand run ``run_id``'s task to the broker and stamp ``sent_at``; True when sent.

    An unreachable broker is logged once per outage and never raised: the request that
    asked for the run has saved its data and answers success. The run stays queued and
    unsent for :func:`runs_sweep`, except a run in ``FAIL_WHEN_UNSENT``, failed at once
    with ``UNSENT`` (its staff page offers "Try again"). Errors of an eager task propagate.
    """
    try:
        current_app.tasks[task].delay(run_id)
    except BROKER_ERRORS as e:
        broker_outage.failed(e)
        BackgroundRun.objects.filter(
            pk=run_id, status=QUEUED, sent_at__isnull=True, kind__in=FAIL_WHEN_UNSENT
        ).update(status=BackgroundRunStatus.FAILED, error=UNSENT, finished_at=timezone.now())
        return False
    broker_outage.worked()
    BackgroundRun.objects.filter(pk=run_id).update(sent_at=timezone.now())
    return True


def run_active(
    event_id: int, kind: str, group: str = "", *, recover_lost: bool = False
) -> BackgroundRun | None:
    """The queued or running run of (event, kind, pairing group key), locked until the transaction
    ends, or None. A run that waited longer than ``ABANDONED_AFTER`` is marked failed
    and not returned, unless a worker holding it still beats (``LEASE``). Call inside a
    transaction.

    ``recover_lost`` (a staff member's "Try again"): a run whose lease
    is lost (:func:`row_lease_lost`) is recovered here as :func:`runs_sweep` would — sent
    again and returned with a note, or, its worker lost ``MAX_ATTEMPTS`` times, failed
    and not returned — so the request works without the sweep (beat runs it on a worker)
    and never makes a second active run (``run_one_active``)."""
    run = (
        BackgroundRun.objects.select_for_update(of=("self",))
        .select_related("requested_by")
        .filter(event_id=event_id, kind=kind, group=group, status__in=ACTIVE)
        .first()
    )
    now = timezone.now()
    if run is not None and run.created_at < now - ABANDONED_AFTER and _last_sign(run) < now - LEASE:
        run.status, run.error = BackgroundRunStatus.FAILED, ABANDONED
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "error", "finished_at"])
        return None
    if run is not None and recover_lost and row_lease_lost(run, now):
        logger.warning("background run %s lost, recovered on request", run.pk)
        if _recover(run, now) == "failed":
            return None
        live.changed(run.event_id)
    return run


def run_request(
    *,
    event_id: int,
    kind: str,
    task: str,
    group: str = "",
    by: Actor = None,
    again_if_running: bool = False,
    round_number: int | None = None,
    recover_lost: bool = False,
) -> tuple[BackgroundRun, bool]:
    """A queued run of (event, kind, pairing group key) whose Celery task ``task`` (by name, given the
    run id) is sent after commit (:func:`task_on_commit`); or the run already queued or
    running. ``round_number`` records the round a pairing run is to pair.

    Returns ``(run, created)``; ``created`` is False when the run was already going, and
    then no second task is queued. ``again_if_running`` marks a *running* run
    ``requested_again`` (it read its data before this transaction's changes, so
    :func:`run_finish` queues a follow-up run); a queued run reads them anyway. Race-safe:
    the loser of two simultaneous requests hits ``run_one_active`` inside a savepoint and
    takes the winner's run. ``recover_lost`` (a "Try again"): a run whose lease is lost is
    sent again, or failed and replaced by a new run (:func:`run_active`).
    """
    user = acting_user(by)
    with transaction.atomic():
        for attempt in range(3):
            run = run_active(event_id, kind, group, recover_lost=recover_lost)
            if run is not None:
                if again_if_running and run.status == BackgroundRunStatus.RUNNING:
                    run.requested_again = True
                    run.save(update_fields=["requested_again"])
                return run, False
            try:
                with transaction.atomic():  # savepoint: a lost race keeps the transaction usable
                    run = BackgroundRun.objects.create(
                        event_id=event_id,
                        kind=kind,
                        group=group,
                        requested_by=user,
                        task=task,
                        round_number=round_number,
                    )
            except IntegrityError:
                if attempt == 2:
                    raise
                continue  # another request made the active run a moment ago: find it
            task_on_commit(task, run.pk)
            live.changed(event_id)  # the staff pages show the run
            return run, True
    raise AssertionError("unreachable")


def run_finish(run: BackgroundRun, *, status: str, task: str, error: str = "") -> None:
    """Record that ``run`` ended (done or failed, with ``error``); when it was asked for
    again while running, queue a new run of the same group and its ``task``."""
    with transaction.atomic():
        locked = BackgroundRun.objects.select_for_update().get(pk=run.pk)
        locked.status, locked.error, locked.finished_at = status, error, timezone.now()
        locked.save(update_fields=["status", "error", "finished_at"])
        live.changed(locked.event_id)
        if locked.requested_again:
            run_request(event_id=locked.event_id, kind=locked.kind, group=locked.group, task=task)
    run.status, run.error, run.finished_at = locked.status, locked.error, locked.finished_at


def run_claim(run_id: int) -> BackgroundRun | None:
    """Take run ``run_id`` for this task message: mark it running, stamp ``started_at``
    and ``heartbeat_at``, count the attempt; returns it (with its event and requester).

    None, and nothing changes, when the run is no longer the one to do: finished (a late
    or duplicate message, e.g. redelivered after a worker was lost), deleted, or running
    under a live heartbeat (another worker holds it). A running run whose heartbeat is
    older than ``LEASE`` lost its worker and is taken over.
    """
    now = timezone.now()
    with transaction.atomic():
        runs = BackgroundRun.objects.select_for_update(of=("self",)).select_related(
            "event", "requested_by"
        )
        run = runs.filter(pk=run_id, status__in=ACTIVE).first()
        if run is None:
            return None
        if run.status == RUNNING and _last_sign(run) > now - LEASE:
            return None
        run.status, run.started_at, run.heartbeat_at = RUNNING, now, now
        run.attempts += 1
        run.save(update_fields=["status", "started_at", "heartbeat_at", "attempts"])
        live.changed(run.event_id)
    return run


def _last_sign(run: BackgroundRun) -> dt.datetime:
    return run.heartbeat_at or run.started_at or run.created_at


@contextmanager
def lease_heartbeat(model: type[models.Model], pk: int, name: str = "run") -> Iterator[None]:
    """While the block runs, stamp ``heartbeat_at`` of the ``model`` row ``pk`` (a
    BackgroundRun or an ImportJob: any row with ``status`` and ``heartbeat_at``) every
    ``HEARTBEAT_EVERY`` seconds while it is running, from a thread with its own database
    connection, so a long computation is not taken for a dead worker. Does nothing in
    eager mode (no worker to lose)."""
    if current_app.conf.task_always_eager:
        yield
        return
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(HEARTBEAT_EVERY):
                rows = model._default_manager.filter(pk=pk, status=RUNNING)
                rows.update(heartbeat_at=timezone.now())
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=beat, name=f"{name}-{pk}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(HEARTBEAT_EVERY)


def run_heartbeat(run_id: int) -> AbstractContextManager[None]:
    """:func:`lease_heartbeat` for a BackgroundRun."""
    return lease_heartbeat(BackgroundRun, run_id)


# When a leased row (a BackgroundRun or an ImportJob) last showed a sign of life.
LAST_SIGN = Coalesce("heartbeat_at", "started_at", "created_at")


def lease_lost(now: dt.datetime) -> Q:
    """Rows of a leased model (annotated ``last_sign=LAST_SIGN``) that the broker or a
    worker lost at ``now``: queued and never handed to the broker for ``SEND_GRACE``,
    sent but not taken for ``START_GRACE``, or running with no heartbeat for ``LEASE``."""
    return (
        Q(status=QUEUED, sent_at__isnull=True, created_at__lt=now - SEND_GRACE)
        | Q(status=QUEUED, sent_at__lt=now - START_GRACE)
        | Q(status=RUNNING, last_sign__lt=now - LEASE)
    )


def row_lease_lost(row: Any, now: dt.datetime) -> bool:
    """:func:`lease_lost` for one row (a BackgroundRun or an ImportJob) already read: the
    same three cases, so the page offers "Try again" exactly when the sweep would act."""
    if row.status == RUNNING:
        return _last_sign(row) < now - LEASE
    if row.status != QUEUED:
        return False
    if row.sent_at is None:
        return row.created_at < now - SEND_GRACE
    return row.sent_at < now - START_GRACE


@dataclass(frozen=True)
class NoAnswer:
    """Why no worker has answered a queued or running row, for its staff page (
    item 5). ``reason``: ``"unsent"`` (the task queue never took it), ``"unpicked"``
    (sent, but no worker picked it up) or ``"silent"`` (a worker took it and its
    heartbeat stopped); ``seconds`` since the last sign; ``lost``: the lease is lost, so
    the page offers "Try again"."""

    reason: str
    seconds: int
    lost: bool


def no_answer(row: Any, now: dt.datetime | None = None) -> NoAnswer | None:
    """A :class:`NoAnswer` for ``row`` (a BackgroundRun or an ImportJob) when no worker has
    answered it for a while at ``now`` (default: this moment), else None: unsent for
    ``SEND_GRACE``, sent and not picked up for ``NO_PICKUP_AFTER``, or held with no
    heartbeat for ``NO_HEARTBEAT_AFTER``. Reads only the row, so the page that shows it
    judges in its own request, whether or not a worker or beat is alive."""
    now = now or timezone.now()
    if row.status == RUNNING:
        quiet, reason = now - _last_sign(row), "silent"
        shown = quiet > NO_HEARTBEAT_AFTER
    elif row.status == QUEUED and row.sent_at is None:
        quiet, reason = now - row.created_at, "unsent"
        shown = quiet > SEND_GRACE
    elif row.status == QUEUED:
        quiet, reason = now - row.sent_at, "unpicked"
        shown = quiet > NO_PICKUP_AFTER
    else:
        return None
    if not shown:
        return None
    return NoAnswer(reason, int(quiet.total_seconds()), row_lease_lost(row, now))


def runs_sweep() -> list[tuple[int, str]]:
    """Find runs the broker or a worker lost and send them again, or fail them.

    Lost: queued and never handed to the broker for ``SEND_GRACE`` (the request found
    Redis down), queued and sent but not taken for ``START_GRACE`` (the message was
    lost), or running with no heartbeat for ``LEASE`` (the worker died). A run already
    started ``MAX_ATTEMPTS`` times is failed with ``WORKER_LOST`` (staff see "Try again").
    Each is noted on the row and sent after commit. Rows another sweep holds are skipped.
    Returns ``[(run id, "sent" | "failed")]``. Run by Celery beat
    (``tournaments.tasks.runs_sweep``); safe to run at any time and twice.
    """
    now = timezone.now()
    lost = lease_lost(now)
    done: list[tuple[int, str]] = []
    with transaction.atomic():
        runs = (
            BackgroundRun.objects.annotate(last_sign=LAST_SIGN)
            .select_for_update(skip_locked=True)
            .filter(lost)
            .order_by("created_at")
        )
        for run in runs[:100]:
            done.append((run.pk, _recover(run, now)))
    for run_id, action in done:
        logger.warning("background run %s lost: %s", run_id, action)
    return done


def _recover(run: BackgroundRun, now: dt.datetime) -> str:
    """Fail a run whose worker died too often, else note why it is sent again, put it back
    in the queue and send it after commit."""
    at = f"{timezone.localtime(now):%H:%M}"
    if run.status == RUNNING and run.attempts >= MAX_ATTEMPTS:
        error = deferred(WORKER_LOST, n=run.attempts)
        run_finish(run, status=BackgroundRunStatus.FAILED, task=run.task, error=error)
        return "failed"
    if run.status == RUNNING:
        seen = f"{timezone.localtime(_last_sign(run)):%H:%M:%S}"
        run.note = deferred(
            gettext_noop(
                "The worker running this stopped (last seen %(seen)s); sent again at %(at)s."
            ),
            seen=seen,
            at=at,
        )
        # A queued run reads every result when it starts: no follow-up run needed.
        run.status, run.started_at, run.heartbeat_at, run.requested_again = (
            QUEUED,
            None,
            None,
            False,
        )
    elif run.sent_at is None:
        run.note = deferred(
            gettext_noop("The task queue was unreachable when this was asked for; sent at %(at)s."),
            at=at,
        )
    else:
        run.note = deferred(gettext_noop("No worker had taken this by %(at)s; sent again."), at=at)
    run.sent_at = None
    fields = ["status", "started_at", "heartbeat_at", "requested_again", "note", "sent_at"]
    run.save(update_fields=fields)
    transaction.on_commit(partial(run_send, run.pk, run.task))
    return "sent"
