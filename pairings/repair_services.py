"""Minimal re-pair of a paired round after a judge's correction (P-SW-9, P-POST-2).

A correction of round N (``tournaments.services.result_correct``) marks the pairings of
round N+1 whose players' brackets it changed (``Match.bracket_changed``). While that
round has not started, ``round_repair_preview`` shows what
``pairings.engine.repair.repair`` would change — only the tables needed for a valid
pairing — under the table numbers the hall will use (fixed seats kept,
``services.seating.repair_numbers``), and ``round_repair`` applies it: the changed
tables are replaced, every other table keeps its players and number, the marks are
cleared, and one audit row records the old and new tables, the engine's explanation and
the seed (I-1). Once the round has started its pairings are frozen and the repair is
refused.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from tournaments.actors import Actor
from tournaments.errors import InvalidInput, PairingRefused, RoundStateError
from tournaments.models import (
    Match,
    MatchSeat,
    Outcome,
    Phase,
    Registration,
    Round,
    RoundStatus,
    match_kind,
)
from tournaments.public_pages import public_pages_changed
from tournaments.services import audit_log, round_discard
from tournaments.services.seating import repair_numbers, seating_of

from .adapters import swiss_players_for_group
from .engine import errors as engine_errors
from .engine.repair import RepairResult, TableChange, repair
from .engine.types import Pairing, SwissPlayer
from .procedures.age_modified import is_age_modified
from .services import round_pair

REPAIRABLE = (RoundStatus.PAIRED, RoundStatus.PUBLISHED)


#: A changed table's number in the hall and its ``Match.seating``, by the engine's number.
HallNumbers = dict[int, tuple[int, str]]


@dataclass(frozen=True)
class RepairPreview:
    """A proposed repair: the engine's result, the seed that reproduces it, a
    fingerprint of the change (so applying it checks nothing moved meanwhile), the
    players' names by id for display, ``numbers`` (:data:`HallNumbers`: the numbers the
    applied re-pair gives the new tables, fixed seats kept, ``services.seating``) and
    ``tables``: the tables that change as the hall will number them (``TableChange``
    with the hall's number; the bye's ``table`` None), what the preview page shows."""

    round: Round
    result: RepairResult
    seed: int
    fingerprint: str
    names: dict[str, str]
    numbers: HallNumbers
    tables: tuple[TableChange, ...]


def players_before(rnd: Round) -> list[SwissPlayer]:
    """The active players of the round's pairing group with their Swiss record *before*
    this round (points, opponents, bye); the round being repaired does not count."""
    return swiss_players_for_group(rnd.event, rnd.group, before_round=rnd.number)


def _previous(rnd: Round) -> tuple[list[Pairing], set[str]]:
    """The round's pairings as the engine sees them, and the players of marked tables."""
    previous: list[Pairing] = []
    changed: set[str] = set()
    for m in rnd.matches.exclude(outcome=Outcome.LOSS).prefetch_related("seats"):
        players = tuple(str(s.registration_id) for s in sorted(m.seats.all(), key=lambda s: s.seat))
        previous.append(Pairing(m.table, players, m.why, m.pair_down, m.rematch))
        if m.bracket_changed:
            changed.update(players)
    return previous, changed


def _fingerprint(changes: tuple[TableChange, ...]) -> str:
    return ";".join(f"{c.table}:{','.join(c.old)}>{','.join(c.new)}" for c in changes)


def _hall_numbers(rnd: Round, result: RepairResult) -> HallNumbers:
    """The numbers the new tables of ``result`` take in the hall, by their engine number:
    a fixed-seat player back at their table, no other table at a fixed seat
    (``services.seating.repair_numbers``, two queries). Byes have none."""
    changed = {c.table for c in result.changed_tables}
    played = [p for p in result.pairings if p.table in changed and not p.is_bye]
    seated = repair_numbers(rnd, [(p.table, p.players) for p in played if p.table is not None])
    return {
        p.table: (seated.numbers[k], seating_of(seated, k))
        for k, p in enumerate(played)
        if p.table is not None
    }


def _in_hall(result: RepairResult, numbers: HallNumbers) -> tuple[TableChange, ...]:
    """The tables that change as the hall will number them: for each number, who sits
    there now and who after the re-pair (``numbers``); a number whose players stay the
    same is left out. In table order, the bye last."""
    old = {c.table: c.old for c in result.changed_tables}
    new: dict[int | None, tuple[str, ...]] = {}
    for c in result.changed_tables:
        if c.new:
            new[numbers[c.table][0] if c.table in numbers else c.table] = c.new
    tables = sorted(set(old) | set(new), key=lambda t: (t is None, t or 0))
    changes = (TableChange(t, old.get(t, ()), new.get(t, ())) for t in tables)
    return tuple(c for c in changes if c.old != c.new)


