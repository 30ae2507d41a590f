"""Background runs (STYLE.md §4): a ``BackgroundRun`` row records the progress and
failure of one Celery job, and the staff pages poll it.

At most one run per event, kind and pod is queued or running: the partial unique index
``run_one_active`` guards it, and :func:`run_request` turns a second request into the run
already going (a double click, two staff at once) instead of a second job.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from celery import current_app
from django.db import IntegrityError, transaction
from django.utils import timezone

from ..models import BackgroundRun, BackgroundRunStatus

ACTIVE = (BackgroundRunStatus.QUEUED, BackgroundRunStatus.RUNNING)
# An active run this old lost its worker or its task message: a new request replaces it,
# so one lost message cannot block a pod for good. Pairing and standings take seconds.
ABANDONED_AFTER = dt.timedelta(minutes=15)
ABANDONED = "Abandoned: no worker finished this run within 15 minutes; a new one was started."


def task_on_commit(name: str, *args: Any) -> None:
    """Queue the Celery task registered as ``name`` once the transaction commits.

    Looked up by name so ``tournaments`` needs not import ``standings`` or ``pairings``
    (STYLE.md layout); ``current_app.tasks`` loads every app's ``tasks`` module, so the
    task runs eagerly when no broker is configured.
    """
    transaction.on_commit(lambda: current_app.tasks[name].delay(*args))


def run_active(event_id: int, kind: str, pod: str = "") -> BackgroundRun | None:
    """The queued or running run of (event, kind, pod), locked until the transaction
    ends, or None. A run that waited longer than ``ABANDONED_AFTER`` is marked failed
    and not returned. Call inside a transaction."""
    run = (
        BackgroundRun.objects.select_for_update(of=("self",))
        .select_related("requested_by")
        .filter(event_id=event_id, kind=kind, pod=pod, status__in=ACTIVE)
        .first()
    )
    if run is not None and run.created_at < timezone.now() - ABANDONED_AFTER:
        run.status, run.error = BackgroundRunStatus.FAILED, ABANDONED
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "error", "finished_at"])
        return None
    return run


def run_request(
    *,
    event_id: int,
    kind: str,
    task: str,
    pod: str = "",
    by: Any = None,
    again_if_running: bool = False,
) -> tuple[BackgroundRun, bool]:
    """A queued run of (event, kind, pod) whose Celery task ``task`` (by name, given the
    run id) is queued after commit; or the run already queued or running.

    Returns ``(run, created)``; ``created`` is False when the run was already going, and
    then no second task is queued. ``again_if_running`` marks a *running* run
    ``requested_again`` (it read its data before this transaction's changes, so
    :func:`run_finish` queues a follow-up run); a queued run reads them anyway. Race-safe:
    the loser of two simultaneous requests hits ``run_one_active`` inside a savepoint and
    takes the winner's run.
    """
    user = by if getattr(by, "is_authenticated", False) else None
    with transaction.atomic():
        for attempt in range(3):
            run = run_active(event_id, kind, pod)
            if run is not None:
                if again_if_running and run.status == BackgroundRunStatus.RUNNING:
                    run.requested_again = True
                    run.save(update_fields=["requested_again"])
                return run, False
            try:
                with transaction.atomic():  # savepoint: a lost race keeps the transaction usable
                    run = BackgroundRun.objects.create(
                        event_id=event_id, kind=kind, pod=pod, requested_by=user
                    )
            except IntegrityError:
                if attempt == 2:
                    raise
                continue  # another request made the active run a moment ago: find it
            task_on_commit(task, run.pk)
            return run, True
    raise AssertionError("unreachable")


def run_finish(run: BackgroundRun, *, status: str, task: str, error: str = "") -> None:
    """Record that ``run`` ended (done or failed, with ``error``); when it was asked for
    again while running, queue a new run of the same group and its ``task``."""
    with transaction.atomic():
        locked = BackgroundRun.objects.select_for_update().get(pk=run.pk)
        locked.status, locked.error, locked.finished_at = status, error, timezone.now()
        locked.save(update_fields=["status", "error", "finished_at"])
        if locked.requested_again:
            run_request(event_id=locked.event_id, kind=locked.kind, pod=locked.pod, task=task)
    run.status, run.error, run.finished_at = locked.status, locked.error, locked.finished_at
