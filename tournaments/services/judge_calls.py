"""Judge calls: a player calls a judge to their table from their
private page; a judge claims the call on the floor board, may escalate it to the head
judge, and resolves it with a note and, if given, a time extension that goes to the
table's clock (``services.clock.match_time_extend``, the one per-table extension).

Every action locks its row (the call, or the player's match when a call is opened),
writes one audit row (``judge_call.open``, ``.claim``, ``.escalate``, ``.resolve``) and
so reaches every open floor board (the ``staff`` topic) and the table's players' own
pages (``services.audit``). A judge's action carries the call's ``version`` the board
showed: a call claimed, escalated or resolved meanwhile (someone else's claim, a
double-tap, a resolve sent twice) is refused with what happened, and nothing changes.

RULES.md is silent on judge calls. Decisions: one call per table is open at a time
(the database's ``judge_call_one_open_per_table``: the opponent's call is the same
call); a player calls only while seated at a table of a published or started round;
the event has no head-judge role, so an escalated call waits, unclaimed and marked for
the head judge, on every board until someone claims it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from ..actors import Actor, acting_user
from ..errors import InvalidInput, ResultConflict, RoundStateError
from ..models import (
    EventStatus,
    JudgeCall,
    JudgeCallReason,
    JudgeCallStatus,
    Match,
    MatchSeat,
    Registration,
    RoundStatus,
)
from .audit import audit_log
from .clock import match_time_extend

NOTE_MAX = 1000  # characters of a resolving note


def staff_name(user: Any) -> str:
    """How a judge is named to players and staff: their full name, else their username;
    "a judge" for an account since removed."""
    if user is None:
        return gettext("a judge")
    return str(user.get_full_name() or user.get_username())


def judge_name_for_players(user: Any) -> str:
    """How a judge is named on a player's page: their full name, or "" when the account
    has none (a username can be an e-mail address, so players never see it); the page
    then says "A judge" / "The head judge" instead."""
    return str(user.get_full_name()) if user is not None else ""


def _clock(at: dt.datetime | None) -> str:
    return timezone.localtime(at).strftime("%H:%M") if at else ""


def call_state_text(call: JudgeCall) -> str:
    """Where ``call`` stands now, in one sentence in the visitor's language (a stale
    action's refusal says it): claimed by whom, resolved by whom and when, waiting."""
    values: dict[str, Any] = {"table": call.table}
    if call.status == JudgeCallStatus.RESOLVED:
        values |= {"who": staff_name(call.resolved_by), "time": _clock(call.resolved_at)}
        return gettext("Table %(table)s's call was resolved by %(who)s at %(time)s.") % values
    if call.status == JudgeCallStatus.CLAIMED:
        values |= {"who": staff_name(call.claimed_by), "time": _clock(call.claimed_at)}
        return gettext("%(who)s claimed table %(table)s's call at %(time)s.") % values
    if call.escalated_at is not None:
        return gettext("Table %(table)s's call is waiting for the head judge.") % values
    return gettext("Table %(table)s's call is waiting for a judge.") % values


def _current_match(registration: Registration) -> tuple[Match, int]:
    """The match the player is seated at in a published or started round, locked, and
    its table. InvalidInput when there is none or it has no table (a bye)."""
    seat = (
        MatchSeat.objects.filter(
            registration=registration,
            round__status__in=(RoundStatus.PUBLISHED, RoundStatus.STARTED),
        )
        .order_by("-round__number", "-round_id")
        .first()
    )
    if seat is None:
        raise InvalidInput(
            gettext("You are not seated at a table right now: find a judge on the floor.")
        )
    match = Match.objects.select_for_update().select_related("round").get(pk=seat.match_id)
    if match.table is None:
        raise InvalidInput(
            gettext("You have no table this round: find a judge on the floor or at the desk.")
        )
    return match, match.table


@transaction.atomic
def judge_call_open(*, registration: Registration, reason: str = "") -> JudgeCall:
    """The player ``registration`` calls a judge to their table (from their private
    link, so the player is the actor). ``reason``: "" or a ``JudgeCallReason`` value.

    Returns the new call (status ``open``). Raises InvalidInput for an unknown reason,
    a player not seated at a table of a published or started round, or a table whose
    call is still open (theirs or their opponent's: the message says when it was made
    and where it stands; nothing changes); RoundStateError once the event is finished.
    """
    if reason not in ("", *JudgeCallReason.values):
        raise InvalidInput(gettext("Choose one of the reasons, or none."))
    reg = Registration.objects.select_related("event").get(pk=registration.pk)
    if reg.event.status == EventStatus.FINISHED:
        raise RoundStateError(gettext("The event is finished."))
    match, table = _current_match(reg)
    waiting = JudgeCall.objects.filter(match=match).exclude(status=JudgeCallStatus.RESOLVED)
    if (open_call := waiting.select_related("claimed_by").first()) is not None:
        raise InvalidInput(
            gettext("A judge was already called to your table at %(time)s. %(state)s")
            % {"time": _clock(open_call.created_at), "state": call_state_text(open_call)}
        )
    call = JudgeCall.objects.create(
        event=reg.event,
        registration=reg,
        match=match,
        round_number=match.round.number,
        table=table,
        reason=reason,
        created_at=timezone.now(),
    )
    new = {"table": call.table, "reason": reason, "player": reg.external_id}
    _log(call, reg, "judge_call.open", {}, new)
    return call


