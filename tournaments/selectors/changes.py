"""A player's change log on their staff page, in plain words: each audit row about the
player (their registration, and the results of their matches) as one whole sentence in
the reader's language, times in the site's time zone ("Checked in at 09:29", "Round 3
result corrected: Ann Lee wins 2-1-0 → Bo Park wins 2-0-0"). The audit page keeps the
rows as stored (P-POST-3, P-POST-4); this is only how they read."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import AuditEvent, DivisionCode, Event, MatchSeat, Outcome, Registration
from .names import seat_name, seat_twin
from .rounds import draw_word, result_games

# The audit rows of a player's matches that change their result.
RESULT_ACTIONS = ("result.enter", "result.correct", "result.undo", "match.forfeit")


@dataclass(frozen=True)
class PlayerChange:
    """One change to a player, as their staff page lists it: when (``at``, aware), who
    made it (a staff login, "the player" on their private link, "–" for the system), the
    change as a sentence, and the reason given."""

    at: dt.datetime
    who: str
    text: str
    reason: str


@dataclass(frozen=True)
class _Seats:
    """The seats of the player's matches: ``{match id: [(external id, name), …]}`` in
    seat order."""

    by_match: dict[str, list[tuple[str, str]]]

    def name(self, match_id: str, external_id: str | None) -> str:
        return next((n for x, n in self.by_match.get(match_id, []) if x == external_id), "")

    def seat(self, match_id: str, external_id: str | None) -> int | None:
        order = [x for x, _n in self.by_match.get(match_id, [])]
        return order.index(external_id) if external_id in order else None


def local_time(value: Any) -> str:
    """An ISO 8601 timestamp (as the audit rows store it) or a datetime as "09:29" in
    the site's time zone (``TIME_ZONE``); "" for anything else."""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            return ""
    if not isinstance(value, dt.datetime):
        return ""
    if timezone.is_naive(value):
        value = timezone.make_aware(value, dt.UTC)
    return f"{timezone.localtime(value):%H:%M}"


def changes_for_player(event: Event, reg: Registration, limit: int = 20) -> list[PlayerChange]:
    """The ``limit`` latest changes to ``reg``, newest first, in words: the rows about
    their registration and the results of the matches they sat in. 3 queries."""
    match_ids = [
        str(m)
        for m in MatchSeat.objects.filter(registration=reg).values_list("match_id", flat=True)
    ]
    rows = list(
        AuditEvent.objects.filter(event=event)
        .filter(
            Q(object_type="registration", object_id=str(reg.pk))
            | Q(object_type="match", object_id__in=match_ids, action__in=RESULT_ACTIONS)
        )
        .select_related("actor")
        .order_by("-at", "-id")[:limit]
    )
    seats = _seats(event, [r.object_id for r in rows if r.object_type == "match"])
    draw = draw_word(event)
    return [PlayerChange(r.at, _who(r), _sentence(r, seats, draw), r.reason or "") for r in rows]


def _seats(event: Event, match_ids: list[str]) -> _Seats:
    by_match: dict[str, list[tuple[str, str]]] = {}
    if match_ids:
        seats = (
            MatchSeat.objects.filter(match_id__in=[int(m) for m in match_ids if m.isdigit()])
            .select_related("registration__player")
            .annotate(**seat_twin(event.pk))
            .order_by("match_id", "seat")
        )
        for s in seats:
            by_match.setdefault(str(s.match_id), []).append(
                (s.registration.external_id, seat_name(s))
            )
    return _Seats(by_match)


def _who(row: AuditEvent) -> str:
    if row.actor is not None:
        return row.actor.get_username()
    if row.actor_registration_id is not None:
        return _("the player")
    return "–"


