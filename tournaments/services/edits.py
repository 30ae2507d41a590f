"""Fixing what was entered: a player's name, player id and birth year, and the event's
name, date, venue and planned Swiss rounds while they can still change.

Every edit locks the row it changes (``select_for_update``), refuses when the values the
form showed are no longer the stored ones (``expected``: another organiser saved first),
and writes one audit row with the old and new values of the fields that changed.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from rulesets import get_ruleset

from ..actors import Actor
from ..ages import division_for
from ..errors import InvalidInput, ResultConflict
from ..models import Event, EventStatus, Phase, Player, Registration, Round
from ..procedures import standalone_bracket
from ..public_pages import public_pages_changed
from ..seasons import event_season
from ..stored_text import shown
from ..text import clean_name
from .audit import audit_log
from .player_sheets import FIRST_BIRTH_YEAR, NAME_MAX, PLAYER_ID_MAX
from .rounds import standings_refresh_on_commit

_UNSET: Any = object()  # a keyword not given: the field is left as it is


def _check_expected(current: dict[str, Any], expected: dict[str, Any] | None, what: str) -> None:
    """ResultConflict when a value the form showed (``expected``) is no longer stored."""
    if not expected:
        return
    changed = [k for k, v in expected.items() if k in current and current[k] != v]
    if changed:
        now = ", ".join(f"{k.replace('_', ' ')} {current[k] or '–'}" for k in changed)
        raise ResultConflict(
            gettext(
                "%(what)s was changed meanwhile (now: %(now)s). Check the values and save again."
            )
            % {"what": what, "now": now},
            current=now,
        )


def _changes(current: dict[str, Any], wanted: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in wanted.items() if v is not _UNSET and current[k] != v}


def _json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


@transaction.atomic
def player_update(
    *,
    registration: Registration,
    by: Actor,
    name: str = _UNSET,
    player_id: str = _UNSET,
    birth_year: int | None = _UNSET,
    expected: dict[str, Any] | None = None,
    reason: str = "",
) -> Registration:
    """Rename a registered player, fix their player id or birth year; fields not given
    stay. ``expected``: ``{field: value}`` as the form showed them (optimistic check).

    Rules: a name is required (at most 200 characters); a player id is unique in the
    event; a birth year lies in 1900…this year. In an event with age divisions a new
    birth year moves the player to its division (P-AGE-1) before round 1 is paired; once
    it is, divisions are fixed (P-AGE-2, P-AGE-3) and a birth year of another division
    is refused, as ``registration_set_division`` refuses a move. The public pages and
    the standings are rebuilt with the new values. Writes one ``player.update`` audit row
    with the old and new values of what changed; nothing when nothing changed.

    Returns the registration. Raises InvalidInput for a refused value, ResultConflict
    when ``expected`` no longer matches.
    """
    reg = (
        Registration.objects.select_for_update()
        .select_related("player", "division", "event")
        .get(pk=registration.pk)
    )
    player = Player.objects.select_for_update().get(pk=reg.player_id)
    current = {"name": player.name, "player_id": player.player_id, "birth_year": player.birth_year}
    _check_expected(current, expected, player.name)
    if name is not _UNSET:
        if name.strip():  # the text rule for names (tournaments.text)
            name = clean_name(name, gettext("Name"))
        name = " ".join(name.split())
        if not name:
            raise InvalidInput(gettext("The player needs a name."))
        if len(name) > NAME_MAX:
            raise InvalidInput(
                gettext("A name has at most %(name_max)s characters.") % {"name_max": NAME_MAX}
            )
    if player_id is not _UNSET:
        player_id = player_id.strip()
        if len(player_id) > PLAYER_ID_MAX:
            raise InvalidInput(
                gettext("A player id has at most %(player_id_max)s characters.")
                % {"player_id_max": PLAYER_ID_MAX}
            )
    if birth_year is not _UNSET and birth_year is not None:
        last = dt.date.today().year
        if not FIRST_BIRTH_YEAR <= birth_year <= last:
            raise InvalidInput(
                gettext(
                    "Birth year %(birth_year)s is out of range (%(first_birth_year)s–%(last)s)."
                )
                % {"birth_year": birth_year, "first_birth_year": FIRST_BIRTH_YEAR, "last": last}
            )
    changes = _changes(current, {"name": name, "player_id": player_id, "birth_year": birth_year})
    if not changes:
        return reg
    event = reg.event
    if changes.get("player_id"):
        taken = Registration.objects.filter(event=event, player__player_id=changes["player_id"])
        if taken.exclude(pk=reg.pk).exists():
            raise InvalidInput(
                gettext("Player id %(changes)s is already registered in this event.")
                % {"changes": changes["player_id"]}
            )
    old = {k: current[k] for k in changes}
    new = dict(changes)
    if changes.get("birth_year") is not None:
        _move_by_birth_year(reg, changes["birth_year"], old, new)
    for field, value in changes.items():
        setattr(player, field, value)
    player.save(update_fields=list(changes))
    audit_log(event=event, by=by, action="player.update", obj=reg, old=old, new=new, reason=reason)
    if Round.objects.filter(event=event).exists():
        public_pages_changed(event.pk)
        standings_refresh_on_commit(event.pk)
    reg.player = player
    return reg


def _move_by_birth_year(
    reg: Registration, year: int, old: dict[str, Any], new: dict[str, Any]
) -> None:
    """P-AGE-1: the division of the corrected birth year, when the event has age
    divisions and it is not the player's; refused once round 1 is paired."""
    event = reg.event
    divisions = {d.code: d for d in event.divisions.all()}
    if not get_ruleset(event.ruleset).features.age_divisions or len(divisions) < 2:
        return
    code = division_for(year, event_season(event))
    if code == reg.division.code:
        return
    if code not in divisions:
        raise InvalidInput(
            gettext("Born %(year)s is %(title)s, not a division of this event.")
            % {"year": year, "title": code.title()}
        )
    if Round.objects.filter(event_id=reg.event_id).exists():
        raise InvalidInput(
            gettext(
                "Born %(year)s is %(title)s, but %(name)s plays in %(code)s: divisions are fixed once round 1 is paired."
            )
            % {
                "year": year,
                "title": code.title(),
                "name": reg.player.name,
                "code": reg.division.get_code_display(),
            }
        )
    old["division"], new["division"] = reg.division.code, code
    reg.division = divisions[code]
    reg.save(update_fields=["division"])


