"""Pairing groups ("pods") by name: the one place a pod name becomes a label.

A Swiss pod is named by the divisions paired together (``junior+senior``); a division's
top-cut bracket is ``<division>-top-cut``. ``tournaments.procedures`` says what each plays.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from .models import DivisionCode

CUT_SUFFIX = "-top-cut"
FLIGHT_SEP = "#flight-"


def pod_label(pod: str) -> str:
    """``junior+senior`` → "Junior + Senior"; ``masters-top-cut`` → "Masters top cut"."""
    if pod.endswith(CUT_SUFFIX):
        return _("%(pod)s top cut") % {"pod": pod_label(pod.removesuffix(CUT_SUFFIX))}
    base, flight = split_flight(pod)
    if flight is not None:
        return _("%(pod)s flight %(flight)s") % {"pod": pod_label(base), "flight": flight}
    names = dict(DivisionCode.choices)
    return " + ".join(str(names.get(part, part.title())) for part in pod.split("+"))


def cut_pod_name(division_code: str) -> str:
    """The bracket pod of a division's top cut: ``masters`` → ``masters-top-cut``."""
    return f"{division_code}{CUT_SUFFIX}"


def flight_pod(pod: str, flight: int) -> str:
    """The pairing group of one flight of a division (P-FL): ``masters#flight-2``."""
    return f"{pod}{FLIGHT_SEP}{flight}"


def split_flight(pod: str) -> tuple[str, int | None]:
    """``masters#flight-2`` → ``("masters", 2)``; any other pod → ``(pod, None)``."""
    base, sep, number = pod.partition(FLIGHT_SEP)
    return (base, int(number)) if sep and number.isdigit() else (pod, None)


def in_pod(pod: str, prefix: str = "") -> Q:
    """The registrations paired in ``pod``: its divisions, or one flight of a division
    (P-FL). ``prefix`` for lookups through a relation (``"registration__"``)."""
    base, flight = split_flight(pod)
    q = Q(**{f"{prefix}division__pod": base})
    return q & Q(**{f"{prefix}flight": flight}) if flight is not None else q
