"""The database side of live pages: which topic of which event changed, and telling every
process.

``changed(event_id, topics…)`` is called inside the transaction that makes the change;
the counters are bumped only after it commits (``transaction.on_commit``), in one short
statement of their own. Decision: not inside the transaction, so twenty scorekeepers
entering slips at once never wait on one another's counter row; a process that dies
between the commit and the bump loses only the notice (the next change carries the page
along), never a result.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from functools import partial

from django.db import connection, transaction
from django.utils import timezone

from ..models import LiveVersion, MatchSeat
from .hub import hub, publish_redis
from .topics import (
    CHANNEL_PREFIX,
    CLOCK,
    FINISHED,
    OPTIONAL_PUBLIC,
    PLAYER_PREFIX,
    PUBLIC,
    RESULTS,
    STAFF,
    Change,
    channel,
    player_topic,
)

__all__ = [
    "CHANNEL_PREFIX",
    "CLOCK",
    "FINISHED",
    "OPTIONAL_PUBLIC",
    "PLAYER_PREFIX",
    "PUBLIC",
    "RESULTS",
    "STAFF",
    "Change",
    "bump",
    "changed",
    "channel",
    "current",
    "player_topic",
]

log = logging.getLogger(__name__)


def changed(
    event_id: int,
    *topics: str,
    registrations: Iterable[int] = (),
    matches: Iterable[int] = (),
) -> None:
    """Say that ``topics`` of the event change in the current transaction (at once when
    none is open), and the own pages of ``registrations`` and of the players of
    ``matches`` (``reg:<id>`` topics; the seats are read after commit). ``staff`` is always
    added: the staff pages show every change. Nothing is written if the transaction rolls
    back."""
    wanted = {STAFF, *topics, *(player_topic(r) for r in registrations)}
    transaction.on_commit(partial(_committed, event_id, frozenset(wanted), tuple(matches)))


def _committed(event_id: int, topics: frozenset[str], matches: tuple[int, ...]) -> None:
    """After commit: the change is saved whatever happens here, so a failure to bump is
    logged, never raised to the request that made the change."""
    try:
        _bump_committed(event_id, topics, matches)
    except Exception:  # noqa: BLE001 - the notice is lost, the change is not
        log.exception("Live pages: could not record a change of event %s", event_id)


def _bump_committed(event_id: int, topics: frozenset[str], matches: tuple[int, ...]) -> None:
    if matches:
        seated = MatchSeat.objects.filter(match_id__in=matches).values_list(
            "registration_id", flat=True
        )
        topics = topics | {player_topic(r) for r in seated}
    bump(event_id, sorted(topics))


def bump(event_id: int, topics: Sequence[str]) -> list[Change]:
    """Grow the counters of ``topics`` (created at 1) now, in autocommit, and tell every
    process. Returns the new versions. 1 query (rows in sorted order: two bumps never
    deadlock)."""
    if not topics:
        return []
    unique = sorted(set(topics))
    table = "tournaments_liveversion"
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    params: list[int | str | None] = []
    for topic in unique:
        params += [event_id, topic, now]
    sql = (
        f"INSERT INTO {table} (event_id, topic, version, changed_at) VALUES "
        + ", ".join(["(%s, %s, 1, %s)"] * len(unique))
        + f" ON CONFLICT (event_id, topic) DO UPDATE SET version = {table}.version + 1, "
        "changed_at = excluded.changed_at RETURNING topic, version"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        changes = [Change(event_id, t, int(v)) for t, v in cursor.fetchall()]
    _tell(changes)
    return changes


def _tell(changes: list[Change]) -> None:
    """This process's hub at once; the others through Redis (when configured). Redis down
    costs only speed: every hub also reads the table each second."""
    hub().publish(changes)
    publish_redis(changes)


def current(event_id: int, topics: Iterable[str]) -> dict[str, int]:
    """The versions of ``topics`` at the event now (0: never changed). 1 query."""
    wanted = list(topics)
    found = dict(
        LiveVersion.objects.filter(event_id=event_id, topic__in=wanted).values_list(
            "topic", "version"
        )
    )
    return {t: int(found.get(t, 0)) for t in wanted}
