"""Template filters of Matchslip's pages."""

from __future__ import annotations

from typing import Any

from django import template

from ..forms import QUICK_SCORES
from ..rulesets import RULESETS, Ruleset

register = template.Library()


@register.filter
def get_item(mapping: dict[Any, Any] | None, key: Any) -> Any:
    """``mapping[key]`` or None: ``{{ reports|get_item:m.id }}``."""
    return (mapping or {}).get(key)


@register.filter
def ruleset(ruleset_id: str) -> Ruleset | None:
    """The ``Ruleset`` of an id, for what a page offers: ``{{ event.ruleset|ruleset }}``."""
    return RULESETS.get(ruleset_id)


@register.simple_tag
def quick_scores() -> tuple[tuple[str, str], ...]:
    """The quick game-score buttons of a best-of-3 slip: ``{% quick_scores as q %}``."""
    return QUICK_SCORES