def _locked(call: JudgeCall, version: Any, by: Actor, action: str) -> JudgeCall:
    """The call, locked, as the judge saw it. ResultConflict (nothing changes) when it
    changed since (``version``), or is already resolved."""
    row = (
        JudgeCall.objects.select_for_update(of=("self",))
        .select_related("event", "claimed_by", "resolved_by")
        .get(pk=call.pk)
    )
    mine = row.claimed_by_id is not None and row.claimed_by_id == getattr(by, "pk", None)
    if action == "claim" and row.status == JudgeCallStatus.CLAIMED and mine:
        raise ResultConflict(
            gettext("You already claimed table %(table)s's call: nothing changed.")
            % {"table": row.table},
            current=row.status,
        )
    if str(version) != str(row.version) or row.status == JudgeCallStatus.RESOLVED:
        raise ResultConflict(
            gettext("This call changed meanwhile: %(state)s Nothing changed.")
            % {"state": call_state_text(row)},
            current=row.status,
        )
    return row


def _state(call: JudgeCall) -> dict[str, Any]:
    return {
        "status": call.status,
        "claimed_by": call.claimed_by.get_username() if call.claimed_by else None,
        "escalated": call.escalated_at is not None,
    }


def _log(call: JudgeCall, by: Actor, action: str, old: dict[str, Any], new: dict[str, Any]) -> None:
    audit_log(
        event=call.event,
        by=by,
        action=action,
        obj=call,
        object_type="judge_call",
        round_number=call.round_number,
        old=old or None,
        new=new,
        reason=call.note if action == "judge_call.resolve" else "",
    )


def _changed(call: JudgeCall, fields: list[str]) -> None:
    call.version += 1
    call.save(update_fields=[*fields, "version"])


@transaction.atomic
def judge_call_claim(*, call: JudgeCall, by: Actor, version: Any) -> JudgeCall:
    """``by`` (a staff user) takes the call: the player's page then names them.

    ``version``: the call's version on the judge's board. Returns the call (status
    ``claimed``). Raises ResultConflict, changing nothing, when the call changed
    meanwhile (someone else claimed it, it was escalated or resolved) or ``by``
    already claimed it (a double tap).
    """
    row = _locked(call, version, by, "claim")
    if row.status != JudgeCallStatus.OPEN:
        raise ResultConflict(
            gettext("This call changed meanwhile: %(state)s Nothing changed.")
            % {"state": call_state_text(row)},
            current=row.status,
        )
    old = _state(row)
    row.status, row.claimed_by, row.claimed_at = (
        JudgeCallStatus.CLAIMED,
        acting_user(by),
        timezone.now(),
    )
    _changed(row, ["status", "claimed_by", "claimed_at"])
    _log(row, by, "judge_call.claim", old, _state(row))
    return row


@transaction.atomic
def judge_call_escalate(*, call: JudgeCall, by: Actor, version: Any) -> JudgeCall:
    """Hand the call to the head judge (an appeal, a serious matter): it is open again,
    unclaimed and marked for the head judge, whoever had claimed it. Once per call.

    Returns the call. Raises ResultConflict, changing nothing, when the call changed
    meanwhile or is resolved, and InvalidInput when it was escalated already.
    """
    row = _locked(call, version, by, "escalate")
    if row.escalated_at is not None:
        raise InvalidInput(
            gettext("Table %(table)s's call is with the head judge already: nothing changed.")
            % {"table": row.table}
        )
    old = _state(row)
    row.escalated_by, row.escalated_at = acting_user(by), timezone.now()
    row.status, row.claimed_by, row.claimed_at = JudgeCallStatus.OPEN, None, None
    _changed(row, ["escalated_by", "escalated_at", "status", "claimed_by", "claimed_at"])
    _log(row, by, "judge_call.escalate", old, _state(row))
    return row


@transaction.atomic
def judge_call_resolve(
    *, call: JudgeCall, by: Actor, version: Any, note: str = "", minutes: int = 0
) -> JudgeCall:
    """Close the call with the judge's ``note`` (optional, up to 1,000 characters) and
    give the table ``minutes`` more (0: none; else 1–60, added to the table's time
    extension through ``match_time_extend``, so the round clock, the projector and the
    staff pages show it). A call nobody claimed counts as claimed by ``by``.

    Returns the call (status ``resolved``). Raises ResultConflict, changing nothing,
    when the call changed meanwhile or was resolved already (sent twice); InvalidInput
    for a note too long, a number of minutes out of range, or minutes for a table whose
    round was discarded; RoundStateError from the extension when the round is not in
    progress or the table has its result. A refused extension resolves nothing.
    """
    note = note.strip()
    if len(note) > NOTE_MAX:
        raise InvalidInput(
            gettext("Keep the note under %(max)s characters.") % {"max": f"{NOTE_MAX:,}"}
        )
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
        raise InvalidInput(gettext("Give the time in whole minutes."))
    row = _locked(call, version, by, "resolve")
    old = _state(row)
    if minutes:
        if row.match is None:
            raise InvalidInput(gettext("This table's round was discarded: it has no clock."))
        match_time_extend(match=row.match, by=by, minutes=minutes, reason=note)
    now = timezone.now()
    if row.claimed_by is None:
        row.claimed_by, row.claimed_at = acting_user(by), now
    row.status, row.resolved_by, row.resolved_at = JudgeCallStatus.RESOLVED, acting_user(by), now
    row.note, row.extra_minutes = note, minutes
    fields = ["status", "claimed_by", "claimed_at", "resolved_by", "resolved_at", "note"]
    _changed(row, [*fields, "extra_minutes"])
    _log(row, by, "judge_call.resolve", old, {**_state(row), "extra_minutes": minutes})
    return row
