"""``{% offline_config kind event reg %}``: the JSON ``static/js/offline.js`` reads
(``tournaments.offline.offline_config``), as ``<script type="application/json"
id="offline-config">``. Loaded by ``templates/tournaments/_offline_head.html``."""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from ..models import Event, Registration
from ..offline import offline_config as config_for

register = template.Library()


@register.simple_tag
def offline_config(kind: str, event: Event, reg: Registration | None = None) -> SafeString:
    """The page's offline settings and texts (``kind``: ``staff`` or ``player``; ``reg``:
    the player of a private page), in the visitor's language."""
    return json_script(config_for(kind, event, reg), "offline-config")