def event_rounds_floor(event: Event) -> int:
    """The fewest Swiss rounds the event can still announce: its highest Swiss round
    number already paired (0 before round 1). One query."""
    numbers = Round.objects.filter(event=event, phase=Phase.SWISS).values_list("number", flat=True)
    return max(numbers, default=0)


def event_rounds_editable(event: Event) -> str:
    """Why the planned Swiss rounds can no longer change ("" when they can): a single
    elimination event has none, the top cut has been paired or the event is over, or the
    rounds are set per division (check-in closed with age divisions, flights)."""
    if standalone_bracket(event):
        return gettext("A single-elimination event has no Swiss rounds.")
    if (
        event.status in (EventStatus.TOP_CUT, EventStatus.FINISHED)
        or Round.objects.filter(event=event).exclude(phase=Phase.SWISS).exists()
    ):
        return gettext("The Swiss rounds are over.")
    if event.divisions.filter(swiss_rounds__isnull=False).exists():
        return gettext("The rounds are set per division (check-in or flights): change them there.")
    return ""


@transaction.atomic
def event_update(
    *,
    event: Event,
    by: Actor,
    name: str = _UNSET,
    date: dt.date | None = _UNSET,
    location: str = _UNSET,
    swiss_rounds: int = _UNSET,
    expected: dict[str, Any] | None = None,
    reason: str = "",
) -> Event:
    """Edit the event's name, date, venue (``location``) and announced Swiss rounds
    (S-2); fields not given stay. ``expected``: ``{field: value}`` as the form showed
    them (optimistic check).

    Rules: a name is required; the Swiss rounds change only while
    ``event_rounds_editable`` says they can, never below a round already paired
    (``event_rounds_floor``) and only to a count the ruleset runs with the announced
    structure and cut (``Ruleset.structure_problem``, S-1). Writes one ``event.update``
    audit row with the old and new values of what changed; nothing when nothing
    changed. Returns the event. Raises InvalidInput for a refused value,
    ResultConflict when ``expected`` no longer matches.
    """
    ev = Event.objects.select_for_update().get(pk=event.pk)
    fields = ("name", "date", "location", "swiss_rounds")
    current = {f: getattr(ev, f) for f in fields}
    _check_expected(current, expected, ev.name)
    if name is not _UNSET:
        name = name.strip()
        if not name:
            raise InvalidInput(gettext("The event needs a name."))
        name = clean_name(name, gettext("Name"))  # (tournaments.text)
    if location is not _UNSET:
        location = clean_name(location, gettext("Venue"), required=False)
    changes = _changes(
        current, {"name": name, "date": date, "location": location, "swiss_rounds": swiss_rounds}
    )
    if not changes:
        return ev
    if "swiss_rounds" in changes:
        _check_rounds(ev, changes["swiss_rounds"])
    for field, value in changes.items():
        setattr(ev, field, value)
    ev.save(update_fields=list(changes))
    audit_log(
        event=ev,
        by=by,
        action="event.update",
        obj=ev,
        old={k: _json(current[k]) for k in changes},
        new={k: _json(v) for k, v in changes.items()},
        reason=reason,
    )
    public_pages_changed(ev.pk, pairings=False)
    return ev


def _check_rounds(event: Event, rounds: int) -> None:
    why = event_rounds_editable(event)
    if why:
        raise InvalidInput(why)
    floor = event_rounds_floor(event)
    if rounds < max(floor, 1):
        raise InvalidInput(
            f"Round {floor} is already paired: announce at least {floor} Swiss rounds."
            if floor
            else "Announce at least one Swiss round."
        )
    ruleset = get_ruleset(event.ruleset)
    problem = ruleset.structure_problem(event.structure, rounds, event.top_cut_size)
    # Only what the new count breaks: an older event's own quirk is not the rounds' fault.
    if problem and problem != ruleset.structure_problem(
        event.structure, event.swiss_rounds, event.top_cut_size
    ):
        raise InvalidInput(shown(problem))
