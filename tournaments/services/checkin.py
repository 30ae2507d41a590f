"""Check-in: who is present before round 1.

A registration is *checked in* when ``checked_in_at`` is set; ``checked_in_by`` is the
staff member who ticked it, or None when the player checked in themselves (on their
private link, or at the door with their player ID and birth year). Every tick and untick
is audited (``registration.checkin`` / ``registration.checkout``).

An event *has a check-in step* (``Event.checkin_step``) when it was made on the New event
page, or as soon as a first player is checked in: its round 1 is then not paired until
check-in is closed (:func:`checkin_pending`; ``pairings.checkin_services.checkin_close``
removes the absentees). Events made otherwise (imports of running events, the demo
command, the tests' factories) keep pairing at once, as before.

Staff tick players while no round is paired (also after a first close: closing again
sees the new ticks); players check themselves in only while check-in is open
(:func:`self_checkin_open`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from ..actors import Actor, acting_user
from ..errors import InvalidInput
from ..models import DivisionCode, Event, Registration
from ..procedures import plans_ages_at_checkin
from ..search import folded, name_matches, query_words
from .audit import audit_log


def checkin_window(event: Event) -> bool:
    """True while players may be checked in at ``event``: a Swiss event of head-to-head
    matches (the events whose check-in plans the rounds, ``plans_ages_at_checkin``) with
    no round paired yet. 1 query."""
    return plans_ages_at_checkin(event) and not event.rounds.exists()


def checkin_pending(event: Event) -> bool:
    """True when ``event`` has a check-in step that is not closed yet and no round exists:
    round 1 must not be paired. No query when the instance says the
    event has no check-in step or it is closed; else 2 (closed since the instance was
    read, e.g. by another request, counts as closed)."""
    if not event.checkin_step or event.checkin_closed_at is not None:
        return False
    if not checkin_window(event):
        return False
    return Event.objects.filter(pk=event.pk, checkin_closed_at__isnull=True).exists()


def self_checkin_open(event: Event) -> bool:
    """True while players may check themselves in (their private page's button, the door
    page): the event has a check-in step, check-in is not closed and no round is paired.
    No query unless so (then 1)."""
    return checkin_pending(event)


def _active(event: Event):
    return Registration.objects.filter(
        event=event, disqualified=False, dropped_after_round__isnull=True
    )


@transaction.atomic
def registration_checkin(*, registration: Registration, by: Actor, present: bool = True) -> bool:
    """Mark ``registration`` present (``present=True``) or not present. ``by``: the staff
    user ticking, or the Registration itself when the player checks in on their private
    link or at the door (players can only check in, not out, and only while check-in is
    open). Returns True when the state changed, False when it already was so (a double
    tap changes nothing and writes no audit row). The event gets its check-in step.
    Raises InvalidInput once a round is paired, for a dropped or disqualified player,
    and for a player acting after check-in closed."""
    reg = (
        Registration.objects.select_for_update()
        .select_related("event", "player")
        .get(pk=registration.pk)
    )
    event = reg.event
    player_acting = isinstance(by, Registration)
    if not checkin_window(event):
        raise InvalidInput(gettext("Round 1 is paired: check-in is over."))
    if player_acting and (not self_checkin_open(event) or not present):
        raise InvalidInput(gettext("Check-in is closed: please see the tournament desk."))
    if reg.disqualified or reg.dropped_after_round is not None:
        raise InvalidInput(
            gettext("%(name)s has dropped or is disqualified: they cannot check in.")
            % {"name": reg.player.name}
        )
    if (reg.checked_in_at is not None) == present:
        return False
    was = reg.checked_in_at
    reg.checked_in_at = timezone.now() if present else None
    reg.checked_in_by = acting_user(by) if present else None  # None for a player acting
    reg.save(update_fields=["checked_in_at", "checked_in_by"])
    if not event.checkin_step:
        Event.objects.filter(pk=event.pk).update(checkin_step=True)
    audit_log(
        event=event,
        by=by,
        action="registration.checkin" if present else "registration.checkout",
        obj=reg,
        old={"checked_in_at": was.isoformat() if was else None},
        new={"checked_in_at": reg.checked_in_at.isoformat() if reg.checked_in_at else None},
    )
    return True


def door_registration(event: Event, player_id: str, birth_year: str) -> Registration:
    """The registration a player at the door names by their player ID and birth year
    (the door QR code's page). Both must match what was registered, exactly (the ID
    without spaces, case ignored). Raises InvalidInput with one message for every
    mismatch, so the page never tells whether an ID is registered."""
    pid = "".join(player_id.split())
    year = birth_year.strip()
    no_match = InvalidInput(
        gettext(
            "No player of this event has that player ID and birth year. Check both, or see"
            " the tournament desk."
        )
    )
    if not pid or not year.isdigit():
        raise no_match
    reg = (
        _active(event)
        .select_related("player")
        .filter(player__player_id__iexact=pid, player__birth_year=int(year))
        .first()
    )
    if reg is None:
        raise no_match
    return reg


@dataclass(frozen=True)
class CheckinRow:
    """One player of the staff check-in list."""

    pk: int
    name: str
    player_id: str
    division: str
    present: bool

    @property
    def division_label(self) -> str:
        """The division's name in the reader's language ("Junior", "Open")."""
        return str(DivisionCode(self.division).label)


@dataclass(frozen=True)
class CheckinList:
    """The staff check-in list: ``rows`` (those matching the search, by name), the
    counts ``{division code: (present, absent)}`` over every active player, and the
    totals."""

    rows: list[CheckinRow]
    counts: dict[str, tuple[int, int]]
    present: int
    absent: int
    query: str

    @property
    def divisions(self) -> list[DivisionCount]:
        """The counts per division, in division order, with the division's name."""
        return [
            DivisionCount(code, str(DivisionCode(code).label), p, a)
            for code, (p, a) in self.counts.items()
        ]


