"""QR codes of players' private links, as inline SVG that scales to any print size."""

from __future__ import annotations

import segno


def qr_svg(url: str) -> str:
    """An inline ``<svg>`` QR code of ``url`` with its quiet zone (4 modules), error
    correction M, sized by CSS (a viewBox, no width/height). Always a full QR code:
    phone cameras do not read Micro QR."""
    return segno.make_qr(url, error="m").svg_inline(
        scale=1, omitsize=True, svgclass="qr", lineclass=None, title="Report link"
    )
