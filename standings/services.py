"""Standings services: compute, place per division, store a snapshot (P-TB, P-TC, R-5).

The same code serves the staff pages, the public pages, the ``standings`` command and
the Celery task that recomputes after every round.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction
from django.utils.translation import gettext_noop

from rulesets import get_ruleset
from tournaments import follow_ups
from tournaments.actors import Actor
from tournaments.groups import age_order, cut_group_of, swiss_group
from tournaments.models import (
    BackgroundRun,
    BackgroundRunStatus,
    Division,
    Event,
    Match,
    MatchKind,
    Outcome,
    PairingGroup,
    Phase,
    Registration,
    RoundStatus,
)
from tournaments.outages import BROKER_ERRORS, broker_outage
from tournaments.procedures import Stage, group_stages, standalone_bracket
from tournaments.public_pages import public_pages_changed
from tournaments.services import event_finish
from tournaments.services.runs import run_claim, run_finish, run_heartbeat, run_request

from . import adapters
from .day2_standings import with_day2
from .flight_standings import merged_standings
from .models import StandingsSnapshot
from .se_standings import se_standings_data
from .swiss_standings import GroupStandings, swiss_standings

logger = logging.getLogger(__name__)


def group_standings(event: Event, group: PairingGroup) -> GroupStandings:
    """Swiss standings of ``group`` after its last complete round (``swiss_standings``:
    the event's ruleset, P-TB, R-5, I-6), then each later stage's order: a two-day event
    is re-ordered after its Day 2 rounds (P-D2-2, R-3; ``day2_standings``); a flighted
    division's group merges its flights' standings (P-FL-5; ``flight_standings``)."""
    flights = sorted(
        (g for g in group.children.all() if g.flight is not None), key=lambda g: g.flight or 0
    )
    if flights:
        division = group.divisions.get()
        return merged_standings(event, division, [group_standings(event, f) for f in flights])
    ps = swiss_standings(event, group)
    if Stage.DAY2 in group_stages(event, group):
        return with_day2(event, ps)
    return ps


def division_swiss_order(event: Event, division: Division) -> list[Registration]:
    """The division's players in Swiss standing order (places are per division, R-5)."""
    ps = group_standings(event, swiss_group(division))
    regs = ps.registrations
    return [regs[row.player] for row in ps.rows if regs[row.player].division_id == division.pk]


def _cut_matches(division: Division) -> list[Any]:
    cut = cut_group_of(division)
    return adapters.match_records(cut, phases=(Phase.TOP_CUT,)) if cut else []


def _division_rows(event: Event, division: Division, ps: GroupStandings) -> list[dict[str, Any]]:
    """Rows of one division in final order: Swiss order, re-ordered by the top cut
    (P-TC-2, P-TC-3, R-4); disqualified players last without a place."""
    regs = ps.registrations
    lines = {r.player: r for r in ps.rows if regs[r.player].division_id == division.pk}
    order = [r.player for r in ps.rows if r.player in lines]
    cut = _cut_matches(division)
    cut_players = {p for m in cut for p in m.players}
    if cut:
        order = list(get_ruleset(event.ruleset).cut_places(order, cut))
    placed = [p for p in order if not regs[p].disqualified]
    out = [
        adapters.row_json(n, lines[p], regs[p], p in cut_players) for n, p in enumerate(placed, 1)
    ]
    out += [
        adapters.row_json(None, lines[p], regs[p], False) for p in order if regs[p].disqualified
    ]
    return out


def _division_finished(event: Event, division: Division, swiss_done: int) -> bool:
    """Every Swiss round played and, with a cut, the final played (one table left)."""
    if swiss_done < division.rounds + event.day2_rounds or swiss_done == 0:
        return False
    if not division.cut:
        return True
    cut = cut_group_of(division)
    last = cut.rounds.order_by("-number").first() if cut else None
    return (
        last is not None
        and last.status == RoundStatus.COMPLETE
        and last.matches.filter(table__isnull=False).exclude(kind=MatchKind.THIRD_PLACE).count()
        == 1
    )


def standings_data(event: Event) -> dict[str, Any]:
    """The event's current standings as the Standings JSON of docs/interfaces.md, plus
    ``rounds`` (complete Swiss rounds per division) and exact Fractions as strings."""
    if standalone_bracket(event):  # a bracket only: P-SE-5 placement
        return se_standings_data(event)
    divisions: dict[str, list[dict[str, Any]]] = {}
    rounds: dict[str, int] = {}
    by_group: dict[int, GroupStandings] = {}
    finished = True
    for division in event.divisions.prefetch_related("groups").order_by(age_order()):
        group = swiss_group(division)
        if group.pk not in by_group:
            by_group[group.pk] = group_standings(event, group)
        divisions[division.code] = _division_rows(event, division, by_group[group.pk])
        rounds[division.code] = by_group[group.pk].rounds
        finished = finished and _division_finished(event, division, rounds[division.code])
    data = {
        "event": event.slug,
        "ruleset": event.ruleset,
        "divisions": divisions,
        "rounds": rounds,
        "final": finished,
    }
    if unrecorded := games_unrecorded(event):  # ; absent otherwise
        data["games_unrecorded"] = unrecorded
    return data


def games_unrecorded(event: Event) -> int:
    """How many decided head-to-head matches of a ruleset that records games were stored
    without their games: match results imported from a source that publishes no game
    records. Their match points and OMW are exact; GW % and OGW %
    count only the games known, and the standings pages say so (Standings JSON key
    ``games_unrecorded``, only when not 0). 0 or 1 query."""
    if not event.rules.game_record:
        return 0
    played = Match.objects.filter(round__event=event, outcome__in=(Outcome.WIN, Outcome.DRAW))
    return played.filter(games__isnull=True).count()  # (such rulesets have no pods)


@transaction.atomic
def standings_compute(*, event: Event, by: Actor = None) -> StandingsSnapshot:
    """Compute and store a standings snapshot (every version is kept, P-POST-3); the
    public pages are rebuilt after commit (``tournaments.public_pages``)."""
    data = standings_data(event)
    complete = max(data["rounds"].values(), default=0)
    final = bool(data["final"] and data["divisions"])
    if final:
        event_finish(event=event, by=by)
    # The receipts first: counted for the new snapshot before the public pages are
    # rebuilt and announced, so the open receipt pages that refresh on that notice read
    # them kept rather than each counting their group.
    transaction.on_commit(partial(receipts_send, event.pk))
    public_pages_changed(event.pk, pairings=False)
    snapshot = StandingsSnapshot.objects.create(
        event=event,
        label="Final standings" if final else f"After round {complete}",
        rounds_complete=complete,
        final=final,
        data=data,
    )
    transaction.on_commit(partial(outlook_send, snapshot.pk))  # the cut-line outlook
    return snapshot


#: The cut-line outlook's task, sent by name: the pairing layer simulates the rest of the
#: Swiss (``pairings.outlook_services``) and standings never imports pairings.
OUTLOOK_TASK = "pairings.tasks.outlook_compute"


def outlook_send(snapshot_id: int) -> None:
    """Send the outlook task for a snapshot that just committed. An unreachable broker is
    logged once per outage and never raised: the standings are stored; only their
    outlook is missing."""
    _send(OUTLOOK_TASK, snapshot_id)


#: The task that counts the tiebreaker receipts of the event's latest standings ahead of
#: the pages asking (``standings.receipts.receipts_warm``).
RECEIPTS_TASK = "standings.tasks.receipts_warm"


def receipts_send(event_id: int) -> None:
    """Send the receipts task for the event whose standings snapshot just committed. An
    unreachable broker is logged once per outage and never raised: each receipt page then
    counts its group on demand (``standings.receipts.player_receipt_cached``)."""
    _send(RECEIPTS_TASK, event_id)


def _send(task: str, record_id: int) -> None:
    """Send a follow-up of the standings: to the worker, or without one to this process's
    follow-up thread (``tournaments.follow_ups``), so the request that completed the round
    does not wait for the outlook's simulation."""
    if follow_ups.deferred():
        follow_ups.send(task, record_id)
        return
    try:
        current_app.tasks[task].delay(record_id)
    except BROKER_ERRORS as e:
        broker_outage.failed(e)
    else:
        broker_outage.worked()


def standings_latest(event: Event) -> StandingsSnapshot | None:
    """The most recent snapshot of the event, or None before any was computed."""
    return event.standings.order_by("-computed_at", "-id").first()


STANDINGS_TASK = "standings.tasks.standings_compute"


def standings_run_execute(run_id: int) -> None:
    """Body of the standings task: compute once per run row, record done or failed.

    A message for a run that is no longer the active one (finished, or held by another
    worker) does nothing (``tournaments.services.runs.run_claim``). A failure is logged
    with its traceback and kept on the row for the staff page. A run asked for again
    while it ran (results changed meanwhile) queues a follow-up run as it ends
    (``tournaments.services.runs.run_finish``).
    """
    run = run_claim(run_id)
    if run is None:
        return
    try:
        with run_heartbeat(run.pk):
            standings_compute(event=run.event)
    except Exception:
        logger.exception("standings run %s failed", run_id)
        error = gettext_noop("Standings failed because of an unexpected error.")  # shown translated
        run_finish(run, status=BackgroundRunStatus.FAILED, error=error, task=STANDINGS_TASK)
        raise
    run_finish(run, status=BackgroundRunStatus.DONE, task=STANDINGS_TASK)


def standings_request(*, event: Event, by: Actor) -> tuple[BackgroundRun, bool]:
    """Compute the standings again in a fresh run (the staff page's "Try again" after a
    failed run), or join the run already going; returns ``(run, created)``. A running run
    is asked again (``again_if_running``), so it is followed by one that reads the
    current results. A run whose lease is lost (no worker answered) is sent again, or
    failed and replaced (``recover_lost``)."""
    return run_request(
        event_id=event.pk,
        kind=BackgroundRun.Kind.STANDINGS,
        task=STANDINGS_TASK,
        by=by,
        again_if_running=True,
        recover_lost=True,
    )


def standings_run_latest(event: Event) -> BackgroundRun | None:
    """The most recent standings run of the event (for the staff page's status line)."""
    return event.runs.filter(kind=BackgroundRun.Kind.STANDINGS).order_by("-created_at").first()
