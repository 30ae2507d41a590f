"""An event's archive: everything it holds, to restore it identically.

The event JSON of ``export_event`` is the portable file (docs/interfaces.md): players, rounds
and results, which any Matchslip continues. It is not a backup: it has no audit trail,
penalties, staff, self-reports, private links (every printed QR code would stop working)
or slug. ``export_event --archive`` writes :func:`event_archive`, and ``import_event``
restores such a file with :func:`archive_restore`.

**Format** ``matchslip.archive.v1`` (a JSON object; docs/file-formats.md, "Event
archives"): ``format``, ``written_at``, ``slug``, ``users`` (every username the rows name)
and one list per table (:data:`SECTIONS`), each row a dict of the model's columns by
attribute name (``registration_id``): its ``id`` as it was, a reference to another
archived row as that row's ``id``, a user as its username (or null), times as ISO 8601,
JSON columns as stored; a pairing group also lists its ``divisions`` (ids). A column the
archive does not have takes its default (an archive written before the column was added);
a column the database does not have is refused.

**What is archived** — every table with rows of the event: the event (slug, options,
notes, planner, check-in, listing, import notes), its divisions, the players and their
registrations (private-link tokens, deck lists, drops, check-in), pairing groups with
their divisions and parents, cut seeds, rounds (status, seeds, the pairing notes, the
clock state: paused, paused and added seconds), matches (results, games, versions,
reporter, time extensions), seats, self-reports, staff (by username), staff invites (only
their token hashes are stored, so an unused invite link works again), the audit trail,
penalty notes, judge calls and every standings snapshot.

**Deliberately left out** (:data:`LEFT_OUT`): background runs (Celery leases of pairing
and standings jobs: a restored event has none running), live-page version counters (they
only tell open pages to refresh; a restored event starts from none), import jobs (an
uploaded file's progress, not the event's data), venue trips (this instance's record
that a copy went to a venue, ``interchange.services.venue``) and cut-line outlooks
(simulated again from the standings after the next round, ``pairings.outlook_services``).

Restoring writes new row ids; every reference is mapped to them, and so is an audit row's
``object_id`` when it names an archived row (``object_type`` ``match``, ``registration``,
``staff``, ``penalty`` …). Ids inside an audit row's ``old``/``new`` values are kept as
written (they are external player ids, which do not change).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, models, transaction
from django.db.models import Model, QuerySet
from django.utils import timezone

from standings.models import CutOutlook, StandingsSnapshot
from tournaments.errors import InvalidInput

if TYPE_CHECKING:
    from django.contrib.auth.models import User
from tournaments.models import (
    AuditEvent,
    BackgroundRun,
    CutSeed,
    Division,
    Event,
    EventStaff,
    ImportJob,
    JudgeCall,
    LiveVersion,
    Match,
    MatchSeat,
    PairingGroup,
    PenaltyNote,
    Player,
    Registration,
    Round,
    SelfReport,
    StaffInvite,
    VenueTrip,
)
from tournaments.services.listing import event_rows_delete
from tournaments.stored_text import gettext_storable

ARCHIVE_FORMAT = "matchslip.archive.v1"

#: (section, model, the event's rows), in the order they are restored (a row after
#: every row it refers to; a pairing group's parent is set once all groups exist).
SECTIONS: tuple[tuple[str, type[Model], Callable[[Event], QuerySet]], ...] = (
    ("event", Event, lambda e: Event.objects.filter(pk=e.pk)),
    ("divisions", Division, lambda e: Division.objects.filter(event=e)),
    ("players", Player, lambda e: Player.objects.filter(registrations__event=e).distinct()),
    ("registrations", Registration, lambda e: Registration.objects.filter(event=e)),
    ("pairing_groups", PairingGroup, lambda e: PairingGroup.objects.filter(event=e)),
    ("cut_seeds", CutSeed, lambda e: CutSeed.objects.filter(group__event=e)),
    ("rounds", Round, lambda e: Round.objects.filter(event=e)),
    ("matches", Match, lambda e: Match.objects.filter(round__event=e)),
    ("match_seats", MatchSeat, lambda e: MatchSeat.objects.filter(round__event=e)),
    ("self_reports", SelfReport, lambda e: SelfReport.objects.filter(match__round__event=e)),
    ("staff", EventStaff, lambda e: EventStaff.objects.filter(event=e)),
    ("staff_invites", StaffInvite, lambda e: StaffInvite.objects.filter(event=e)),
    ("audit", AuditEvent, lambda e: AuditEvent.objects.filter(event=e)),
    ("penalties", PenaltyNote, lambda e: PenaltyNote.objects.filter(event=e)),
    ("judge_calls", JudgeCall, lambda e: JudgeCall.objects.filter(event=e)),
    ("standings", StandingsSnapshot, lambda e: StandingsSnapshot.objects.filter(event=e)),
)

#: Models with rows of an event that an archive leaves out, and why (module docstring).
LEFT_OUT: dict[type[Model], str] = {
    BackgroundRun: "a Celery job's lease and progress; a restored event has none running",
    LiveVersion: "live pages' change counters; a restored event starts from none",
    ImportJob: "an uploaded file's import progress, not the event's data",
    VenueTrip: "this instance's record of a copy taken to a venue (interchange.services.venue)",
    CutOutlook: "the cut-line outlook, worked out again from the standings after the next round",
}

#: ``AuditEvent.object_type`` → the archived model its ``object_id`` names.
AUDIT_OBJECTS: dict[str, type[Model]] = {
    **{model.__name__.lower(): model for _, model, _ in SECTIONS},
    "staff": EventStaff,
    "penalty": PenaltyNote,
    "judge_call": JudgeCall,
    "invite": StaffInvite,
}


class ArchiveRefused(InvalidInput):
    """The archive cannot be restored here; the message says why. Nothing was written."""


# --- writing -----------------------------------------------------------------------------


def _user_model() -> type[User]:
    """The user model (``AUTH_USER_MODEL``: Django's ``User`` here, ``tournaments.actors``);
    the archive names users by its ``USERNAME_FIELD``."""
    return get_user_model()


def _related(f: models.Field[Any, Any]) -> type[Model]:
    """The model relation ``f`` points at (Django has resolved a ``"self"`` by now)."""
    model = f.related_model
    if not isinstance(model, type):
        raise TypeError(f"{f} does not point at a model")
    return model


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    return value


def _row(obj: Model, usernames: dict[int, str], users: set[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in obj._meta.concrete_fields:
        value = getattr(obj, f.attname)
        if f.is_relation and f.related_model is _user_model():
            value = usernames.get(value) if value is not None else None
            if value is not None:
                users.add(value)
        out[f.attname] = _plain(value)
    for f in obj._meta.many_to_many:
        out[f.name] = sorted(getattr(obj, f.name).values_list("pk", flat=True))
    return out


def event_archive(event: Event) -> dict[str, Any]:
    """Everything ``event`` holds, as a ``matchslip.archive.v1`` document (a dict ready
    for ``json.dump``; module docstring). Reads only; raises nothing for a saved event."""
    User = _user_model()
    usernames = dict(User._default_manager.values_list("pk", User.USERNAME_FIELD))
    users: set[str] = set()
    doc: dict[str, Any] = {
        "format": ARCHIVE_FORMAT,
        "written_at": timezone.now().isoformat(),
        "slug": event.slug,
    }
    for section, _, rows in SECTIONS:
        doc[section] = [_row(obj, usernames, users) for obj in rows(event).order_by("pk")]
    doc["users"] = sorted(users)
    return doc


# --- restoring ---------------------------------------------------------------------------


def _refuse(message: Any) -> ArchiveRefused:
    return ArchiveRefused(message)


def _check_shape(doc: Any) -> None:
    if not isinstance(doc, dict) or doc.get("format") != ARCHIVE_FORMAT:
        raise _refuse(gettext_storable("format: expected %(format)r") % {"format": ARCHIVE_FORMAT})
    for section, _, _ in SECTIONS:
        rows = doc.get(section, [])
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise _refuse(
                gettext_storable("%(section)s: expected a list of objects") % {"section": section}
            )
    if len(doc.get("event", [])) != 1:
        raise _refuse(gettext_storable("event: expected exactly one event"))


def _check_free(doc: dict[str, Any]) -> None:
    """Refuse a slug or a private link already in use here (the archive's event or a
    copy of it is already in this database)."""
    slug = doc["event"][0].get("slug")
    if isinstance(slug, str) and (clash := Event.objects.filter(slug=slug).first()):
        raise _refuse(
            gettext_storable(
                "slug: an event with the address %(slug)r is already here (%(name)s);"
                " delete it first or restore into another database"
            )
            % {"slug": slug, "name": clash.name}
        )
    tokens = [r.get("report_token") for r in doc.get("registrations", [])]
    if taken := Registration.objects.filter(report_token__in=[t for t in tokens if t]).first():
        raise _refuse(
            gettext_storable(
                "registrations: a player's private link is already used by the event %(slug)r"
            )
            % {"slug": taken.event.slug}
        )


def _users(doc: dict[str, Any], create_users: bool) -> dict[str, Any]:
    """username → user; a username not here is refused, or created with an unusable
    password and no site roles when ``create_users``."""
    User = _user_model()
    names = doc.get("users", [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise _refuse(gettext_storable("users: expected a list of usernames"))
    found = {
        getattr(u, User.USERNAME_FIELD): u
        for u in User._default_manager.filter(**{f"{User.USERNAME_FIELD}__in": names})
    }
    missing = sorted(set(names) - set(found))
    if missing and not create_users:
        raise _refuse(
            gettext_storable(
                "users: no account named %(names)s here; create them first or restore with"
                " --create-users"
            )
            % {"names": ", ".join(missing)}
        )
    for name in missing:
        user = User(**{User.USERNAME_FIELD: name})
        user.set_unusable_password()
        user.save()
        found[name] = user
    return found


def _value(
    f: models.Field,
    value: Any,
    where: str,
    ids: dict[type[Model], dict[Any, Any]],
    users: dict[str, Any],
) -> Any:
    if value is None:
        return None
    if f.is_relation and f.related_model is _user_model():
        if value not in users:
            raise _refuse(
                gettext_storable("%(where)s: user %(value)r is not in users")
                % {"where": where, "value": value}
            )
        return users[value].pk
    if f.is_relation:
        target = ids.get(_related(f), {})
        if value not in target:
            raise _refuse(
                gettext_storable("%(where)s: %(value)r is not a row of the archive")
                % {"where": where, "value": value}
            )
        return target[value]
    if isinstance(f, models.JSONField):
        return value
    try:
        return f.to_python(value)
    except Exception as e:  # ValidationError, TypeError: a value the column cannot hold
        raise _refuse(
            gettext_storable("%(where)s: %(value)r cannot be read")
            % {"where": where, "value": value}
        ) from e


def _restore_section(
    section: str,
    model: type[Model],
    rows: list[dict[str, Any]],
    ids: dict[type[Model], dict[Any, Any]],
    users: dict[str, Any],
) -> None:
    fields = {f.attname: f for f in model._meta.concrete_fields if not f.primary_key}
    m2m = {f.name: f for f in model._meta.many_to_many}
    pk = model._meta.pk.attname
    objs, later, links = [], [], []
    for i, row in enumerate(rows):
        where = f"{section}[{i}]"
        unknown = sorted(set(row) - set(fields) - set(m2m) - {pk})
        if unknown:
            raise _refuse(
                gettext_storable("%(where)s: unknown fields %(fields)s")
                % {"where": where, "fields": ", ".join(unknown)}
            )
        values = {}
        for name, f in fields.items():
            if name not in row:
                continue
            if f.is_relation and f.related_model is model:  # a parent: set once all exist
                later.append((i, name, row[name], f"{where}.{name}"))
                continue
            values[name] = _value(f, row[name], f"{where}.{name}", ids, users)
        objs.append(model(**values))
        links.append({name: row.get(name, []) for name in m2m})
    model._default_manager.bulk_create(objs)
    stamped = [
        f.attname
        for f in fields.values()
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    for obj, row in zip(objs, rows, strict=True):
        for name in stamped:  # auto_now(_add) columns were set to now by the insert
            if name in row:
                setattr(obj, name, _value(fields[name], row[name], section, ids, users))
    if stamped and objs:
        model._default_manager.bulk_update(objs, stamped)
    ids[model] = {row.get(pk): obj.pk for row, obj in zip(rows, objs, strict=True)}
    for i, name, value, where in later:
        setattr(objs[i], name, _value(fields[name], value, where, ids, users))
    if later:
        model._default_manager.bulk_update(objs, sorted({name for _, name, _, _ in later}))
    for obj, wanted, i in zip(objs, links, range(len(objs)), strict=True):
        for name, values in wanted.items():
            target = ids.get(_related(m2m[name]), {})
            if not isinstance(values, list) or any(v not in target for v in values):
                raise _refuse(
                    gettext_storable("%(where)s: %(value)r is not a row of the archive")
                    % {"where": f"{section}[{i}].{name}", "value": values}
                )
            getattr(obj, name).set([target[v] for v in values])


def _remap_audit(ids: dict[type[Model], dict[Any, Any]], event: Event) -> None:
    rows = list(AuditEvent.objects.filter(event=event).exclude(object_id=""))
    for row in rows:
        model = AUDIT_OBJECTS.get(row.object_type)
        if model is None:
            continue
        mapping = {str(old): str(new) for old, new in ids.get(model, {}).items()}
        row.object_id = mapping.get(row.object_id, row.object_id)
    AuditEvent.objects.bulk_update(rows, ["object_id"])


def archive_restore(doc: Any, *, create_users: bool = False, replace: Event | None = None) -> Event:
    """Restore a ``matchslip.archive.v1`` document (decoded JSON) as it was written: the
    same slug, private links, audit trail, staff … (module docstring), into an empty
    database or beside other events. Returns the restored event. ``replace``: an event
    whose rows are deleted first, in the same transaction (bringing an event back from
    a venue, ``interchange.services.venue``, which checks first that it may).

    Raises ArchiveRefused, the message saying why, and then nothing is written: not an
    archive; the slug is already used here (delete that event first); a private link is
    already used by another event; a username with no account here (unless
    ``create_users``: such accounts are made with an unusable password and no site roles,
    so nobody can sign in as them until an administrator sets a password); a row that
    refers to no archived row, has an unknown column or a value its column cannot hold.
    """
    _check_shape(doc)
    try:
        with transaction.atomic():
            if replace is not None:
                event_rows_delete(replace)
            _check_free(doc)
            users = _users(doc, create_users)
            ids: dict[type[Model], dict[Any, Any]] = {}
            for section, model, _ in SECTIONS:
                _restore_section(section, model, doc.get(section, []), ids, users)
            event = Event.objects.get(pk=next(iter(ids[Event].values())))
            _remap_audit(ids, event)
    except (IntegrityError, DatabaseError) as e:
        raise _refuse(
            gettext_storable("the archive does not fit the database: %(e)s")
            % {"e": str(e).splitlines()[0]}
        ) from None
    return event
