"""Featured tables: a match staff put on coverage or stream.

Staff feature a match of a round not yet complete under a **feature table** name
("Stream", "Feature 1"; ``Match.feature_table``, at most 40 characters, one match per
name in a round), and take it off again. A player may **opt out** from their private
page (``Registration.feature_opt_out``): staff then cannot feature any match they sit
at (the refusal names them), and opting out takes the feature off their matches of
rounds not yet complete. So a player who opted out is never featured. The public
pairings mark featured matches and the event page lists those of the current rounds.

Every change is audited (``match.feature``, ``match.unfeature``,
``registration.feature_opt_out``) and rebuilds the public pages when the round is
public. Locks: the match's players, then the match (opting out takes the same order).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from ..actors import Actor
from ..errors import InvalidInput, RoundStateError
from ..models import Match, Outcome, Registration, Round, RoundStatus
from ..public_pages import public_pages_changed
from ..text import clean_name
from .audit import audit_log

FEATURE_MAX = 40
#: Rounds whose matches may be featured: not complete yet.
OPEN = (RoundStatus.PAIRED, RoundStatus.PUBLISHED, RoundStatus.STARTED)


def _locked(match: Match) -> tuple[Match, list[Registration]]:
    """The match's players, then the match, locked (in that order, as opting out)."""
    players = list(
        Registration.objects.select_for_update()
        .filter(seats__match=match)
        .select_related("player")
        .order_by("pk")
    )
    row = Match.objects.select_for_update().select_related("round__event").get(pk=match.pk)
    return row, players


def _changed(rnd: Round) -> None:
    if rnd.status != RoundStatus.PAIRED:
        public_pages_changed(rnd.event_id)


@transaction.atomic
def match_feature(*, match: Match, feature_table: str, by: Actor) -> Match:
    """Feature ``match`` at the feature table named ``feature_table`` (or rename its
    feature table). Returns the match.

    Raises InvalidInput (nothing changes) for an empty or unreadable name or one over
    40 characters, a bye or a late-entry loss, a player of the match who opted out
    (naming them), or a name another match of the round already has (naming its table);
    RoundStateError once the round is complete."""
    name = clean_name(feature_table, gettext("Feature table"))
    if len(name) > FEATURE_MAX:
        raise InvalidInput(
            gettext("A feature table's name has at most %(most)s characters.")
            % {"most": FEATURE_MAX}
        )
    m, players = _locked(match)
    rnd = m.round
    if rnd.status not in OPEN:
        raise RoundStateError(
            gettext("Round %(number)s is complete: its matches are no longer featured.")
            % {"number": rnd.number}
        )
    if m.table is None or m.outcome in (Outcome.BYE, Outcome.LOSS) or len(players) < 2:
        raise InvalidInput(
            gettext("A bye or a late-entry loss is not played: it cannot be featured.")
        )
    out = [p.player.name for p in players if p.feature_opt_out]
    if out:
        raise InvalidInput(
            gettext("%(names)s asked not to be featured: choose another match.")
            % {"names": ", ".join(out)}
        )
    other = Match.objects.filter(round=rnd, feature_table=name).exclude(pk=m.pk).first()
    if other is not None:
        raise InvalidInput(
            gettext("Table %(table)s is already featured as “%(name)s” this round.")
            % {"table": other.table, "name": name}
        )
    if m.feature_table == name:
        return m
    old = m.feature_table
    m.feature_table = name
    m.save(update_fields=["feature_table"])
    audit_log(
        event=rnd.event,
        by=by,
        action="match.feature",
        obj=m,
        round_number=rnd.number,
        old={"table": m.table, "feature_table": old},
        new={"table": m.table, "feature_table": name},
    )
    _changed(rnd)
    return m


@transaction.atomic
def match_unfeature(*, match: Match, by: Actor, reason: str = "") -> Match:
    """Take ``match`` off its feature table (nothing happens when it is not featured).
    Audited with ``reason``; returns the match."""
    m, _ = _locked(match)
    if not m.feature_table:
        return m
    old = m.feature_table
    m.feature_table = ""
    m.save(update_fields=["feature_table"])
    audit_log(
        event=m.round.event,
        by=by,
        action="match.unfeature",
        obj=m,
        round_number=m.round.number,
        old={"table": m.table, "feature_table": old},
        new={"table": m.table, "feature_table": ""},
        reason=reason,
    )
    _changed(m.round)
    return m


@transaction.atomic
def registration_feature_opt_out(
    *, registration: Registration, opt_out: bool, by: Actor
) -> list[Match]:
    """The player's choice whether their matches may be featured (``opt_out`` True: never
    feature me). Opting out also takes the feature off their matches of rounds not yet
    complete (each audited ``match.unfeature``). Audited when it changes; returns the
    matches taken off a feature table."""
    featured = Match.objects.filter(
        seats__registration=registration,
        round__status__in=OPEN,
        round__event_id=registration.event_id,
    ).exclude(feature_table="")
    # The player and everyone at their featured tables, in one order (as ``_locked``).
    ids = {registration.pk, *featured.values_list("seats__registration", flat=True)}
    list(Registration.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
    reg = Registration.objects.get(pk=registration.pk)
    if reg.feature_opt_out == opt_out:
        return []
    reg.feature_opt_out = opt_out
    reg.save(update_fields=["feature_opt_out"])
    audit_log(
        event=reg.event,
        by=by,
        action="registration.feature_opt_out",
        obj=reg,
        old={"feature_opt_out": not opt_out},
        new={"feature_opt_out": opt_out},
    )
    if not opt_out:
        return []
    return [
        match_unfeature(match=m, by=by, reason="the player asked not to be featured")
        for m in featured.order_by("pk")
    ]
