"""Who acts: the one type of every service's ``by=`` argument (docs/style.md §2).

A change is made by one of three kinds of actor, and the audit trail records which:

* a staff member signed in: ``request.user``, a :class:`~django.contrib.auth.models.User`
  (an :class:`~django.contrib.auth.models.AnonymousUser` when nobody is signed in; the
  permission checks keep one from reaching a service, and it is recorded as nobody);
* a player acting on their private link or at the door: their :class:`Registration`;
* nobody: ``None`` for a management command, a background task or the system.

Matchslip uses Django's own ``User`` (``AUTH_USER_MODEL`` is not changed); the models
point at it through ``settings.AUTH_USER_MODEL`` and this alias is the one place in the
code that names it as the acting user's type.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User

from .models import Registration

Actor: TypeAlias = User | AnonymousUser | Registration | None


def acting_user(by: Actor) -> User | None:
    """The signed-in user behind ``by``, or None when a player (a Registration), nobody
    signed in or the system acted: the value for a ``…_by`` / ``actor`` user column."""
    return by if isinstance(by, User) and by.is_authenticated else None


def actor_name(by: Actor, system: str = "the system") -> str:
    """Who acted, as the pairing notes and mails name them: the user name of a signed-in
    user, else ``system``."""
    user = acting_user(by)
    return user.get_username() if user is not None else system