def _value(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


def _sentence(row: AuditEvent, seats: _Seats, draw: str) -> str:
    """The row as one sentence: a known action in its own words, any other in a
    generic one (never an action key, a field name or an ISO timestamp)."""
    if row.action in RESULT_ACTIONS:
        return _result_sentence(row, seats, draw)
    worded = _REGISTRATION_SENTENCES.get(row.action)
    return worded(row) if worded else _("Other change: the audit trail has the details")


def _checkin(row: AuditEvent) -> str:
    at = local_time(_value(row.new, "checked_in_at")) or local_time(row.at)
    return _("Checked in at %(time)s") % {"time": at}


def _checkout(row: AuditEvent) -> str:
    was = local_time(_value(row.old, "checked_in_at"))
    if was:
        return _("Check-in undone (had checked in at %(time)s)") % {"time": was}
    return _("Check-in undone")


def _drop(row: AuditEvent) -> str:
    number = _value(row.new, "dropped_after_round")
    if not number:
        return _("Dropped before round 1")
    return _("Dropped after round %(number)s") % {"number": number}


def _reinstate(row: AuditEvent) -> str:
    number = _value(row.old, "dropped_after_round")
    if not number:
        return _("Drop undone: back in the event")
    return _("Drop after round %(number)s undone: back in the event") % {"number": number}


def _division(code: Any) -> str:
    return str(DivisionCode(code).label) if code in DivisionCode.values else str(code or "–")


def _division_change(row: AuditEvent) -> str:
    return _("Moved from the %(old)s division to %(new)s") % {
        "old": _division(_value(row.old, "division")),
        "new": _division(_value(row.new, "division")),
    }


def _fixed_seat(row: AuditEvent) -> str:
    table = _value(row.new, "fixed_table")
    if table:
        return _("Given a fixed seat at table %(table)s") % {"table": table}
    return _("Fixed seat removed")


def _feature(row: AuditEvent) -> str:
    if _value(row.new, "feature_opt_out"):
        return _("Asked not to be featured")
    return _("Agreed to be featured again")


def _decklist_submit(row: AuditEvent) -> str:
    if _value(row.old, "received"):
        return _("Changed their deck list")
    return _("Submitted their deck list")


def _details(row: AuditEvent) -> str:
    """``player.update``: what was corrected, in words ("name Ann → Ann Lee")."""
    fields = {
        "name": _("name"),
        "player_id": _("player ID"),
        "birth_year": _("birth year"),
        "division": _("division"),
    }
    parts = []
    for key, new in (row.new or {}).items() if isinstance(row.new, dict) else ():
        old = _value(row.old, key)
        if key == "division":
            old, new = _division(old), _division(new)
        label = fields.get(key)
        if label:
            parts.append(f"{label} {'–' if old in (None, '') else old} → {new or '–'}")
    if not parts:
        return _("Details corrected")
    return _("Details corrected: %(changes)s") % {"changes": "; ".join(parts)}


_REGISTRATION_SENTENCES: dict[str, Callable[[AuditEvent], str]] = {
    "registration.add": lambda row: _("Entered the event"),
    "registration.checkin": _checkin,
    "registration.checkout": _checkout,
    "registration.drop": _drop,
    "registration.reinstate": _reinstate,
    "registration.disqualify": lambda row: _("Disqualified"),
    "registration.division": _division_change,
    "registration.fixed_seat": _fixed_seat,
    "registration.link_reset": lambda row: _(
        "Given a new private link (the old one stopped working)"
    ),
    "registration.feature_opt_out": _feature,
    "player.update": _details,
    "decklist.submit": _decklist_submit,
    "decklist.record": lambda row: _("Deck list recorded by the staff"),
    "decklist.reopen": lambda row: _("Deck list reopened for one more change"),
    "decklist.lock": lambda row: _("Deck list locked again"),
}


def _result_words(data: Any, match_id: str, seats: _Seats, draw: str) -> str | None:
    """A stored result (``{"outcome", "winner": external id, "games": seat order}``) in
    words, the winner's games first; None for what cannot be worded in the reader's
    language (a pod's result, stored as English text for the audit trail)."""
    if not isinstance(data, dict) or "outcome" not in data:
        return None
    outcome, winner = data.get("outcome"), data.get("winner")
    games = data.get("games")
    if outcome == Outcome.WIN:
        name = seats.name(match_id, winner) or str(winner or "–")
        score = result_games(games, seats.seat(match_id, winner))
        text = _("%(name)s wins") % {"name": name}
        return f"{text} {score}" if score else text
    if outcome == Outcome.DRAW:
        score = result_games(games, None)
        return f"{draw} {score}" if score else draw
    return str(Outcome(outcome).label) if outcome in Outcome.values else None


def _result_sentence(row: AuditEvent, seats: _Seats, draw: str) -> str:
    """A result row as a sentence: with the results in words when they can be worded
    (a match's), else without them (a pod's: the audit trail has its text)."""
    values = {
        "number": row.round_number or "–",
        "old": _result_words(row.old, row.object_id, seats, draw),
        "new": _result_words(row.new, row.object_id, seats, draw),
    }
    worded = values["new"] is not None and values["old"] is not None
    if row.action == "result.enter" and values["new"] is not None:
        return _("Round %(number)s result entered: %(new)s") % values
    if row.action == "result.enter":
        return _("Round %(number)s result entered") % values
    if row.action == "result.correct" and worded:
        return _("Round %(number)s result corrected: %(old)s → %(new)s") % values
    if row.action == "result.correct":
        return _("Round %(number)s result corrected") % values
    if row.action == "result.undo" and values["old"] is not None:
        return _("Round %(number)s result undone (was %(old)s)") % values
    if row.action == "result.undo":
        return _("Round %(number)s result undone") % values
    if values["new"] is not None:
        return _("Round %(number)s match forfeited: %(new)s") % values
    return _("Round %(number)s match forfeited") % values
