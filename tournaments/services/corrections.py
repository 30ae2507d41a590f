"""Judges' corrections of recorded results (P-POST-4) and what they do to rounds that
are already paired (P-SW-9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from rulesets import get_ruleset

from ..errors import InvalidInput, RecordLocked
from ..models import Match, Outcome, Phase, Registration, Round, RoundStatus
from ..public_pages import public_pages_changed
from .audit import audit_log
from .results import correction_window_open, locked_message, slip_enter

SWISS_PHASES = (Phase.SWISS, Phase.SWISS_DAY2)


@dataclass(frozen=True)
class Correction:
    """What a correction did: the match as now recorded, the later pairings it marked
    (``Match.bracket_changed``) and the round that can still be re-paired (not started)."""

    match: Match
    marked: tuple[Match, ...]
    repairable: Round | None


def _points(outcome: str, winner_id: int | None, reg_id: int, event_ruleset: str) -> int:
    ruleset = get_ruleset(event_ruleset)
    if outcome == Outcome.WIN:
        return ruleset.points_win if winner_id == reg_id else ruleset.points_loss
    return ruleset.points_tie if outcome == Outcome.DRAW else 0


def _moved_players(m: Match, old: tuple[str, int | None]) -> set[int]:
    """Players whose match points, and so whose bracket (P-SW-2), the change moved."""
    ruleset = m.round.event.ruleset
    return {
        s.registration_id
        for s in m.seats.all()
        if _points(*old, s.registration_id, ruleset)
        != _points(m.outcome, m.winner_id, s.registration_id, ruleset)
    }


def mark_changed_brackets(
    *,
    match: Match,
    old: tuple[str, int | None],
    by: Any,
    reason: str,
    moved: set[int] | None = None,
) -> list[Match]:
    """Flag the pairings of later Swiss rounds of the pod that seat a player whose bracket
    the change of ``match`` from ``old`` (outcome, winner id) moved; audit each flag.
    ``moved``: the players whose match points changed, when the caller knows better
    (pods: a change of who conceded a draw, ``pod_results``). Returns the newly flagged
    matches. Elimination rounds have no brackets."""
    rnd = match.round
    moved = _moved_players(match, old) if moved is None else moved
    if not moved or rnd.phase not in SWISS_PHASES:
        return []
    later = (
        Match.objects.filter(
            round__event_id=rnd.event_id,
            round__pod=rnd.pod,
            round__phase__in=SWISS_PHASES,
            round__number__gt=rnd.number,
            seats__registration_id__in=moved,
            bracket_changed=False,
        )
        .select_related("round")
        .distinct()
    )
    marked = []
    for m in later:
        m.bracket_changed = True
        m.save(update_fields=["bracket_changed"])
        audit_log(
            event=rnd.event,
            by=by,
            action="pairing.bracket_changed",
            obj=m,
            round_number=m.round.number,
            old={"bracket_changed": False},
            new={"bracket_changed": True},
            reason=f"Round {rnd.number} table {match.table} corrected: {reason}",
        )
        marked.append(m)
    return marked


def correction_target(match: Match, reason: str) -> tuple[Match, str]:
    """Lock a recorded match for a correction and check what every correction needs: a
    reason, a result to correct, and the P-POST-4 window still open. Returns the locked
    match and the stripped reason; raises InvalidInput or RecordLocked."""
    reason = reason.strip()
    if not reason:
        raise InvalidInput(gettext("A correction needs a reason: say what was wrong."))
    m = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event")
        .get(pk=match.pk)
    )
    if not m.reported:
        raise InvalidInput(
            gettext("Table %(table)s has no result yet: enter its slip first.") % {"table": m.table}
        )
    if not correction_window_open(m.round):
        raise RecordLocked(locked_message(m.round))
    return m, reason


def refresh_public_pairings(event_id: int) -> None:
    """Rebuild the public pages after commit: the pairings show each player's record
    before the round, which a correction changes."""
    public_pages_changed(event_id)


@transaction.atomic
def result_correct(
    *,
    match: Match,
    by: Any,
    reason: str,
    outcome: str = "",
    winner: Registration | None = None,
    version: int | None = None,
    games: tuple[int, int, int] | None = None,
) -> Correction:
    """Correct a recorded result within the P-POST-4 window, with a reason.

    The change goes through ``slip_enter`` (row lock, version check, audit row with
    old and new value and the reason; standings recomputed by a task when the round is
    complete). Later Swiss pairings of the pod whose brackets changed are marked, and
    the round is returned as ``repairable`` when it has not started (P-SW-9, P-POST-2).
    games: the corrected game record of a best-of-3 ruleset (M-MATCH-1; an impossible
    one such as 3-0 is refused and nothing changes).
    Raises InvalidInput (no reason, no result yet, impossible games), RecordLocked (window closed, the
    rule quoted), ResultConflict (stale version).
    """
    m, reason = correction_target(match, reason)
    old = (m.outcome, m.winner_id)
    m = slip_enter(
        match=m,
        outcome=outcome,
        winner=winner,
        version=version,
        reason=reason,
        by=by,
        games=games,
    )
    marked = mark_changed_brackets(match=m, old=old, by=by, reason=reason)
    return Correction(m, tuple(marked), _next_round_after(m.round))


def _next_round_after(rnd: Round) -> Round | None:
    """Redraw the public pairings of a published next round (they show records), and
    return that round when it has not started and has marked pairings (P-SW-9)."""
    later = Round.objects.filter(event_id=rnd.event_id, pod=rnd.pod, number=rnd.number + 1).first()
    if later is None:
        return None
    if later.is_public:
        refresh_public_pairings(rnd.event_id)
    unstarted = later.status in (RoundStatus.PAIRED, RoundStatus.PUBLISHED)
    return later if unstarted and later.matches.filter(bracket_changed=True).exists() else None
