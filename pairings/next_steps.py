"""The staff dashboard's "what next" line: one short sentence and a
link saying what the event needs now, at every step from an empty event to the final
standings. Each pairing group's own next step stays on its card (``services.group_states``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Event, EventStatus, RoundStatus

from .services import GroupState


@dataclass(frozen=True)
class NextStep:
    """What to do next: ``text`` for staff, ``url`` of the page where it is done (or
    ``""``), ``step`` a stable name for pages and tests."""

    step: str
    text: str
    url: str = ""


def what_next(event: Event, states: list[GroupState], *, checkin_open: bool) -> NextStep:
    """The event's next step: add players → close check-in → (per pairing group, the first that
    needs something) review, start, enter results or pair → finished. 1 query."""
    slug = event.slug
    if event.status == EventStatus.FINISHED:
        url = reverse("staff:standings", args=[slug])
        return NextStep("finished", _("The event is over: check the final standings."), url)
    if not event.registrations.exists():
        return NextStep(
            "players",
            _("Add the players: one by one or from a spreadsheet."),
            reverse("staff:players", args=[slug]),
        )
    if checkin_open:
        return NextStep(
            "checkin",
            _("Check the players in, then close check-in below: it sets the rounds and cut."),
            reverse("staff:dashboard", args=[slug]) + "#checkin",
        )
    for state in states:
        if step := _group_step(slug, state, several=len(states) > 1):
            return step
    waiting = " ".join(f"{s.label}: {s.next_action}" for s in states)
    return NextStep("wait", waiting or _("Nothing to do now."))


def _group_step(slug: str, state: GroupState, *, several: bool) -> NextStep | None:
    """The step one pairing group needs, or None when it is finished or waiting."""
    prefix = f"{state.label}: " if several else ""
    rnd = state.current
    if rnd is not None and rnd.status != RoundStatus.COMPLETE:
        url = reverse("staff:round", args=[slug, rnd.pk])
        if rnd.status == RoundStatus.PAIRED:
            text = _("review round %(n)s and publish it.") % {"n": rnd.number}
            return NextStep("publish", prefix + text, url)
        if rnd.status == RoundStatus.PUBLISHED:
            text = _("start round %(n)s when the players are seated.") % {"n": rnd.number}
            return NextStep("start", prefix + text, url)
        text = ngettext(
            "enter the last result of round %(n)s.",
            "enter the %(missing)s missing results of round %(n)s.",
            state.results_missing,
        ) % {"n": rnd.number, "missing": state.results_missing}
        return NextStep("results", prefix + text, url + "?missing=1")
    if state.can_pair:
        url = reverse("staff:dashboard", args=[slug]) + f"#group-{state.key}"
        return NextStep("pair", prefix + state.next_action, url)
    return None