def round_repair_preview(*, round: Round, seed: int | None = None) -> RepairPreview:  # noqa: A002
    """Compute (without saving) the minimal re-pair of a round that has not started.
    Raises RoundStateError once it has started (P-POST-2), PairingRefused."""
    rnd = Round.objects.select_related("event", "group").get(pk=round.pk)
    if rnd.status not in REPAIRABLE or rnd.phase != Phase.SWISS:
        raise RoundStateError(
            f"Round {rnd.number} has started: its pairings are frozen."
            if rnd.status not in REPAIRABLE
            else "Only Swiss rounds are re-paired."
        )
    seed = secrets.randbits(48) if seed is None else seed
    previous, changed = _previous(rnd)
    names = dict(
        (str(pk), name)
        for pk, name in Registration.objects.filter(event=rnd.event).values_list(
            "pk", "player__name"
        )
    )
    try:
        result = repair(
            previous,
            players_before(rnd),
            changed,
            rng=random.Random(seed),
            age_modified=is_age_modified(rnd.group),
            names=names,
        )
    except engine_errors.PairingImpossible as e:
        raise PairingRefused(str(e)) from None
    # the numbers the applied re-pair uses, fixed seats kept: shown, fingerprinted, applied
    numbers = _hall_numbers(rnd, result)
    tables = _in_hall(result, numbers)
    return RepairPreview(rnd, result, seed, _fingerprint(tables), names, numbers, tables)


def _replace_tables(rnd: Round, result: RepairResult, numbers: HallNumbers) -> None:
    """Delete the matches of changed tables and create their new pairings, numbered as
    ``numbers`` (the preview's :func:`_hall_numbers`)."""
    changed = {c.table for c in result.changed_tables}
    old = [m for m in rnd.matches.all() if m.table in changed and m.outcome != Outcome.LOSS]
    Match.objects.filter(pk__in=[m.pk for m in old]).delete()  # seats go with them
    regs = Registration.objects.in_bulk([int(p) for c in result.changed_tables for p in c.new])
    for p in (p for p in result.pairings if p.table in changed):
        table, seating = numbers.get(p.table, (p.table, "")) if p.table is not None else (None, "")
        match = Match.objects.create(
            round=rnd,
            table=table,
            seating=seating,
            kind=match_kind(rnd.phase, Outcome.BYE if p.is_bye else Outcome.PENDING),
            outcome=Outcome.BYE if p.is_bye else Outcome.PENDING,
            why=p.why[:200],
            pair_down=p.pair_down,
            rematch=p.rematch,
        )
        MatchSeat.objects.bulk_create(
            MatchSeat(match=match, round=rnd, registration=regs[int(pid)], seat=n)
            for n, pid in enumerate(p.players, start=1)
        )


@transaction.atomic
def round_repair(*, round: Round, by: Actor, seed: int, fingerprint: str) -> RepairPreview:  # noqa: A002
    """Apply the previewed minimal re-pair (same ``seed``): only the changed tables are
    replaced; the marks are cleared; one audit row holds old and new tables, the seed
    and the explanation. Refused (RoundStateError) once the round started, and
    (InvalidInput) when the proposal no longer matches ``fingerprint``."""
    locked = Round.objects.select_for_update().get(pk=round.pk)  # start waits for us
    preview = round_repair_preview(round=locked, seed=seed)
    if preview.fingerprint != fingerprint:
        raise InvalidInput(
            gettext("The pairings or records changed since the preview: look at it again.")
        )
    rnd, result = preview.round, preview.result
    ext = dict(Registration.objects.filter(event=rnd.event).values_list("pk", "external_id"))

    def tables(side: str) -> list[Any]:  # as the hall numbers them, as the preview showed
        return [[c.table, [ext[int(p)] for p in getattr(c, side)]] for c in preview.tables]

    _replace_tables(rnd, result, preview.numbers)
    rnd.matches.filter(bracket_changed=True).update(bracket_changed=False)
    # The re-pair's explanation joins the round's notes ("Why these pairings").
    rnd.notes = [*rnd.notes, *(f"Re-paired: {w}" for w in result.why)]
    rnd.save(update_fields=["notes"])
    audit_log(
        event=rnd.event,
        by=by,
        action="round.repair",
        obj=rnd,
        round_number=rnd.number,
        old={"tables": tables("old")},
        new={"tables": tables("new"), "seed": seed},
        reason=" ".join(result.why),
    )
    if rnd.status == RoundStatus.PUBLISHED:
        public_pages_changed(rnd.event_id)
    return preview


@transaction.atomic
def pod_round_repair(*, round: Round, by: Actor, seed: int | None = None) -> Round:  # noqa: A002
    """Pair a Swiss round of pods again after a correction marked it (the P-SW-9 analogue
    for pods): MP-PAIR-1 fills pods top to bottom by standing, so a changed standing
    moves whole pods and the round is paired again from the corrected standings with a
    new stored seed; the old tables stay in the audit trail (``round_discard``).
    Raises RoundStateError once the round has started (P-POST-2), PairingRefused."""
    rnd = Round.objects.select_related("event").get(pk=round.pk)
    if rnd.phase != Phase.SWISS:
        raise PairingRefused(gettext("Only Swiss rounds of pods are paired again."))
    reason = "A correction changed the standings the pods were filled from."
    round_discard(round=rnd, by=by, reason=reason)
    (new,) = round_pair(event=rnd.event, group=rnd.group, by=by, seed=seed)
    return new
