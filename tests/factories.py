"""Small builders for database tests. They go through the services, like the app does."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.groups import cut_group
from tournaments.models import (
    Event,
    EventStaff,
    PairingGroup,
    Phase,
    Registration,
    Round,
    RoundStatus,
    StaffRole,
)

PASSWORD = "correct horse battery staple"


def user(username: str = "staff", **extra: Any):
    User = get_user_model()
    return User.objects.create_user(username=username, password=PASSWORD, **extra)


def staff(event: Event, role: str = StaffRole.SCOREKEEPER, username: str | None = None):
    u = user(username or f"{role}-{event.pk}")
    EventStaff.objects.create(event=event, user=u, role=role)
    return u


def event(*, by, name: str = "Test Cup", **kwargs: Any) -> Event:
    kwargs.setdefault("swiss_rounds", 3)
    return services.event_create(name=name, by=by, **kwargs)


def event_with_players(n: int, *, by, **kwargs: Any) -> Event:
    ev = event(by=by, **kwargs)
    for i in range(1, n + 1):
        services.registration_add(event=ev, name=f"Player {i:03d}", player_id=f"{1000 + i}", by=by)
    return ev


def group_row(event: Event, key: str) -> PairingGroup:
    """The event's pairing group ``key``; a division's cut group (``<code>-top-cut``) is
    made on first use, as taking the cut makes it."""
    found = event.groups.filter(key=key).first()
    if found is not None:
        return found
    code = key.removesuffix("-top-cut")
    return cut_group(event.divisions.get(code=code))


def started_round(players: int = 4, *, username: str = "org"):
    """An event of ``players`` whose round 1 is started, tables in registration order.
    Returns ``(event, round, registrations)``; the organiser is ``username``."""
    organiser = user(username)
    ev = event_with_players(players, by=organiser)
    regs = list(ev.registrations.order_by("pk"))
    rnd = services.round_create(
        event=ev,
        group=group_row(ev, "open"),
        number=1,
        phase=Phase.SWISS,
        by=organiser,
        tables=[(t + 1, regs[2 * t : 2 * t + 2], "random") for t in range(players // 2)],
    )
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    return ev, rnd, regs


def round_in_order(
    event: Event,
    *,
    by,
    status: str = RoundStatus.STARTED,
    group: str = "open",
    number: int = 1,
    phase: str = Phase.SWISS,
    regs: list[Registration] | None = None,
    why: str = "",
) -> Round:
    """A round pairing ``regs`` (default: every registration by pk) two by two in order,
    tables 1.., taken through the services up to ``status`` (paired, published, started)."""
    regs = regs or list(event.registrations.order_by("pk"))
    rnd = services.round_create(
        event=event,
        group=group_row(event, group),
        number=number,
        phase=phase,
        tables=[(i + 1, regs[2 * i : 2 * i + 2], why) for i in range(len(regs) // 2)],
        by=by,
    )
    if status in (RoundStatus.PUBLISHED, RoundStatus.STARTED):
        services.round_publish(round=rnd, by=by)
    if status == RoundStatus.STARTED:
        services.round_start(round=rnd, by=by)
    return rnd
