"""Check constraints that keep a choices field to its choices in the database (
part 5): the admin, a shell or a bulk write cannot store a value the code does not know."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models
from django.db.models import Q


def one_of(field: str, values: Iterable[str], *, name: str) -> models.CheckConstraint:
    """A CheckConstraint named ``name``: ``field`` holds one of ``values`` (sorted, so the
    migration autodetector sees a stable list)."""
    return models.CheckConstraint(condition=Q(**{f"{field}__in": sorted(values)}), name=name)
