"""The event planner on the pages: the New-event page's plan form and
an event's estimated finish, both through the pure :func:`pairings.engine.planner.plan`.

Before the event, the plan reads the expected attendance per division and the table's
structure; once it runs, it reads the players registered, the announced structure and
the real start and end of every round played, so the finish moves when a round runs
long. Times are shown in the site's time zone (``TIME_ZONE``).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django import forms
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pairings.engine.planner import DEFAULT_BREAK_SECONDS, Announced, Plan, Played, plan
from rulesets import get_ruleset
from rulesets.mtg_multiplayer import standard_size

from .models import DivisionCode, Event, Round

DEFAULT_START = dt.time(9, 0)


class PlanForm(forms.Form):
    """The planner's inputs on the New-event page (a GET form; the same names travel
    with the event form when it is created). Lengths in minutes here, seconds stored."""

    players = forms.IntegerField(
        min_value=2, max_value=5000, required=False, label=_("Players expected")
    )
    senior = forms.IntegerField(min_value=0, max_value=5000, required=False, label=_("Senior"))
    junior = forms.IntegerField(min_value=0, max_value=5000, required=False, label=_("Junior"))
    two_day = forms.BooleanField(required=False)
    start = forms.TimeField(required=False, label=_("First round starts"), initial=DEFAULT_START)
    round_minutes = forms.IntegerField(
        min_value=10, max_value=240, required=False, label=_("Round length (minutes)")
    )
    break_minutes = forms.IntegerField(
        min_value=0, max_value=120, required=False, label=_("Break between rounds (minutes)")
    )
    tables = forms.IntegerField(min_value=1, max_value=5000, required=False, label=_("Tables"))

    def start_text(self) -> str:
        """The start as typed (``"09:30"``), for the time input; 09:00 when empty."""
        value = self.data.get("start") or ""
        return value if value else DEFAULT_START.strftime("%H:%M")

    def attendance(self, ruleset_id: str) -> dict[str, int]:
        """``{division code: players}``: the largest division is Masters for rulesets
        with age divisions (P-AGE-1), else the open division."""
        data = self.cleaned_data if self.is_valid() else {}
        ages = get_ruleset(ruleset_id).features.age_divisions
        main = DivisionCode.MASTERS if ages else DivisionCode.OPEN
        counts = {str(main): data.get("players") or 0}
        if ages:
            counts |= {"senior": data.get("senior") or 0, "junior": data.get("junior") or 0}
        return {code: n for code, n in counts.items() if n}

    def event_fields(self, ruleset_id: str) -> dict[str, Any]:
        """The planner's fields of ``services.event_create`` (empty when invalid)."""
        if not self.is_valid():
            return {}
        data = self.cleaned_data
        minutes = data.get("round_minutes")
        pause = data.get("break_minutes")
        return {
            "expected_players": self.attendance(ruleset_id),
            "planned_start": data.get("start"),
            "planned_round_seconds": minutes * 60 if minutes else None,
            "planned_break_seconds": DEFAULT_BREAK_SECONDS if pause is None else pause * 60,
            "planned_tables": data.get("tables"),
        }


def plan_for_form(form: PlanForm, ruleset_id: str, day: dt.date | None = None) -> Plan | None:
    """The plan of the New-event page's inputs, or None without players (or an invalid
    form). ``day``: the event's date, default today."""
    counts = form.attendance(ruleset_id)
    if not form.is_valid() or not counts:
        return None
    fields = form.event_fields(ruleset_id)
    start = _aware(day or timezone.localdate(), fields["planned_start"] or DEFAULT_START)
    try:
        return plan(
            get_ruleset(ruleset_id),
            counts,
            start=start,
            round_seconds=fields["planned_round_seconds"],
            break_seconds=fields["planned_break_seconds"],
            tables=fields["planned_tables"],
            two_day=form.cleaned_data.get("two_day") or False,
        )
    except ValueError:
        return None


