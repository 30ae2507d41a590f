"""Pairing groups (:class:`~tournaments.models.PairingGroup`): made, found and named here.

A division is paired in one Swiss group (``swiss_group``), shared with other divisions
when age-modified (P-AGE-3, R-5); a flighted division's flights are groups of their own
whose parent is that Swiss group (P-FL-1), which plays Day 2 and the merged cut (P-FL-5);
a division's cut is a group whose parent is its Swiss group (P-TC-1, MP-SE-1). Keys are
names for forms, addresses and event files (``junior+senior``, ``masters#flight-2``,
``masters-top-cut``), built here and never parsed: a group's divisions, flight, phase and
parent are its fields. ``tournaments.procedures`` says what each group plays.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from django.db.models import Case, Q, Value, When
from django.utils.translation import gettext as _

from .models import CutSeed, Division, DivisionCode, Event, GroupPhase, PairingGroup
from .procedures import standalone_bracket


def age_order() -> Case:
    """An ``order_by`` expression putting divisions in age order, as people list them:
    Junior, Senior, Masters, then Open (``DivisionCode``'s order), not alphabetically by
    code. ``event.divisions.order_by(age_order())``."""
    return Case(
        *(When(code=code, then=Value(n)) for n, code in enumerate(DivisionCode.values)),
        default=Value(len(DivisionCode.values)),
    )


def group_label(group: PairingGroup) -> str:
    """The group's name for people: "Junior + Senior", "Masters top cut", "Masters
    flight 2" (its divisions' names; one query unless ``divisions`` is prefetched)."""
    names = dict(DivisionCode.choices)
    order = list(names)  # Junior, Senior, Masters, Open
    codes = sorted((d.code for d in group.divisions.all()), key=order.index)
    label = " + ".join(str(names[code]) for code in codes) or group.key
    if group.is_cut:
        return _("%(group)s top cut") % {"group": label}
    if group.flight is not None:
        return _("%(group)s flight %(flight)s") % {"group": label, "flight": group.flight}
    return label


def _root_phase(event: Event) -> str:
    return GroupPhase.SINGLE_ELIMINATION if standalone_bracket(event) else GroupPhase.SWISS


def set_swiss_groups(event: Event, keys: Mapping[str, str]) -> None:
    """Put each division (by code) in the Swiss group named ``keys[code]`` (created as
    needed, a standalone bracket's group in a single-elimination event), out of any
    other; a Swiss group left without a division and without a round is deleted. Used
    when an event is created or imported and when check-in fixes the age mode (P-AGE-3)."""
    divisions = {d.code: d for d in event.divisions.all()}
    roots = {g.key: g for g in event.groups.filter(parent__isnull=True)}
    for code, key in keys.items():
        division = divisions[code]
        for group in division.groups.filter(parent__isnull=True).exclude(key=key):
            group.divisions.remove(division)
        if key not in roots:
            roots[key] = PairingGroup.objects.create(event=event, key=key, phase=_root_phase(event))
        roots[key].divisions.add(division)
    event.groups.filter(parent__isnull=True, divisions=None, rounds=None).delete()


def swiss_group(division: Division) -> PairingGroup:
    """The group the division's Swiss (or standalone bracket) is paired in. Raises
    PairingGroup.DoesNotExist for a division in no group (never after ``event_create``)."""
    for group in division.groups.all():  # prefetch-friendly
        if group.parent_id is None:
            return group
    raise PairingGroup.DoesNotExist(f"{division} is in no pairing group.")


def cut_key(code: str) -> str:
    """The key of a division's cut group: ``masters`` → ``masters-top-cut``."""
    return f"{code}-top-cut"


def flight_key(key: str, flight: int) -> str:
    """The key of flight ``flight`` of the Swiss group ``key``: ``masters#flight-2``."""
    return f"{key}#flight-{flight}"


def flight_group(division: Division, flight: int) -> PairingGroup:
    """The group of flight ``flight`` (1 first) of ``division`` (P-FL-1), made on first use."""
    parent = swiss_group(division)
    group, created = PairingGroup.objects.get_or_create(
        event_id=division.event_id,
        key=flight_key(parent.key, flight),
        defaults={"phase": GroupPhase.SWISS, "flight": flight, "parent": parent},
    )
    if created:
        group.divisions.add(division)
    return group


def cut_group(division: Division) -> PairingGroup:
    """The group of the division's top cut (P-TC-1, MP-SE-1), made on first use."""
    group, created = PairingGroup.objects.get_or_create(
        event_id=division.event_id,
        key=cut_key(division.code),
        defaults={"phase": GroupPhase.TOP_CUT, "parent": swiss_group(division)},
    )
    if created:
        group.divisions.add(division)
    return group


def in_group(group: PairingGroup, prefix: str = "") -> Q:
    """The registrations paired in ``group``: its divisions, and its flight (P-FL).
    ``prefix`` for lookups through a relation (``"registration__"``)."""
    q = Q(**{f"{prefix}division__groups": group})
    return q & Q(**{f"{prefix}flight": group.flight}) if group.flight is not None else q


def division_keys(divisions: Iterable[Division]) -> dict[str, str]:
    """``{code: key of its Swiss group}`` for ``divisions`` (their groups prefetched or
    one query each)."""
    return {d.code: swiss_group(d).key for d in divisions}


def seeds_store(group: PairingGroup, seeds: Mapping[int, int] | Sequence[int]) -> None:
    """Store the bracket seeds of ``group`` as it is cut or drawn (P-TC-1, P-SE-1,
    MP-SE-1): ``{registration id: seed}``, or the registration ids in seed order (seed 1
    first). Seeds stored before (a first round discarded and paired again, P-SE-4) are
    replaced; the database refuses a player or a seed twice."""
    pairs = seeds.items() if isinstance(seeds, Mapping) else _in_order(seeds)
    group.seeds.all().delete()
    CutSeed.objects.bulk_create(
        CutSeed(group=group, registration_id=reg, seed=n) for reg, n in pairs
    )


def _in_order(registrations: Sequence[int]) -> list[tuple[int, int]]:
    """``[(registration id, seed)]`` for ids in seed order, seed 1 first."""
    return [(reg, n) for n, reg in enumerate(registrations, start=1)]


def group_seeds(group: PairingGroup) -> dict[int, int]:
    """``{registration id: seed}`` of a bracket group, as stored when it was cut (empty
    before). One query."""
    return dict(group.seeds.values_list("registration_id", "seed"))


def cut_group_of(division: Division) -> PairingGroup | None:
    """The division's top-cut group once its cut is taken, else None (reads only)."""
    return division.groups.filter(phase=GroupPhase.TOP_CUT).first()
