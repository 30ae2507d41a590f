"""How a player's name is shown to players: told apart when two registrations of the
event share it (case-insensitively), by the end of the player id, else the birth year,
else the event's id for the registration.

Organisers may register two "Alice Smith" (``registrations_add_sheet`` asks them to
confirm it); public pairings, "Find my table", a player's own page and the standings
then read "Alice Smith #4567" and "Alice Smith #1234" instead of two identical lines.
A query learns whether a name has a twin in the same statement that loads the seats or
registrations (:func:`seat_twin`, :func:`registration_twin`: ``IN`` an uncorrelated
subquery of the event's shared names, run once), so no page needs a query more.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, OuterRef, Q, QuerySet
from django.db.models.functions import Upper

from ..identities import file_ids
from ..models import Registration

ID_TAIL = 4  # characters of the player id shown after a shared name


def shown_name(
    name: str,
    *,
    twin: bool,
    player_id: str = "",
    birth_year: int | None = None,
    external_id: str = "",
) -> str:
    """``name`` as players see it: unchanged unless ``twin`` (another registration of the
    event has the same name); then ``"Alice Smith #4567"`` (the last four characters of
    the player id), ``"Alice Smith (1990)"`` (the birth year), or ``"Alice Smith (p12)"``
    (the registration's id in the event)."""
    if not twin:
        return name
    if player_id:
        return f"{name} #{player_id[-ID_TAIL:]}"
    if birth_year:
        return f"{name} ({birth_year})"
    return f"{name} ({external_id})" if external_id else name


def _shared_names(event_id: int) -> QuerySet[Registration, dict[str, Any]]:
    """The upper-cased names that more than one registration of the event has: a
    subquery PostgreSQL runs once (a hashed subplan), whatever the number of rows."""
    return (
        Registration.objects.filter(event_id=event_id)
        .order_by()
        .annotate(key=Upper("player__name"))
        .values("key")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .values("key")
    )


def seat_twin(event_id: int) -> dict[str, Any]:
    """Annotations for a ``MatchSeat`` queryset of event ``event_id``
    (``.annotate(**seat_twin(event.pk))``): ``name_twin``, whether another registration
    of the event has the seated player's name."""
    return {
        "name_key": Upper("registration__player__name"),
        "name_twin": ExpressionWrapper(
            Q(name_key__in=_shared_names(event_id)), output_field=BooleanField()
        ),
    }


def registration_twin(event_id: int) -> dict[str, Any]:
    """Annotations for a ``Registration`` queryset of event ``event_id``
    (``.annotate(**registration_twin(event.pk))``): ``name_twin``, whether another
    registration of the event has the same player name."""
    return {
        "name_key": Upper("player__name"),
        "name_twin": ExpressionWrapper(
            Q(name_key__in=_shared_names(event_id)), output_field=BooleanField()
        ),
    }


def registration_name(reg: Registration, twin: bool | None = None) -> str:
    """How people see ``reg`` (its player loaded): ``twin`` as given, else the
    ``name_twin`` annotation, else one query (``has_twin``), so a registration read
    without the annotation is still told apart."""
    if twin is None:
        twin = reg.name_twin if hasattr(reg, "name_twin") else has_twin(reg)
    p = reg.player
    return shown_name(
        p.name,
        twin=twin,
        player_id=p.player_id,
        birth_year=p.birth_year,
        external_id=reg.external_id,
    )


def seat_name(seat: Any) -> str:
    """How players see a seated player (a ``MatchSeat`` with registration and player
    loaded, annotated with ``name_twin`` or not: then one query, ``has_twin``)."""
    twin = seat.name_twin if hasattr(seat, "name_twin") else None
    return registration_name(seat.registration, twin)


def has_twin(reg: Registration) -> bool:
    """Whether another registration of ``reg``'s event has the same player name
    (case-insensitively). One query."""
    return (
        Registration.objects.filter(event_id=reg.event_id, player__name__iexact=reg.player.name)
        .exclude(pk=reg.pk)
        .exists()
    )


def with_shown_names(
    registrations: QuerySet[Registration], event_id: int
) -> QuerySet[Registration]:
    """``registrations`` (of event ``event_id``) with their player loaded and the
    ``name_twin`` annotation, so :func:`registration_name` (and the ``shown_name``
    template filter) tell same-name players apart without a query more."""
    return registrations.select_related("player").annotate(**registration_twin(event_id))


def shown_names(event_id: int, ids: Iterable[int] | None = None) -> dict[int, str]:
    """``{registration pk: name as people see it}`` for the registrations of event
    ``event_id`` (only ``ids`` when given): "Noah Williams #0017" where two share a name.
    One query."""
    regs = Registration.objects.filter(event_id=event_id)
    if ids is not None:
        regs = regs.filter(pk__in=list(ids))
    return {r.pk: registration_name(r) for r in with_shown_names(regs.order_by(), event_id)}


def file_ids_for_event(event_id: int) -> dict[str, str]:
    """``{external_id: file id}`` of every registration of the event: the id TOM files
    (``userid``) and CSV files ("player id") carry, the player's Play! Pokémon ID where
    it names them alone (``identities.file_ids``). One query."""
    rows = Registration.objects.filter(event_id=event_id).order_by()
    return file_ids(rows.values_list("external_id", "player__player_id"))


def shown_names_by_external_id(event_id: int) -> dict[str, str]:
    """``{external_id: name as people see it}`` of every registration of the event, for
    files keyed by the event's ids (the CSV exports). One query."""
    regs = with_shown_names(Registration.objects.filter(event_id=event_id).order_by(), event_id)
    return {r.external_id: registration_name(r) for r in regs}


def twin_exists(prefix: str = "") -> Exists:
    """Whether another registration of the same event has the player name of the
    registration reached through ``prefix`` (``"registration__"``, ``"winner__"``; ``""``
    for a ``Registration`` queryset), as a correlated ``EXISTS`` for ``.annotate()``: for
    querysets that do not know their event up front (players' reports). No query more."""
    return Exists(
        Registration.objects.filter(
            event_id=OuterRef(f"{prefix}event_id"),
            player__name__iexact=OuterRef(f"{prefix}player__name"),
        ).exclude(pk=OuterRef(f"{prefix}pk"))
    )