def plan_for_event(event: Event, now: dt.datetime | None = None) -> Plan | None:
    """The event's schedule with the real round times: players registered per division
    (still active), else the expected ones; the announced structure (S-2) with each
    division's flights; round 1 at the planned start on the event's date, else when it
    really started. None when nothing can be planned (no players, no start). 1 query
    without a start, else 2."""
    rounds = list(
        Round.objects.filter(event=event).values_list(
            "number", "group__flight", "started_at", "completed_at"
        )
    )
    start = _first_start(event, rounds)
    if start is None:
        return None
    divisions = _divisions(event)
    counts = {code: n for code, (n, _, _) in divisions.items() if n} or {
        k: int(v) for k, v in event.expected_players.items()
    }
    if not counts:
        return None
    flights = {code: f for code, (_, f, _) in divisions.items() if f}
    announced = Announced(
        rounds=event.swiss_rounds,
        cut=event.top_cut_size,
        day2_rounds=event.day2_rounds,
        flights=flights or None,
        # each division's own rounds and cut (set at check-in)
        divisions={code: own for code, (_, _, own) in divisions.items()},
    )
    try:
        return plan(
            event.rules,
            counts,
            start=start,
            round_seconds=event.planned_round_seconds,
            break_seconds=event.planned_break_seconds,
            tables=event.planned_tables,
            two_day=bool(event.day2_rounds),
            announced=announced,
            played=_played(rounds, flighted=bool(flights)),
            now=now or timezone.now(),
            pod_size=standard_size(event.options),
        )
    except ValueError:
        return None


def _aware(day: dt.date, at: dt.time) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, at))


def _divisions(event: Event) -> dict[str, tuple[int, int, tuple[int, int]]]:
    """``{division code: (players still in, flights, (its Swiss rounds, its cut))}``:
    the division's own structure where set (``Division.rounds`` / ``cut``), else the
    event's. A flighted division's own rounds already lost a round per doubling
    (P-FL-2), which the planner takes off itself: it keeps the event's."""
    rows = event.divisions.annotate(
        n=Count("registrations", filter=Q(registrations__dropped_after_round__isnull=True))
    ).values_list("code", "n", "flights", "swiss_rounds", "top_cut_size")
    return {
        code: (
            n,
            flights,
            (
                event.swiss_rounds if rounds is None or flights else rounds,
                event.top_cut_size if cut is None else cut,
            ),
        )
        for code, n, flights, rounds, cut in rows
    }


#: A round's times as read: (number, flight of its group or None, started_at, completed_at).
RoundRow = tuple[int, int | None, dt.datetime | None, dt.datetime | None]


def _first_start(event: Event, rounds: list[RoundRow]) -> dt.datetime | None:
    """Round 1's planned start, else its real start (an event without a planned start)."""
    if event.planned_start is not None:
        return _aware(event.date or timezone.localdate(), event.planned_start)
    started = [r[2] for r in rounds if r[2] is not None]
    return min(started) if started else None


def _played(rounds: list[RoundRow], *, flighted: bool) -> list[Played]:
    """The rounds as they ran, in schedule order: by number (and flight, P-FL, when
    flights take turns); the divisions' rounds of one number start with the first and
    end with the last."""
    groups: dict[tuple[int, int], list[RoundRow]] = defaultdict(list)
    for row in rounds:
        flight = row[1] or 0
        groups[(row[0], flight if flighted else 0)].append(row)
    played = []
    for key in sorted(groups):
        starts = [r[2] for r in groups[key] if r[2] is not None]
        ends = [r[3] for r in groups[key] if r[3] is not None]
        done = len(ends) == len(groups[key])
        played.append(Played(min(starts) if starts else None, max(ends) if done else None))
    return _until_unstarted(played)


def _until_unstarted(played: list[Played]) -> list[Played]:
    """The played rounds up to the first not yet started (a paired round has no times)."""
    out = []
    for p in played:
        if p.started_at is None:
            break
        out.append(p)
    return out
