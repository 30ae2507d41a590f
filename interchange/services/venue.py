"""Taking an event to a venue laptop and bringing it back (docs/operations.md, "Venue
mode"): the online copy is marked when it is taken; the venue's copy comes back only if
the online copy is unchanged since that mark, and then replaces it whole.

**Taking** (on the online instance; ``export_event SLUG PATH --archive --to-venue``):
:func:`venue_take` writes an audit row ``event.venue_take`` whose ``new`` names a fresh
trip token, then the event's archive (``archive.event_archive``: everything it holds,
that audit row included), and records a :class:`~tournaments.models.VenueTrip` holding
the mark: a digest of every archived row but the audit trail and the standings
snapshots (:func:`row_digests`). On
the laptop, ``import_event PATH`` restores the archive as the same event: same slug,
private links (every printed QR code keeps working), staff, audit trail.

**Bringing back** (online; the laptop's ``export_event SLUG PATH --archive``, then
``import_event PATH --from-venue``): :func:`venue_return` refuses, writing nothing, a
file that is not a copy of the event's latest trip; it lists and refuses every change
of the online copy since the mark:

* a row (player, round, match, seat, staff, note, standings …) added, changed or
  removed online: its digest differs from the mark's;
* an audit row of the online copy that the venue's file does not hold (compared by
  content, row ids aside; the online ``event.venue_return`` rows aside): a change made
  online — or a file older than a copy already brought back.

Nothing is merged. When the online copy is unchanged, one transaction deletes the
online event's rows, restores the venue's archive in their place (``archive_restore``
with ``replace``), writes an ``event.venue_return`` audit row and moves the mark to the
copy brought back, so the venue can send a later copy again. The event keeps its slug
and private links; its rows get new ids. To replace an online copy that did change,
``keep_online`` receives the online copy's archive first (the command writes it to a
file), so nothing is lost.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.actors import Actor, acting_user
from tournaments.errors import InvalidInput
from tournaments.models import Event, VenueTrip
from tournaments.public_pages import public_pages_changed
from tournaments.services.audit import audit_log

from .archive import SECTIONS, _check_shape, archive_restore, event_archive

TAKE_ACTION = "event.venue_take"
RETURN_ACTION = "event.venue_return"
#: An audit row's columns that say what happened (compared between the two copies);
#: its id, ``event_id``, ``object_id`` and ``actor_registration_id`` are row ids, which
#: differ between the copies.
AUDIT_CONTENT = ("at", "action", "object_type", "round_number", "actor", "old", "new", "reason")
#: The archive sections whose rows the mark holds: all but the audit trail (compared by
#: content) and the standings snapshots, which are computed from the rest (a snapshot
#: that a run started before the take stores afterwards is no change made online).
MARKED = tuple(section for section, _, _ in SECTIONS if section not in ("audit", "standings"))


class VenueRefused(InvalidInput):
    """The venue's copy cannot come back; the message says why, ``changes`` lists
    what changed online (one line each; empty for any other refusal). Nothing was
    written."""

    def __init__(self, message: str, changes: list[str] | None = None) -> None:
        super().__init__(message)
        self.changes = changes or []


@dataclass(frozen=True)
class VenueReturn:
    """A venue's copy brought back: the event as it now is online, how many audit rows
    the venue added since the mark (its changes, as the audit trail records them), and
    the online changes that were replaced (only with ``keep_online``)."""

    event: Event
    venue_changes: int
    replaced_online: list[str]


def _digest(row: dict[str, Any]) -> str:
    text = json.dumps(row, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def row_digests(doc: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The mark of an archive document (``archive.event_archive``):
    ``{section: {row id: digest}}`` for every section of :data:`MARKED` (the audit trail's
    rows are compared by content instead). A digest is 24 hex characters of SHA-256 over the
    row's JSON."""
    return {
        section: {str(row.get("id")): _digest(row) for row in doc.get(section, [])}
        for section in MARKED
    }


def _audit_key(row: dict[str, Any]) -> str:
    return json.dumps([row.get(k) for k in AUDIT_CONTENT], sort_keys=True, default=str)


