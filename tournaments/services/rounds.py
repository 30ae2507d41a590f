"""Round lifecycle: paired → published → started → complete (P-POST-1, P-POST-2)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from ..actors import Actor
from ..errors import RoundStateError
from ..models import (
    BackgroundRun,
    Event,
    EventStatus,
    Match,
    MatchSeat,
    Outcome,
    PairingGroup,
    Phase,
    Registration,
    Round,
    RoundStatus,
    match_kind,
)
from ..public_pages import public_pages_changed
from .audit import audit_log
from .runs import run_request
from .seating import round_tables

Table = tuple[int | None, Sequence[Registration], str]


@transaction.atomic
def round_create(
    *,
    event: Event,
    group: PairingGroup,
    number: int,
    phase: str,
    tables: Sequence[Table],
    by: Actor,
    seed: int = 0,
    flags: dict[int, tuple[bool, bool]] | None = None,
    notes: Sequence[str] = (),
    third_place: int | None = None,
) -> Round:
    """Create a paired (not yet public) round of ``group`` from ``tables``.

    tables: ``(table number or None, [registrations in seat order], why)``; a single
    registration is a bye, recorded at once (P-SW-5). Each match's kind (``Match.kind``)
    is stored: a bye, a Swiss match in a Swiss phase, else a bracket match, and the
    3rd/4th place playoff for the index ``third_place`` (P-TC-4, P-SE-6); ``why`` is its
    explanation for people only. flags: optional ``{index: (pair_down, rematch)}``. notes: the engine's sentences for staff (an
    unavoidable rematch, a bye moved up, unproven optimality), stored in ``Round.notes``
    and the audit row. The database refuses a player seated twice. The table numbers
    are the hall's: the bracket places numbered from the group's first table, around
    the event's fixed seats (``seating.round_tables``).
    """
    # numbered from the group's first table, after other groups' tables;
    # fixed seats kept, their tables reserved hall-wide (services.seating)
    seated = round_tables(group, phase, tables)
    notes = [*notes, *seated.notes]
    rnd = Round.objects.create(
        event=event, group=group, phase=phase, number=number, seed=seed, notes=list(notes)
    )
    flags = flags or {}

    # Two inserts whatever the size (a 1,000-table round in well under a second); the
    # matches keep the order of ``tables`` (their pks increase in that order).
    # Ids, not instances, for the foreign keys: setting a related instance costs more
    # than the insert itself at 3,000 rows.
    matches = Match.objects.bulk_create(
        Match(
            round_id=rnd.pk,
            table=seated.numbers[i],
            seating=seated.seating[i],
            kind=match_kind(
                phase, Outcome.BYE if len(regs) == 1 else "", third_place=i == third_place
            ),
            outcome=Outcome.BYE if len(regs) == 1 else Outcome.PENDING,
            why=why[:200],
            pair_down=flags.get(i, (False, False))[0],
            rematch=flags.get(i, (False, False))[1],
        )
        for i, (_, regs, why) in enumerate(tables)
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match_id=match.pk, round_id=rnd.pk, registration_id=reg.pk, seat=n)
        for match, (_, regs, _) in zip(matches, tables, strict=True)
        for n, reg in enumerate(regs, start=1)
    )
    if event.status == EventStatus.REGISTRATION:
        event.status = EventStatus.SWISS
        event.save(update_fields=["status"])
    if phase == Phase.TOP_CUT and event.status == EventStatus.SWISS:
        event.status = EventStatus.TOP_CUT
        event.save(update_fields=["status"])
    audit_log(
        event=event,
        by=by,
        action="round.pair",
        obj=rnd,
        round_number=number,
        new={"group": group.key, "phase": phase, "seed": seed, "tables": len(tables)},
    )
    return rnd


def _locked(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("event").get(pk=round_.pk)


def _transition(round_: Round, *, by: Actor, frm: str, to: str, stamp: str) -> Round:
    rnd = _locked(round_)
    if rnd.status != frm:
        raise RoundStateError(
            gettext("Round %(number)s is %(lower)s; it must be %(lower2)s to do that.")
            % {
                "number": rnd.number,
                "lower": rnd.get_status_display().lower(),
                "lower2": RoundStatus(frm).label.lower(),
            }
        )
    rnd.status = to
    setattr(rnd, stamp, timezone.now())
    rnd.save(update_fields=["status", stamp])
    audit_log(
        event=rnd.event,
        by=by,
        action=f"round.{to}",
        obj=rnd,
        round_number=rnd.number,
        old={"status": frm},
        new={"status": to},
    )
    return rnd


@transaction.atomic
def round_publish(*, round: Round, by: Actor) -> Round:  # noqa: A002 - the field's term
    """Make a paired round public (P-POST-1). Its public pages are built once, after
    commit, and served from the cache (``public_pages``). Raises RoundStateError unless paired."""
    rnd = _transition(
        round, by=by, frm=RoundStatus.PAIRED, to=RoundStatus.PUBLISHED, stamp="published_at"
    )
    public_pages_changed(rnd.event_id)
    return rnd


@transaction.atomic
def round_start(*, round: Round, by: Actor) -> Round:  # noqa: A002
    """Start a published round: its pairings are frozen from now on (P-POST-2). The
    public pages say so once rebuilt (their live note; the players' pages offer the
    report buttons): the pages are rebuilt and announced after commit, without the
    pairings fragment, which does not change. Raises RoundStateError unless published."""
    rnd = _transition(
        round, by=by, frm=RoundStatus.PUBLISHED, to=RoundStatus.STARTED, stamp="started_at"
    )
    public_pages_changed(rnd.event_id, pairings=False)
    return rnd


def round_complete_if_reported(rnd: Round, *, by: Actor) -> bool:
    """Mark a started round complete once every match has a result (P-POST-1). Must run
    inside the slip's transaction; when it returns True the caller queues the standings
    run (:func:`standings_refresh_on_commit`), which also rebuilds the public pages.
    Returns True when the round became complete."""
    if rnd.status != RoundStatus.STARTED or rnd.matches.filter(outcome="pending").exists():
        return False
    rnd.status = RoundStatus.COMPLETE
    rnd.completed_at = timezone.now()
    rnd.save(update_fields=["status", "completed_at"])
    # No longer live (polling stops): the pages are dropped now and rebuilt by the
    # standings run the caller queues for this commit (one build, not two).
    public_pages_changed(rnd.event_id, pairings=False, build=False)
    audit_log(
        event=rnd.event,
        by=by,
        action="round.complete",
        obj=rnd,
        round_number=rnd.number,
        old={"status": RoundStatus.STARTED},
        new={"status": RoundStatus.COMPLETE},
    )
    return True


def standings_refresh_on_commit(event_id: int) -> None:
    """Have the standings computed again once this transaction commits (P-POST-1).

    Queues a standings run and its task (``standings.tasks.standings_compute``), or
    joins the one already going: a queued run reads this transaction's results when it
    starts; a running one may have read before them, so it queues a follow-up when it
    ends (``runs.run_request``, one active run per event). Call inside the transaction
    that changed the results.
    """
    run_request(
        event_id=event_id,
        kind=BackgroundRun.Kind.STANDINGS,
        task="standings.tasks.standings_compute",
        again_if_running=True,
    )


@transaction.atomic
def round_discard(*, round: Round, by: Actor, reason: str = "") -> None:  # noqa: A002
    """Throw away a round that has not started, so it can be paired again.

    Refused once the round has started: start freezes the pairings (P-POST-2). The
    discarded pairings stay in the audit trail (P-POST-3).
    """
    rnd = _locked(round)
    if rnd.status in (RoundStatus.STARTED, RoundStatus.COMPLETE):
        raise RoundStateError(
            gettext("Round %(number)s has started: its pairings are frozen.")
            % {"number": rnd.number}
        )
    tables = [
        [s.registration.external_id for s in m.seats.select_related("registration")]
        for m in rnd.matches.order_by("table")
    ]
    audit_log(
        event=rnd.event,
        by=by,
        action="round.discard",
        obj=rnd,
        round_number=rnd.number,
        old={"status": rnd.status, "seed": rnd.seed, "tables": tables},
        reason=reason,
    )
    was_public = rnd.status == RoundStatus.PUBLISHED
    rnd.delete()
    if was_public:
        public_pages_changed(rnd.event_id)
