"""Pairing groups ("pods") by name: the one place a pod name becomes a label.

A Swiss pod is named by the divisions paired together (``junior+senior``); a division's
top-cut bracket is ``<division>-top-cut``. ``pairings.pods`` builds on this module.
"""

from __future__ import annotations

from .models import DivisionCode

CUT_SUFFIX = "-top-cut"


def pod_label(pod: str) -> str:
    """``junior+senior`` → "Junior + Senior"; ``masters-top-cut`` → "Masters top cut"."""
    if pod.endswith(CUT_SUFFIX):
        return f"{pod_label(pod.removesuffix(CUT_SUFFIX))} top cut"
    names = dict(DivisionCode.choices)
    return " + ".join(names.get(part, part.title()) for part in pod.split("+"))


def cut_pod_name(division_code: str) -> str:
    """The bracket pod of a division's top cut: ``masters`` → ``masters-top-cut``."""
    return f"{division_code}{CUT_SUFFIX}"
