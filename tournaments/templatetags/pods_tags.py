"""Template filters of multiplayer pod events (``{% load pods_tags %}``)."""

from __future__ import annotations

from typing import Any

from django import template

from ..multiplayer import POD_CUT_SIZES
from ..multiplayer import uses_pods as _uses_pods

register = template.Library()


@register.filter
def uses_pods(event: Any) -> bool:
    """``{% if event|uses_pods %}``: the event is played in multiplayer pods."""
    return _uses_pods(event)


@register.simple_tag
def pod_cut_sizes() -> tuple[int, ...]:
    """The pod top cut sizes an organiser can announce: none, then MP-SE-1's sizes."""
    return (0, *POD_CUT_SIZES)
