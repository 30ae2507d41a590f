"""Staff invites by e-mail or one-time link, and staff carried over to an organiser's next
event.

An organiser invites someone without an account by e-mail address (the link is sent and
also shown to copy) or makes a link to hand over. The link carries a random token; only
its SHA-256 is stored. Opening it, the invited person makes an account (or signs in) and
accepts: they get the role. A link works once and for ``INVITE_DAYS`` days.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from ..actors import Actor, acting_user
from ..errors import InvalidInput
from ..models import Event, EventStaff, StaffInvite, StaffRole
from .audit import audit_log

INVITE_DAYS = 7


def invite_token_hash(token: str) -> str:
    """The stored form of an invite token: its SHA-256, 64 hex digits."""
    return hashlib.sha256(token.encode()).hexdigest()


def _check_role(role: str) -> None:
    if role not in StaffRole.values:
        raise InvalidInput(
            gettext("%(role)r is not a staff role; use organiser, scorekeeper or judge.")
            % {"role": role}
        )


@transaction.atomic
def staff_invite_create(
    *, event: Event, role: str, by: Actor, email: str = ""
) -> tuple[StaffInvite, str]:
    """Make a one-time invite to ``role`` at ``event``, for ``email`` ("" for a link the
    organiser hands over). Returns ``(invite, token)``: the token goes into the link
    (``staff:invite_accept``) and is not stored. Audited as ``staff.invite`` (the address
    and role, never the token). Raises InvalidInput for an unknown role; nothing is
    stored then. Sending the e-mail is :func:`staff_invite_mail`'s job.
    """
    _check_role(role)
    token = secrets.token_urlsafe(32)
    invite = StaffInvite.objects.create(
        event=event,
        role=role,
        email=email.strip(),
        token_hash=invite_token_hash(token),
        created_by=acting_user(by),
        expires_at=timezone.now() + timedelta(days=INVITE_DAYS),
    )
    audit_log(
        event=event,
        by=by,
        action="staff.invite",
        obj=invite,
        object_type="invite",
        new={"email": invite.email, "role": role},
    )
    return invite, token


def staff_invite_mail(*, invite: StaffInvite, url: str) -> None:
    """Send ``url`` (the invite's link) to ``invite.email`` with Django's ``send_mail``
    (``settings.EMAIL_BACKEND``: the console in development, SMTP from ``EMAIL_URL`` in
    production). Raises the backend's error (``smtplib.SMTPException``, ``OSError``) when
    it cannot send; the caller shows the link to copy instead."""
    inviter = invite.created_by.get_username() if invite.created_by else "Matchslip"
    subject = gettext("You are invited to help run %(event)s") % {"event": invite.event.name}
    body = gettext(
        "%(inviter)s invites you to be %(role)s of %(event)s on Matchslip.\n\n"
        "Open this link to make your account (or sign in) and accept:\n%(url)s\n\n"
        "The link works once and until %(expires)s. If you did not expect it, ignore this "
        "e-mail."
    ) % {
        "inviter": inviter,
        "role": invite.get_role_display().lower(),
        "event": invite.event.name,
        "url": url,
        "expires": timezone.localtime(invite.expires_at).strftime("%Y-%m-%d %H:%M"),
    }
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [invite.email])


def staff_invite_problem(invite: StaffInvite | None) -> str:
    """Why the invite cannot be accepted ("" when it can): unknown, used or expired."""
    if invite is None:
        return gettext("This invite link is not valid. Ask the organiser for a new one.")
    if invite.used_at is not None:
        return gettext("This invite link was already used. Ask the organiser for a new one.")
    if invite.expires_at <= timezone.now():
        return gettext("This invite link has expired. Ask the organiser for a new one.")
    return ""


def staff_invite_find(token: str) -> StaffInvite | None:
    """The invite whose link carries ``token``, with its event, or None. 1 query."""
    return (
        StaffInvite.objects.select_related("event")
        .filter(token_hash=invite_token_hash(token))
        .first()
    )


@transaction.atomic
def staff_invite_accept(*, token: str, user: Any) -> EventStaff:
    """``user`` accepts the invite whose link carries ``token``: they get its role at its
    event and the invite is used up (``used_at``, ``used_by``). Audited as ``staff.add``
    with the reason "accepted an invite". When the user already holds the role the
    invite is used up all the same and their role returned.

    Raises InvalidInput (:func:`staff_invite_problem`'s words) for an unknown, used or
    expired invite, or a user who is not signed in; nothing changes then. The invite row
    is locked: two people opening one link at once cannot both get the role.
    """
    if not getattr(user, "is_authenticated", False):
        raise InvalidInput(gettext("Sign in or make an account to accept the invite."))
    invite = (
        StaffInvite.objects.select_for_update()
        .select_related("event")
        .filter(token_hash=invite_token_hash(token))
        .first()
    )
    if problem := staff_invite_problem(invite):
        raise InvalidInput(problem)
    assert invite is not None
    invite.used_at = timezone.now()
    invite.used_by = user
    invite.save(update_fields=["used_at", "used_by"])
    staff, created = EventStaff.objects.get_or_create(
        event=invite.event, user=user, role=invite.role
    )
    if created:
        audit_log(
            event=invite.event,
            by=user,
            action="staff.add",
            obj=staff,
            object_type="staff",
            new={"user": user.get_username(), "role": invite.role},
            reason="accepted an invite",
        )
    return staff


@transaction.atomic
def staff_invite_withdraw(*, invite: StaffInvite, by: Actor) -> None:
    """Delete an unused invite: its link stops working. Audited as ``staff.invite_withdraw``.
    Raises InvalidInput for an invite already used."""
    invite = StaffInvite.objects.select_for_update().select_related("event").get(pk=invite.pk)
    if invite.used_at is not None:
        raise InvalidInput(gettext("This invite was already accepted."))
    audit_log(
        event=invite.event,
        by=by,
        action="staff.invite_withdraw",
        obj=invite,
        object_type="invite",
        old={"email": invite.email, "role": invite.role},
    )
    invite.delete()


@transaction.atomic
def staff_carry_over(*, event: Event, by: Actor) -> list[EventStaff]:
    """Give ``event`` the staff of ``by``'s previous event: the latest other event where
    ``by`` is an organiser; every other person keeps the same roles there (``by``'s own
    roles are not copied: the creator is already organiser). Each role is audited as
    ``staff.add`` with the reason "carried over from <event>".

    Decision: done at once when an organiser creates an event on the
    New-event page; the staff page lists them, each removable. Returns the roles added
    (none for a first event or an anonymous ``by``).
    """
    user = acting_user(by)
    if user is None:
        return []
    previous = (
        Event.objects.filter(staff__user=user, staff__role=StaffRole.ORGANISER)
        .exclude(pk=event.pk)
        .order_by("-created_at", "-pk")
        .first()
    )
    if previous is None:
        return []
    held = set(EventStaff.objects.filter(event=event).values_list("user_id", "role"))
    added = []
    rows = (
        EventStaff.objects.filter(event=previous)
        .exclude(user=user)
        .select_related("user")
        .order_by("role", "user__username")
    )
    for row in rows:
        if (row.user_id, row.role) in held or not row.user.is_active:
            continue
        staff = EventStaff.objects.create(event=event, user=row.user, role=row.role)
        audit_log(
            event=event,
            by=by,
            action="staff.add",
            obj=staff,
            object_type="staff",
            new={"user": row.user.get_username(), "role": row.role},
            reason=f"carried over from {previous.name}",
        )
        added.append(staff)
    return added
