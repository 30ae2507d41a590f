"""Table numbers across the pairing groups of one hall, and starting them together.

Every pairing group numbers its tables from its ``first_table`` (``PairingGroup``), so
groups playing at the same time never share a number: Masters on tables 1–8, Junior +
Senior on 9–14, each top cut after the tables still in play. A group whose first table
is not set gets one when its first round is paired: the table after the highest one used
by the other groups' rounds in play (paired, published or started), kept for its later
rounds so each group stays in its part of the hall; staff may change it (dashboard, the
rounds paired afterwards follow). If a group's range would reach a table another group's
round in play uses (more players than when it was set), the round starts after them and
its notes say so: a number is never given twice. "Start all" publishes and starts every
group's paired-not-started round at one server time, so the projector shows one clock
for them.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from ..actors import Actor
from ..errors import InvalidInput, RoundStateError
from ..groups import group_label
from ..models import Event, Match, PairingGroup, Round, RoundStatus
from ..public_pages import public_pages_changed
from .audit import audit_log

#: Rounds whose tables are taken: paired, on the pairings board, or being played.
IN_PLAY = (RoundStatus.PAIRED, RoundStatus.PUBLISHED, RoundStatus.STARTED)

#: The highest first table staff may set.
MAX_FIRST_TABLE = 9999


def tables_in_play(event: Event, *, besides: PairingGroup | None = None) -> set[int]:
    """The table numbers used by the event's rounds in play (``IN_PLAY``), other than
    those of ``besides``. One query."""
    matches = Match.objects.filter(
        round__event=event, round__status__in=IN_PLAY, table__isnull=False
    )
    if besides is not None:
        matches = matches.exclude(round__group=besides)
    return {
        table for table in matches.order_by().values_list("table", flat=True) if table is not None
    }


def round_first_table(
    group: PairingGroup, count: int, taken: set[int] | None = None
) -> tuple[int, str]:
    """``(first table, note)`` for a round of ``group`` about to be paired whose tables
    the engine numbered 1 to ``count`` (module docstring). A group without a first table gets one here (saved, so
    call inside the pairing's transaction); ``note`` is "" unless the group's tables
    were taken by another group's round in play and this round starts after them.
    ``taken``: those tables when the caller has read them (``tables_in_play``). Two
    queries at most."""
    if taken is None:
        taken = tables_in_play(group.event, besides=group)
    after = max(taken, default=0) + 1
    if group.first_table is None:
        group.first_table = after
        group.save(update_fields=["first_table"])
        return after, ""
    first = group.first_table
    if not count or not taken & set(range(first, first + count)):
        return first, ""
    note = gettext(
        "Tables %(first)s–%(last)s are in use by another group: this round starts at table %(start)s."
    ) % {"first": first, "last": first + count - 1, "start": after}
    return after, note


def group_first_table_set(
    *, group: PairingGroup, first_table: int | None, by: Actor
) -> PairingGroup:
    """Set the first table of ``group`` (1–``MAX_FIRST_TABLE``), or None to have it set
    when its next round is paired. Rounds already paired keep their tables; the next ones
    follow. Audited. Raises InvalidInput for another number."""
    if first_table is not None and (
        isinstance(first_table, bool) or not 1 <= first_table <= MAX_FIRST_TABLE
    ):
        raise InvalidInput(
            gettext("The first table is a number from 1 to %(max)s.") % {"max": MAX_FIRST_TABLE}
        )
    with transaction.atomic():
        row = PairingGroup.objects.select_for_update().select_related("event").get(pk=group.pk)
        old = row.first_table
        if old == first_table:
            return row
        row.first_table = first_table
        row.save(update_fields=["first_table"])
        audit_log(
            event=row.event,
            by=by,
            action="group.first_table",
            obj=row,
            old={"group": row.key, "first_table": old},
            new={"group": row.key, "first_table": first_table},
        )
    return row


def rounds_to_start(event: Event) -> list[tuple[str, Round]]:
    """``(group label, round)`` of the rounds "Start all" would start: each group's round
    that is paired or published and not started, by group. Two queries."""
    rounds = Round.objects.filter(
        event=event, status__in=(RoundStatus.PAIRED, RoundStatus.PUBLISHED)
    ).select_related("group")
    rounds = rounds.prefetch_related("group__divisions").order_by("group__key", "number")
    return [(group_label(r.group), r) for r in rounds]


@transaction.atomic
def rounds_start_all(*, event: Event, by: Actor) -> list[Round]:
    """Publish (P-POST-1) and start (P-POST-2) every paired-not-started round of the event
    at one server time, so they run under one clock: one ``started_at``
    (and ``published_at`` for those still paired), an audit row per step as
    ``round_publish`` and ``round_start`` write them, the public pages rebuilt once.
    Returns the rounds started, by group. Raises RoundStateError when there is none."""
    rounds: Sequence[Round] = list(
        Round.objects.select_for_update()
        .filter(event=event, status__in=(RoundStatus.PAIRED, RoundStatus.PUBLISHED))
        .order_by("group_id", "number")
    )
    if not rounds:
        raise RoundStateError(gettext("No paired round is waiting to start."))
    now = timezone.now()
    for rnd in rounds:
        steps = (
            [(RoundStatus.PUBLISHED, "published_at")] if rnd.status == RoundStatus.PAIRED else []
        )
        for to, stamp in [*steps, (RoundStatus.STARTED, "started_at")]:
            frm = rnd.status
            rnd.status = to
            setattr(rnd, stamp, now)
            audit_log(
                event=event,
                by=by,
                action=f"round.{to}",
                obj=rnd,
                round_number=rnd.number,
                old={"status": frm},
                new={"status": to},
                reason="start all",
            )
        rnd.save(update_fields=["status", "published_at", "started_at"])
    public_pages_changed(event.pk)
    return sorted(rounds, key=lambda r: (r.group.key, r.number))