@transaction.atomic
def venue_take(*, event: Event, by: Actor) -> dict[str, Any]:
    """Take ``event`` to a venue: audit it (``event.venue_take``, ``new`` naming the trip
    token), record the mark (a new :class:`VenueTrip`: the event's latest, the only one
    that can come back) and return the event's archive (``matchslip.archive.v1``, ready
    for ``json.dump``), which the laptop restores with ``import_event``. Taking it again
    makes a new trip: a copy taken before can then no longer come back."""
    ev = Event.objects.select_for_update().get(pk=event.pk)
    token = secrets.token_urlsafe(24)
    audit_log(event=ev, by=by, action=TAKE_ACTION, obj=ev, new={"trip": token})
    doc = event_archive(ev)
    VenueTrip.objects.create(
        event=ev,
        token=token,
        taken_at=timezone.now(),
        taken_by=acting_user(by),
        rows=row_digests(doc),
    )
    return doc


def _labels(doc: dict[str, Any]) -> Callable[[str, dict[str, Any]], str]:
    """Names rows of ``doc`` for the list of changes: a player's name, a round's number,
    a match's round and table, else the section and row id."""
    players = {p.get("id"): p.get("name") for p in doc.get("players", [])}
    rounds = {r.get("id"): r.get("number") for r in doc.get("rounds", [])}

    def label(section: str, row: dict[str, Any]) -> str:
        if section == "registrations" and row.get("player_id") in players:
            return gettext("player %(name)s") % {"name": players[row.get("player_id")]}
        if section == "players" and row.get("name"):
            return gettext("player %(name)s") % {"name": row["name"]}
        if section == "rounds" and row.get("number") is not None:
            return gettext("round %(number)s") % {"number": row["number"]}
        if section == "matches" and row.get("round_id") in rounds:
            return gettext("round %(number)s, table %(table)s") % {
                "number": rounds[row.get("round_id")],
                "table": row.get("table") or "—",
            }
        return f"{section} #{row.get('id')}"

    return label


def _row_changes(trip: VenueTrip, online: dict[str, Any]) -> list[str]:
    """The rows of the online copy added, changed or removed since the trip's mark."""
    label = _labels(online)
    lines = []
    now = row_digests(online)
    for section in MARKED:
        before: dict[str, str] = trip.rows.get(section, {})
        after = now.get(section, {})
        rows = {str(r.get("id")): r for r in online.get(section, [])}
        for pk, digest in after.items():
            if pk not in before:
                lines.append(gettext("%(what)s: added") % {"what": label(section, rows[pk])})
            elif before[pk] != digest:
                lines.append(gettext("%(what)s: changed") % {"what": label(section, rows[pk])})
        for pk in before.keys() - after.keys():
            lines.append(gettext("%(what)s: removed") % {"what": f"{section} #{pk}"})
    return lines


def _audit_line(row: dict[str, Any], online: dict[str, Any]) -> str:
    """An audit row in words: when, who, what, and the row it names (a match as its
    round and table, a player by name)."""
    try:
        at = timezone.localtime(dt.datetime.fromisoformat(str(row.get("at"))))
        when = at.strftime("%Y-%m-%d %H:%M:%S")
    except (ValueError, TypeError):  # a naive or unreadable time: as written
        when = str(row.get("at"))
    who = row.get("actor") or (
        gettext("a player's link")
        if row.get("actor_registration_id")
        else gettext("a command or the system")
    )
    parts = [when, str(who), str(row.get("action"))]
    sections = {"match": "matches", "registration": "registrations"}
    section = sections.get(str(row.get("object_type")))
    named = next(
        (r for r in online.get(section or "", []) if str(r.get("id")) == row.get("object_id")),
        None,
    )
    if named is not None and section is not None:
        parts.append(_labels(online)(section, named))
    else:
        if row.get("round_number"):
            parts.append(gettext("round %(number)s") % {"number": row["round_number"]})
        if row.get("object_type"):
            parts.append(f"{row['object_type']} {row.get('object_id') or ''}".strip())
    return " · ".join(parts)


def _audit_changes(online: dict[str, Any], venue: dict[str, Any]) -> list[str]:
    """The online audit rows (``event.venue_return`` aside) the venue's file lacks."""
    held = Counter(_audit_key(r) for r in venue.get("audit", []))
    lines = []
    for row in sorted(online.get("audit", []), key=lambda r: (str(r.get("at")), r.get("id"))):
        if row.get("action") == RETURN_ACTION:
            continue
        key = _audit_key(row)
        if held[key]:
            held[key] -= 1
        else:
            lines.append(gettext("audit: %(line)s") % {"line": _audit_line(row, online)})
    return lines


