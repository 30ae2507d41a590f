"""Pairing services: create rounds from the engines' answers (P-SW, P-TC, R-6).

Every function that changes state is atomic, audited and takes ``by=`` the acting user.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournaments.actors import Actor
from tournaments.errors import MatchslipError, PairingRefused, ResultsMissing, RoundStateError
from tournaments.groups import group_label
from tournaments.models import (
    BackgroundRun,
    BackgroundRunStatus,
    Event,
    GroupPhase,
    Outcome,
    PairingGroup,
    Registration,
    Round,
    RoundStatus,
)
from tournaments.services.runs import ACTIVE as ACTIVE_RUNS
from tournaments.services.runs import run_active, run_claim, run_heartbeat, run_request
from tournaments.stored_text import deferred, gettext_storable, stored

from .procedures import event_groups, group_next_step, load_group, next_step, pair_step
from .procedures.base import Step, StepKind
from .procedures.top_cut import cut_players

logger = logging.getLogger(__name__)


def check_previous_complete(last: Round | None) -> None:
    """R-6 and P-POST-1: the previous round must be complete before pairing the next."""
    if last is None or last.status == RoundStatus.COMPLETE:
        return
    if last.status == RoundStatus.STARTED:
        missing = last.matches.filter(outcome=Outcome.PENDING).count()
        raise ResultsMissing(
            gettext_storable(
                "Round %(number)s still has %(missing)s result(s) missing. Enter them (or record an abandoned match as a double loss) before pairing the next round."
            )
            % {"number": last.number, "missing": missing}
        )
    raise RoundStateError(
        gettext_storable(
            "Round %(number)s is %(lower)s: publish and start it, and enter its results, before pairing the next round."
        )
        % {"number": last.number, "lower": last.get_status_display().lower()}
    )


def cut_decklists(event: Event, group: PairingGroup | str) -> list[tuple[Registration, bool]]:
    """P-POST-5: while the top cut of ``group`` (a row or its key) is next in a
    Championship Point event, the players who make it and whether each has handed in a
    deck list; else empty."""
    if not event.collects_decklists:  # wherever lists are collected
        return []
    step = next_step(event, group)
    if step.kind != StepKind.TOP_CUT:
        return []
    out: list[tuple[Registration, bool]] = []
    for division in step.divisions:
        try:
            out += [(r, r.decklist_received_at is not None) for r in cut_players(event, division)]
        except PairingRefused:
            continue  # the dashboard's next step already says why
    return out


@transaction.atomic
def round_pair(
    *, event: Event, group: PairingGroup | str, by: Actor, seed: int | None = None
) -> list[Round]:
    """Pair the next round of ``group`` (a row or its key) and return the new round(s),
    still unpublished.

    The group's next stage pairs it (``pairings.procedures``): Swiss while Swiss rounds
    remain (P-SW-1…8, the seed stored, I-1; a group of several divisions age-modified,
    P-AGE-3); then Day 2 rounds of a two-day event (P-D2-1, R-3); then the top cut of
    every division of the group that has one (P-TC-1, merged over flights P-FL-5); in a
    top-cut group, the next elimination round. A standalone single-elimination event pairs
    its bracket (P-SE); a multiplayer event its pods (MP-POD, MP-PAIR, MP-SE).
    Raises ResultsMissing (R-6), RoundStateError, PairingRefused,
    PairingGroup.DoesNotExist for an unknown key.
    """
    Event.objects.select_for_update().get(pk=event.pk)  # one pairing at a time per event
    state = load_group(event, group)
    step = group_next_step(state)
    check_previous_complete(step.last)
    return pair_step(state, step, by=by, seed=seed)


def pairing_refusal(event: Event, group: PairingGroup | str) -> str | None:
    """Why ``group`` (a row or its key) has nothing to pair now, or None when a pairing run may start.

    Its round is already paired or published (a double click, a second tab), it waits
    for other flights (P-FL-5), or no round is left: the next step's sentence. A round
    started with results missing is left to :func:`round_pair`, whose R-6 refusal counts
    them and stays on the group as a failed run.
    """
    return _refusal(next_step(event, group))


def _refusal(step: Step) -> str | None:
    if step.can_pair or (step.last is not None and step.last.status == RoundStatus.STARTED):
        return None
    return step.message


def _round_to_pair(step: Step) -> int:
    """The number of the round a pairing run started now would create."""
    if step.last is not None and step.last.status != RoundStatus.COMPLETE:
        return max(step.number, step.last.number + 1)  # waits for results
    return step.number


def pairing_request(*, event: Event, group: str, by: Actor) -> tuple[BackgroundRun, bool]:
    """Queue the pairing of the next round of pairing group ``group`` (its key) in a
    Celery task (``pair_round``), or find the run already queued or running for it (one
    at a time: the partial
    unique index ``run_one_active``).

    Returns ``(run, created)``: the run records progress and failure (the staff page
    polls it) and the round it is to pair (``round_number``); ``created`` is False when it
    was already going, and no second task is queued. Raises RoundStateError with
    :func:`pairing_refusal`'s sentence, before any run is made, when the group has nothing
    to pair now. When the broker is unreachable the run is failed at once with a reason
    (``runs.UNSENT``), never left queued. A run whose worker or message was lost (its
    lease, ``runs.row_lease_lost``) is sent again, or failed and replaced when its worker
    died too often: the page's "Try again" works with no sweep running.
    """
    with transaction.atomic():
        run = run_active(event.pk, BackgroundRun.Kind.PAIRING, group, recover_lost=True)
        created = False
        # The run first, then the rounds: a run finishing in between is seen either still
        # going or with its round paired, never as neither.
        if run is None:
            step = next_step(event, group)
            if refusal := _refusal(step):
                raise RoundStateError(refusal)
            run, created = run_request(
                event_id=event.pk,
                kind=BackgroundRun.Kind.PAIRING,
                group=group,
                by=by,
                task="pairings.tasks.pair_round",
                round_number=_round_to_pair(step),
            )
    run.refresh_from_db()  # the task ran eagerly at commit when no broker is configured
    return run, created


def pairing_run_execute(run_id: int) -> None:
    """Body of the pairing task: pair once per run row (idempotent), record the outcome.

    A message for a run that is finished or held by another worker does nothing
    (``runs.run_claim``). A run that finds its group paired since it was requested, or
    another round than the one it was asked for next, or nothing to pair (see
    :func:`pairing_refusal`) is done without pairing, with a note on the row ("Superseded:
    round 6 was paired meanwhile"): a late message never pairs a round nobody asked for.
    Refusals (MatchslipError) are kept on the row; anything else is logged and re-raised.
    Notes and errors are stored language-neutrally (``tournaments.stored_text``): the staff
    page shows them in its reader's language.
    """
    run = run_claim(run_id)
    if run is None:
        return
    try:
        with run_heartbeat(run.pk), transaction.atomic():
            Event.objects.select_for_update().get(pk=run.event_id)  # as round_pair: one at a time
            note = _superseded(run)
            rounds = (
                [] if note else round_pair(event=run.event, group=run.group, by=run.requested_by)
            )
            run.status, run.seed = BackgroundRunStatus.DONE, rounds[0].seed if rounds else None
            run.finished_at, run.note = timezone.now(), note or run.note
            run.save(update_fields=["status", "seed", "finished_at", "note"])
    except MatchslipError as e:
        _fail(run, stored(e))
    except Exception:
        logger.exception("pairing run %s failed", run_id)
        _fail(run, UNEXPECTED)
        raise


UNEXPECTED = gettext_noop("Pairing failed because of an unexpected error; it has been logged.")


def _superseded(run: BackgroundRun) -> str:
    """Why ``run`` must not pair (the state it was asked about no longer holds), or "":
    a stored message (``tournaments.stored_text.deferred``). Call with the event locked."""
    event = run.event
    group = event.groups.prefetch_related("divisions").get(key=run.group)
    root = group.parent if group.flight is not None else group
    cuts = event.groups.filter(phase=GroupPhase.TOP_CUT, parent=root)
    since = (
        event.rounds.filter(Q(group=group) | Q(group__in=cuts), paired_at__gt=run.created_at)
        .order_by("-paired_at")
        .first()
    )
    if since is not None:
        at = f"{timezone.localtime(since.paired_at):%H:%M}"
        return deferred(
            gettext_noop(
                "Superseded: round %(number)s was paired meanwhile (%(at)s); nothing was paired."
            ),
            number=since.number,
            at=at,
        )
    step = next_step(event, group)
    if refusal := _refusal(step):
        return deferred(gettext_noop("Nothing to pair: %(refusal)s"), refusal=refusal)
    if run.round_number is not None and (number := _round_to_pair(step)) != run.round_number:
        return deferred(
            gettext_noop(
                "Superseded: round %(asked)s is no longer the next round (round %(number)s"
                " is); nothing was paired."
            ),
            asked=run.round_number,
            number=number,
        )
    return ""


def _fail(run: BackgroundRun, message: str) -> None:
    run.status, run.error, run.finished_at = BackgroundRunStatus.FAILED, message, timezone.now()
    run.save(update_fields=["status", "error", "finished_at"])


def pairing_runs_for_staff(event: Event) -> dict[str, BackgroundRun]:
    """``{group key: run}`` for the dashboard: the latest pairing run of each pairing
    group while it is queued or running, or failed with nothing paired since. A later run
    of the group, or a
    round paired in it (or in its divisions' top cut) after the failure, hides an older
    failure, so a refusal never lingers beside a round that was paired. 3 queries."""
    latest: dict[str, BackgroundRun] = {}
    runs = event.runs.filter(kind=BackgroundRun.Kind.PAIRING).select_related("requested_by")
    for run in runs.order_by("-created_at", "-id")[:50]:
        latest.setdefault(run.group, run)
    paired = _last_paired(event)
    failed = BackgroundRunStatus.FAILED
    return {
        key: run
        for key, run in latest.items()
        if run.status in ACTIVE_RUNS
        or (run.status == failed and paired.get(key, run.created_at) <= run.created_at)
    }


def _last_paired(event: Event) -> dict[str, dt.datetime]:
    """When each pairing group (by key) last had a round paired: its own rounds, and a
    cut's rounds for the Swiss group its cut is paired from (each flight too)."""
    groups = {g.pk: g for g in event.groups.all()}
    last = dict(event.rounds.values_list("group_id").annotate(at=Max("paired_at")))
    out = {groups[pk].key: at for pk, at in last.items()}
    for g in groups.values():
        if g.is_cut and (at := last.get(g.pk)) is not None and g.parent_id is not None:
            root = groups[g.parent_id]
            flights = [f for f in groups.values() if f.parent_id == root.pk and f.flight]
            for swiss in [root, *flights]:
                out[swiss.key] = max(out.get(swiss.key, at), at)
    return out


@dataclass(frozen=True)
class GroupState:
    """What the staff dashboard shows for one pairing group (``key``: its key)."""

    key: str
    label: str
    current: Round | None
    results_missing: int
    next_action: str
    can_pair: bool


def group_states(event: Event) -> list[GroupState]:
    """One GroupState per pairing group of the event: Swiss groups, then top-cut
    brackets."""
    states = []
    for group in event_groups(event):
        step = next_step(event, group)
        missing = 0
        if step.last is not None and step.last.status == RoundStatus.STARTED:
            missing = step.last.matches.filter(outcome=Outcome.PENDING).count()
        states.append(
            GroupState(
                key=group.key,
                label=group_label(group),
                current=step.last,
                results_missing=missing,
                next_action=step.message,
                can_pair=step.can_pair,
            )
        )
    return states
