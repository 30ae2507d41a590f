"""Template filters of Matchslip's pages."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: dict[Any, Any] | None, key: Any) -> Any:
    """``mapping[key]`` or None: ``{{ reports|get_item:m.id }}``."""
    return (mapping or {}).get(key)
