"""Event staff (organiser, scorekeeper, judge), event settings, private links and
penalty notes. Only organisers manage staff and settings (``permissions``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext

from rulesets import clean_options

from ..actors import Actor, acting_user
from ..errors import InvalidInput
from ..identities import pop_id_problem, sanction_id_problem
from ..models import (
    Event,
    EventStaff,
    PenaltyKind,
    PenaltyNote,
    Registration,
    SelfReportMode,
    StaffRole,
    new_report_token,
)
from ..public_pages import public_pages_changed
from ..stored_text import shown
from .audit import audit_log
from .listing import event_has_results


def _find_user(who: str) -> Any:
    """The account whose username or e-mail is ``who`` (case-insensitive), or None."""
    users = get_user_model().objects.filter(is_active=True)
    return (
        users.filter(username__iexact=who).first()
        or users.filter(email__iexact=who).order_by("pk").first()
    )


@transaction.atomic
def staff_invite(*, event: Event, who: str, role: str, by: Actor) -> EventStaff:
    """Give the account with username or e-mail ``who`` a ``role`` at ``event``.

    Someone without an account is invited by e-mail or one-time link instead
    (``services.invites``); an unknown username is refused with that
    advice. Raises InvalidInput for an unknown account or role, or a role the person
    already holds.
    """
    who = who.strip()
    if role not in StaffRole.values:
        raise InvalidInput(
            gettext("%(role)r is not a staff role; use organiser, scorekeeper or judge.")
            % {"role": role}
        )
    user = _find_user(who) if who else None
    if user is None:
        raise InvalidInput(
            gettext(
                "No account has the username or e-mail %(who)r. Enter their e-mail address "
                "to send them an invite, or leave the field empty for a link to hand over."
            )
            % {"who": who}
        )
    if EventStaff.objects.filter(event=event, user=user, role=role).exists():
        raise InvalidInput(
            gettext("%(username)s is already %(role)s of this event.")
            % {"username": user.get_username(), "role": role}
        )
    staff = EventStaff.objects.create(event=event, user=user, role=role)
    audit_log(
        event=event,
        by=by,
        action="staff.add",
        obj=staff,
        object_type="staff",
        new={"user": user.get_username(), "role": role},
    )
    return staff


@transaction.atomic
def staff_remove(*, staff: EventStaff, by: Actor) -> None:
    """Take a role away. The event keeps at least one organiser: the event row is locked
    so two organisers removing each other at once cannot both succeed."""
    event = Event.objects.select_for_update().get(pk=staff.event_id)
    staff = EventStaff.objects.select_related("user").get(pk=staff.pk)
    organisers = EventStaff.objects.filter(event=event, role=StaffRole.ORGANISER)
    if staff.role == StaffRole.ORGANISER and organisers.count() == 1:
        raise InvalidInput(gettext("An event keeps at least one organiser: add another one first."))
    audit_log(
        event=event,
        by=by,
        action="staff.remove",
        obj=staff,
        object_type="staff",
        old={"user": staff.user.get_username(), "role": staff.role},
    )
    staff.delete()


@transaction.atomic
def event_settings_update(
    *,
    event: Event,
    by: Actor,
    self_report: str | None = None,
    options: dict[str, Any] | None = None,
    sanction_id: str | None = None,
    organizer_pop_id: str | None = None,
) -> Event:
    """Change the event's settings; each given one is validated, changed and audited
    (one ``event.settings`` row holding the old and new value of each change).

    self_report: what two agreeing player reports do (``SelfReportMode``).
    options: ruleset options (``Ruleset.options``; ``mtg``: ``mwp_floor`` R-7,
    ``playoffs_in_tiebreakers`` R-8, ``melee_ranking``), merged into the stored ones.
    sanction_id, organizer_pop_id: the Play! Pokémon sanction ID (``25-01-000123``) and
    the organiser's POP ID (digits) the TOM file carries (``tournaments.identities``);
    spaces around them are removed, ``""`` clears one.
    Raises InvalidInput for an unknown setting, option or value, naming it; nothing
    changes then. A change of ``self_report`` reaches the players' open pages (their
    report buttons come or go) through the public notice, as the public pages' rebuild
    sends it.
    """
    if self_report is not None and self_report not in SelfReportMode.values:
        raise InvalidInput(
            gettext("%(self_report)r is not a self-reporting setting.")
            % {"self_report": self_report}
        )
    ids = _play_ids(sanction_id=sanction_id, organizer_pop_id=organizer_pop_id)
    ev = Event.objects.select_for_update().get(pk=event.pk)
    wanted: dict[str, Any] = {"self_report": self_report, **ids}
    if options is not None:
        wanted["options"] = {**ev.options, **_clean_options(ev, options)}
    changes = {
        field: (getattr(ev, field), value)
        for field, value in wanted.items()
        if value is not None and getattr(ev, field) != value
    }
    if changes:
        for field, (_, value) in changes.items():
            setattr(ev, field, value)
        old = {k: v[0] for k, v in changes.items()}
        new = {k: v[1] for k, v in changes.items()}
        audit_log(event=ev, by=by, action="event.settings", obj=ev, old=old, new=new)
        ev.save(update_fields=list(changes))
    if "self_report" in changes:  # the players' pages follow sse:public
        public_pages_changed(ev.pk, pairings=False)
    return ev


def _play_ids(**values: str | None) -> dict[str, str]:
    """The Play! Pokémon IDs given (not None), stripped; InvalidInput naming the first
    that is not one (``identities.sanction_id_problem``, ``pop_id_problem``)."""
    checks = {"sanction_id": sanction_id_problem, "organizer_pop_id": pop_id_problem}
    out = {}
    for field, value in values.items():
        if value is None:
            continue
        if problem := checks[field](value.strip()):
            raise InvalidInput(problem)
        out[field] = value.strip()
    return out


def _clean_options(event: Event, options: dict[str, Any]) -> dict[str, Any]:
    try:
        cleaned = clean_options(event.ruleset, options, own_only=True)
    except ValueError as e:
        raise InvalidInput(gettext("Option %(e)s.") % {"e": shown(e)}) from None
    _fixed_once_played(event, cleaned)
    return cleaned


def _fixed_once_played(event: Event, cleaned: dict[str, Any]) -> None:
    """Refuse changing an option fixed once a result is recorded (``OptionSpec.
    fixed_once_played``: the match length) at an event with results:
    the game records already stored were checked against the old value."""
    for spec in event.rules.options:
        if not spec.fixed_once_played or spec.name not in cleaned:
            continue
        if cleaned[spec.name] != event.options.get(spec.name, spec.default) and (
            event_has_results(event)
        ):
            raise InvalidInput(
                gettext("%(option)s cannot change once a result is recorded.")
                % {"option": gettext(spec.label)}
            )


@transaction.atomic
def registration_link_reset(*, registration: Registration, by: Actor) -> Registration:
    """Give a player a new private link (the old one stops working), e.g. when a slip
    with their QR code was lost. The token itself is never written to the audit trail."""
    reg = Registration.objects.select_for_update().select_related("event").get(pk=registration.pk)
    reg.report_token = new_report_token()
    reg.save(update_fields=["report_token"])
    audit_log(event=reg.event, by=by, action="registration.link_reset", obj=reg)
    return reg


@transaction.atomic
def penalty_note_add(
    *,
    event: Event,
    registration: Registration,
    kind: str,
    infraction: str,
    by: Actor,
    note: str = "",
    round_number: int | None = None,
) -> PenaltyNote:
    """Record a penalty a judge gave. It changes no result: a match loss is entered as a
    correction. Raises InvalidInput for an unknown kind or an empty infraction."""
    if kind not in PenaltyKind.values:
        raise InvalidInput(gettext("%(kind)r is not a penalty.") % {"kind": kind})
    if not infraction.strip() or registration.event_id != event.pk:
        raise InvalidInput(gettext("Name the infraction and a player of this event."))
    penalty = PenaltyNote.objects.create(
        event=event,
        registration=registration,
        kind=kind,
        infraction=infraction.strip(),
        note=note.strip(),
        round_number=round_number,
        by=acting_user(by),
    )
    audit_log(
        event=event,
        by=by,
        action="penalty.add",
        obj=penalty,
        object_type="penalty",
        round_number=round_number,
        new={"player": registration.external_id, "kind": kind, "infraction": infraction},
        reason=note,
    )
    return penalty