def _trip_of(doc: Any) -> tuple[Event, VenueTrip]:
    """The online event the venue's archive ``doc`` is a copy of, locked, and its latest
    trip; VenueRefused when ``doc`` is no copy of that trip, ``archive.ArchiveRefused``
    when it is no archive."""
    _check_shape(doc)  # an archive: one event, a list of objects per section
    slug = doc["event"][0].get("slug")
    event = Event.objects.select_for_update().filter(slug=slug).first()
    if event is None:
        raise VenueRefused(
            gettext(
                "There is no event with the address %(slug)r here to bring back: "
                "import the file without --from-venue to add it as it is."
            )
            % {"slug": slug}
        )
    trip = VenueTrip.objects.filter(event=event).first()
    if trip is None:
        raise VenueRefused(
            gettext(
                "%(name)s was never taken to a venue from here "
                "(export_event SLUG PATH --archive --to-venue); nothing was changed."
            )
            % {"name": event.name}
        )
    tokens = {
        r["new"].get("trip")
        for r in doc.get("audit", [])
        if r.get("action") == TAKE_ACTION and isinstance(r.get("new"), dict)
    }
    if trip.token not in tokens:
        raise VenueRefused(
            gettext(
                "This file is not the copy of %(name)s taken to the venue at %(at)s "
                "(it was taken earlier, or is another copy): only the copy taken last "
                "can come back; nothing was changed."
            )
            % {
                "name": event.name,
                "at": timezone.localtime(trip.taken_at).strftime("%Y-%m-%d %H:%M"),
            }
        )
    return event, trip


def venue_return(
    doc: Any,
    *,
    by: Actor,
    create_users: bool = False,
    keep_online: Callable[[dict[str, Any]], None] | None = None,
) -> VenueReturn:
    """Bring a venue's copy back: ``doc`` is the laptop's archive (decoded JSON) of an
    event taken with :func:`venue_take`. Replaces the online event's rows with the
    venue's in one transaction, audited (``event.venue_return``), and moves the mark to
    the copy brought back (module docstring).

    Raises ``archive.ArchiveRefused`` for a file that is no archive, and VenueRefused,
    writing nothing: no event here with its slug;
    the event was never taken, or ``doc`` is not a copy of its latest trip; the online
    copy changed since the mark — the message lists each change (``changes``) — unless
    ``keep_online`` is given: it is then called with the online copy's archive before
    the copy is replaced anyway (and an error it raises cancels everything). Raises
    ``archive.ArchiveRefused`` as ``archive_restore`` does (e.g. a username with no
    account here, unless ``create_users``)."""
    with transaction.atomic():
        event, trip = _trip_of(doc)
        online = event_archive(event)
        changes = _row_changes(trip, online) + _audit_changes(online, doc)
        if changes and keep_online is None:
            raise VenueRefused(
                gettext(
                    "%(name)s changed here since it was taken to the venue, so the "
                    "venue's copy was not brought back and nothing was changed. Changed "
                    "here:\n%(changes)s\nKeep these changes apart (export_event "
                    "--archive) and bring the venue's copy back with "
                    "--discard-online-changes PATH, which writes the copy here to PATH "
                    "first."
                )
                % {"name": event.name, "changes": "\n".join(f"- {c}" for c in changes)},
                changes,
            )
        if changes and keep_online is not None:
            keep_online(online)
        held = Counter(_audit_key(r) for r in online["audit"])
        venue_changes = 0
        for row in doc.get("audit", []):
            key = _audit_key(row)
            if held[key]:
                held[key] -= 1
            else:
                venue_changes += 1
        token, taken_at, taken_by_id, returns = (
            trip.token,
            trip.taken_at,
            trip.taken_by_id,
            trip.returns,
        )
        restored = archive_restore(doc, create_users=create_users, replace=event)
        audit_log(
            event=restored,
            by=by,
            action=RETURN_ACTION,
            obj=restored,
            new={
                "trip": token,
                "written_at": doc.get("written_at"),
                "venue_changes": venue_changes,
                "replaced_online": len(changes),
            },
        )
        VenueTrip.objects.create(
            event=restored,
            token=token,
            taken_at=taken_at,
            taken_by_id=taken_by_id,
            rows=row_digests(event_archive(restored)),
            returned_at=timezone.now(),
            returns=returns + 1,
        )
        public_pages_changed(restored.pk)
    return VenueReturn(restored, venue_changes, changes)
