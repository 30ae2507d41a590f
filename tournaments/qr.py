"""QR codes of players' private links, as inline SVG that scales to any print size."""

from __future__ import annotations

import segno
from django.utils.translation import gettext


def qr_svg(url: str, title: str | None = None) -> str:
    """An inline ``<svg>`` QR code of ``url`` with its quiet zone (4 modules), error
    correction M, sized by CSS (a viewBox, no width/height). Always a full QR code:
    phone cameras do not read Micro QR. ``title``: the code's accessible name (escaped),
    by default "Report link" in the active language (a player's private link)."""
    if title is None:
        title = gettext("Report link")
    return segno.make_qr(url, error="m").svg_inline(
        scale=1, omitsize=True, svgclass="qr", lineclass=None, title=title
    )