@dataclass(frozen=True)
class DivisionCount:
    """Players present and absent in one division (``code``, ``label`` its name)."""

    code: str
    label: str
    present: int
    absent: int


def checkin_list_for_staff(event: Event, query: str = "") -> CheckinList:
    """Every active player of ``event`` for the check-in list, filtered by ``query``: a
    player ID (digits, or the ID as typed, matched from its start) or words of the name
    in any order, ignoring case and accents (``tournaments.search``). Counts are over
    every active player whatever the search. Rows by name, ignoring case and accents.
    1 query (300 players: one light read of five columns)."""
    values = _active(event).values_list(
        "pk", "player__name", "player__player_id", "division__code", "checked_in_at"
    )
    everyone = sorted(
        (
            CheckinRow(pk, name, pid or "", code, at is not None)
            for pk, name, pid, code, at in values
        ),
        key=lambda r: (folded(r.name), r.pk),
    )
    counts: dict[str, list[int]] = {}
    for r in everyone:
        counts.setdefault(r.division, [0, 0])[0 if r.present else 1] += 1
    query = query.strip()[:100]
    rows = everyone
    if query:
        words = query_words(query)
        compact = "".join(query.split()).casefold()
        rows = [
            r
            for r in everyone
            if name_matches(r.name, words)
            or (r.player_id and r.player_id.casefold().startswith(compact))
        ]
    present = sum(p for p, _ in counts.values())
    return CheckinList(
        rows=rows,
        counts={c: (counts[c][0], counts[c][1]) for c in DivisionCode.values if c in counts},
        present=present,
        absent=len(everyone) - present,
        query=query,
    )


def checkin_row(event: Event, registration_id: int) -> CheckinRow:
    """One row of the check-in list (after a tap). Raises Registration.DoesNotExist."""
    pk, name, pid, code, at = (
        _active(event)
        .values_list("pk", "player__name", "player__player_id", "division__code", "checked_in_at")
        .get(pk=registration_id)
    )
    return CheckinRow(pk, name, pid or "", code, at is not None)


def checkin_absentees(event: Event) -> list[Registration]:
    """Who closing check-in would remove from ``event``: the active players not checked
    in — none when nobody is checked in (closing then counts everyone present, the
    behaviour before check-in existed) — and the players who dropped before round 1.
    By name. 1 query."""
    regs = list(
        Registration.objects.filter(event=event, disqualified=False)
        .select_related("player", "division")
        .order_by("player__name", "pk")
    )
    active = [r for r in regs if r.dropped_after_round is None]
    anyone = any(r.checked_in_at is not None for r in active)
    return [
        r for r in regs if r.dropped_after_round is not None or (anyone and r.checked_in_at is None)
    ]
