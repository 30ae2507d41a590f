"""Creating events and their divisions."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from rulesets import DEFAULT, get_ruleset

from ..actors import Actor, acting_user
from ..errors import InvalidInput
from ..groups import set_swiss_groups
from ..models import (
    Division,
    DivisionCode,
    Event,
    EventListing,
    EventStaff,
    EventStatus,
    StaffRole,
    Structure,
)
from ..stored_text import shown
from ..text import clean_name
from .audit import audit_log
from .invites import staff_carry_over

SLUG_ATTEMPTS = 6  # the last two with a random suffix


def unique_slug(name: str, *, random_suffix: bool = False) -> str:
    """A slug for ``name`` not used by any event yet (``cup``, ``cup-2``, ...), or with
    ``random_suffix`` one that is very likely free (``cup-3fa9c1``).

    Another transaction may take the same slug before this one inserts it: create events
    with :func:`event_insert`, which retries."""
    base = slugify(name)[:70] or "event"
    if random_suffix:
        return f"{base}-{secrets.token_hex(3)}"
    slug, n = base, 1
    while Event.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def event_insert(*, name: str, slug: str | None = None, **fields: Any) -> Event:
    """Insert an ``Event`` row named ``name`` under a unique slug; ``fields`` are the
    other model fields. Every way an event is created goes through here.

    Two imports or creations of the same name at once both find ``cup`` free; the unique
    index lets one insert it and refuses the other, which retries in a savepoint (the
    caller's transaction goes on) with the next free slug, and after a few collisions with
    a random suffix (SLUG_ATTEMPTS in all). A ``slug`` given is used as it is. Raises
    IntegrityError for any other violation, or when every attempt collides.
    """
    if slug:
        return Event.objects.create(slug=slug, name=name, **fields)
    for attempt in range(SLUG_ATTEMPTS):
        candidate = unique_slug(name, random_suffix=attempt >= SLUG_ATTEMPTS - 2)
        try:
            with transaction.atomic():
                return Event.objects.create(slug=candidate, name=name, **fields)
        except IntegrityError:
            if not Event.objects.filter(slug=candidate).exists():
                raise  # not the slug: a bug, not a race
    raise IntegrityError(f"no free slug for {name!r} after {SLUG_ATTEMPTS} attempts")


def _check_structure(ruleset: str, structure: str, cut: int) -> None:
    """Raise InvalidInput when the ruleset does not run ``structure`` or announce a top
    cut of ``cut`` players (the registry's sizes: MP-SE-1 pods, else P-TC-1)."""
    rs = get_ruleset(ruleset)
    if structure not in {s.value for s in rs.structures}:
        raise InvalidInput(shown(rs.structure_problem(structure, 1, 0)))
    if problem := rs.cut_problem(cut):
        raise InvalidInput(shown(problem))


@transaction.atomic
def event_create(
    *,
    name: str,
    by: Actor,
    ruleset: str = DEFAULT,
    structure: str = Structure.SWISS_TOP_CUT,
    swiss_rounds: int = 0,
    top_cut_size: int = 0,
    third_place_playoff: bool = False,
    prizes: str = "",
    date: dt.date | None = None,
    location: str = "",
    divisions: dict[str, str] | None = None,
    slug: str | None = None,
    options: dict[str, Any] | None = None,
    source: dict[str, Any] | None = None,
    season_year: int | None = None,
    awards_championship_points: bool = False,
    day2_rounds: int = 0,
    expected_players: dict[str, int] | None = None,
    planned_start: dt.time | None = None,
    planned_round_seconds: int | None = None,
    planned_break_seconds: int = 600,
    planned_tables: int | None = None,
    listing: str = EventListing.LISTED,
    carry_staff: bool = False,
    checkin_step: bool = False,
    division_structure: dict[str, tuple[int, int]] | None = None,
) -> Event:
    """Create an event, its divisions and make ``by`` its organiser.

    division_structure: ``{division code: (Swiss rounds, top cut)}`` for divisions whose
    structure is not the event's (the New-event page's "Use these");
    stored as the division's own (``Division.swiss_rounds`` / ``top_cut_size``).

    listing: ``draft`` for an event made on the New-event page (staff
    only until published); ``listed`` (the default: imports, the demo, tests).
    carry_staff: give it the staff of ``by``'s previous event (``staff_carry_over``,
    ), as the New-event page does.

    divisions: ``{division code: key of its Swiss pairing group}`` (divisions sharing a
    key are paired together, P-AGE-3); default one open division (P-AGE-6).
    season_year: the year the season ends in, for the age cut-offs (P-AGE-1); None →
    from the date. awards_championship_points: late entry after round 2 needs an
    override (P-LATE-1). day2_rounds: Swiss rounds on Day 2 of a two-day event (P-D2-1).
    expected_players / planned_*: what the event planner plans the day with
    (``tournaments.planning``): ``{division code: players}``, round 1's start, a Swiss
    round's length and the break in seconds (None: the ruleset's length), tables.
    checkin_step: round 1 waits for Close check-in (the New
    event page sets it, ``services.checkin``). top_cut_size: 0 or one of the ruleset's cut sizes (MP-SE-1 pod cuts for
    ``mtg-multiplayer``, powers of two otherwise); structure: one the ruleset runs.
    Raises InvalidInput for an empty name, an unknown ruleset, a structure the ruleset
    does not run or a bad top-cut size.
    """
    if not name.strip():
        raise InvalidInput(gettext("The event needs a name."))
    name = clean_name(name, gettext("Name"))  # (tournaments.text)
    location = clean_name(location, gettext("Location"), required=False)
    try:
        get_ruleset(ruleset)
    except KeyError as e:
        raise InvalidInput(str(e.args[0])) from None
    _check_structure(ruleset, structure, top_cut_size)
    own = division_structure or {}
    for size in {cut for _, cut in own.values()}:
        if problem := get_ruleset(ruleset).cut_problem(size):
            raise InvalidInput(shown(problem))
    event = event_insert(
        slug=slug,
        name=name,
        ruleset=ruleset,
        structure=structure,
        swiss_rounds=swiss_rounds,
        top_cut_size=top_cut_size,
        third_place_playoff=third_place_playoff,
        prizes=prizes,
        date=date,
        location=location,
        options=options or {},
        source=source or {},
        season_year=season_year,
        awards_championship_points=awards_championship_points,
        day2_rounds=day2_rounds,
        expected_players=expected_players or {},
        planned_start=planned_start,
        planned_round_seconds=planned_round_seconds,
        planned_break_seconds=planned_break_seconds,
        planned_tables=planned_tables,
        listing=listing,
        checkin_step=checkin_step,
    )
    keys = divisions or {DivisionCode.OPEN: "open"}
    for code in keys:
        rounds, cut = own.get(code, (swiss_rounds, top_cut_size))
        Division.objects.create(
            event=event,
            code=code,
            swiss_rounds=rounds if rounds != swiss_rounds else None,
            top_cut_size=cut if cut != top_cut_size else None,
        )
    set_swiss_groups(event, keys)
    user = acting_user(by)
    if user is not None:
        EventStaff.objects.create(event=event, user=user, role=StaffRole.ORGANISER)
    audit_log(event=event, by=by, action="event.create", obj=event, new={"name": event.name})
    if carry_staff:
        staff_carry_over(event=event, by=by)
    return event


@transaction.atomic
def event_finish(*, event: Event, by: Actor) -> Event:
    """Mark the event finished (every Swiss round and every top cut played). Idempotent."""
    ev = Event.objects.select_for_update().get(pk=event.pk)
    if ev.status != EventStatus.FINISHED:
        old = ev.status
        ev.status = EventStatus.FINISHED
        ev.save(update_fields=["status"])
        audit_log(
            event=ev,
            by=by,
            action="event.finish",
            obj=ev,
            old={"status": old},
            new={"status": ev.status},
        )
    return ev
