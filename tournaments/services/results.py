"""Match slips: entering results (P-POST-3, P-POST-4, R-6).

``slip_enter`` is the one place a match result changes: staff slips, judges'
corrections (``corrections``), dispute resolutions and agreeing player reports
(``reports``) all end here, so the version check, the row lock, the P-POST-4 window and
the audit row apply to every path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from rulesets import get_ruleset
from standings.engine.games import GameRecordError

from ..errors import InvalidInput, RecordLocked, ResultConflict, RoundStateError
from ..models import Match, Outcome, Registration, Round, RoundStatus, SelfReport
from .audit import audit_log
from .rounds import round_complete_if_reported, standings_refresh_on_commit

SLIP_OUTCOMES = (Outcome.WIN, Outcome.DRAW, Outcome.DOUBLE_LOSS)
ELIMINATION = ("top-cut", "single-elimination")


def match_result_text(match: Match) -> str:
    """A short human description of a match's result ("Ash wins", "tie" or "draw" as the
    ruleset calls it, "not reported"), with its game record in seat order when it has one
    ("Ash wins 2-1-0")."""
    games = f" {'-'.join(map(str, match.games))}" if match.games else ""
    if match.outcome == Outcome.WIN and match.winner is not None:
        return _("%(name)s wins") % {"name": match.winner.player.name} + games
    if match.outcome == Outcome.DRAW:
        return gettext(match.round.event.rules.draw_word or "Draw").lower() + games
    return Outcome(match.outcome).label.lower()


def correction_window_open(rnd: Round) -> bool:
    """P-POST-4: a round's records lock once the second subsequent round is paired."""
    return not Round.objects.filter(
        event_id=rnd.event_id, pod=rnd.pod, number__gte=rnd.number + 2
    ).exists()


def locked_message(rnd: Round) -> str:
    """The refusal of a change outside the P-POST-4 window, the rule in plain words."""
    return gettext(
        "Round %(number)s is locked: a round's match records can no longer be altered "
        "once the second subsequent round has been paired."
    ) % {"number": rnd.number}


def result_json(
    outcome: str, winner: Registration | None, games: list[int] | None = None
) -> dict[str, Any]:
    """A result as stored in the audit trail: ``{"outcome", "winner": external id}``,
    plus ``"games"`` (seat order) when it has a game record (M-MATCH-1)."""
    data = {"outcome": outcome, "winner": winner.external_id if winner else None}
    return data | ({"games": games} if games is not None else {})


def _log_overrides(m: Match, by: Any, reason: str) -> None:
    """A staff entry always overrides the players' own reports: log each one it overrode."""
    if isinstance(by, Registration):
        return
    differing = [
        r
        for r in SelfReport.objects.filter(match=m).select_related("registration", "winner")
        if r.differs_from(m)
    ]
    if not differing:
        return
    audit_log(
        event=m.round.event,
        by=by,
        action="report.override",
        obj=m,
        round_number=m.round.number,
        old={
            r.registration.external_id: result_json(r.outcome, r.winner, r.games) for r in differing
        },
        new=result_json(m.outcome, m.winner, m.games),
        reason=reason or "A staff entry overrides the players' reports.",
    )


def validate_result(match: Match, outcome: str, winner: Registration | None) -> None:
    """Raise InvalidInput unless ``outcome``/``winner`` is a possible result of this
    head-to-head match under the event's ruleset (R-6; no tie in elimination, P-SE)."""
    if outcome not in SLIP_OUTCOMES:
        raise InvalidInput(
            gettext("%(outcome)r is not a match result; use win, draw or double-loss.")
            % {"outcome": outcome}
        )
    seated = {s.registration_id for s in match.seats.all()}
    if len(seated) != 2:
        raise InvalidInput(
            gettext("Only head-to-head matches take a match slip; a bye needs none.")
        )
    if outcome == Outcome.WIN and (winner is None or winner.pk not in seated):
        raise InvalidInput(gettext("The winner must be one of the two players at this table."))
    if outcome != Outcome.WIN and winner is not None:
        raise InvalidInput(gettext("Only a win has a winner."))
    ruleset = get_ruleset(match.round.event.ruleset)
    if outcome == Outcome.DRAW and not ruleset.allows_ties:
        raise InvalidInput(
            gettext("Ties are not possible under the %(rules)s rules.") % {"rules": ruleset.label}
        )
    if outcome == Outcome.DRAW and match.round.phase in ("top-cut", "single-elimination"):
        word = gettext(ruleset.draw_word).lower()
        raise InvalidInput(
            gettext("A single-elimination match cannot end in a %(word)s; enter the winner.")
            % {"word": word}
        )


def engine_message(error: ValueError) -> str:
    """An engine's refusal in the visitor's language: a :class:`GameRecordError` carries its
    English template (in the catalogue) and values; any other error is shown as raised."""
    if isinstance(error, GameRecordError):
        return gettext(error.template) % error.params
    return str(error)


def _games_list(games: Sequence[int]) -> list[int]:
    values = list(games)
    if len(values) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise InvalidInput(gettext("A game score is three whole numbers: wins, wins, drawn games."))
    return values


def games_result(
    m: Match, games: Sequence[int] | None, outcome: str, winner: Registration | None
) -> tuple[str, Registration | None, list[int] | None]:
    """The slip's (outcome, winner, games to store) under the event's ruleset.

    Best-of-3 rulesets (``Ruleset.game_record``): a win or draw needs ``games`` (wins of
    seat 1, wins of seat 2, drawn games); outcome and winner are derived from them
    (M-MATCH-1: 2-0, 2-1, 1-0-2 win; 1-1-1, 0-0-3 draw) and, when also given, must agree.
    Impossible records (3-0, a winner with fewer games, a draw in elimination, M-SE-2)
    raise InvalidInput with the reason. Other rulesets take no games and keep what is
    stored (e.g. imported records).
    """
    ruleset = get_ruleset(m.round.event.ruleset)
    if not ruleset.game_record:
        if games is not None:
            raise InvalidInput(
                gettext("The %(rules)s rules record match results, not games.")
                % {"rules": ruleset.label}
            )
        return outcome, winner, m.games
    if games is None:
        if outcome in (Outcome.WIN, Outcome.DRAW):
            raise InvalidInput(gettext("Enter the game score: these rules record games."))
        return outcome, winner, None
    values = _games_list(games)
    if outcome == Outcome.DOUBLE_LOSS:
        raise InvalidInput(gettext("A double loss has no game score."))
    try:
        verdict, index = ruleset.game_verdict(
            (values[0], values[1], values[2]), elimination=m.round.phase in ELIMINATION
        )
    except ValueError as e:
        raise InvalidInput(
            gettext("Impossible game score %(problem)s. Nothing was recorded.")
            % {"problem": engine_message(e)}
        ) from None
    seats = [s.registration for s in m.seats.select_related("registration").order_by("seat")]
    derived = seats[index] if index is not None and len(seats) == 2 else None
    if outcome and (outcome, winner) != (verdict, derived):
        raise InvalidInput(
            gettext("The game score %(score)s does not give that result.")
            % {"score": "-".join(map(str, values))}
        )
    return verdict, derived, values


def _unchanged(
    m: Match,
    outcome: str,
    winner: Registration | None,
    version: int | None,
    games: list[int] | None = None,
) -> bool:
    """True when the slip changes nothing (a double click, a resent form); raises
    ResultConflict when it was built on an older version and says something else."""
    same = m.outcome == outcome and m.winner_id == (winner.pk if winner else None)
    same = same and m.games == games
    if version is not None and version != m.version and not same:
        text = match_result_text(m)
        raise ResultConflict(
            gettext("This match was just recorded as %(result)s.") % {"result": text},
            current=text,
        )
    return same


def _record(
    m: Match,
    outcome: str,
    winner: Registration | None,
    by: Any,
    reason: str,
    games: list[int] | None = None,
) -> None:
    """Store the new result (and game record, seat order) with a new version and write
    its audit row."""
    old = result_json(m.outcome, m.winner)
    if m.games or games:
        old["games"] = m.games
    m.outcome, m.winner, m.games = outcome, winner, games
    m.version += 1
    m.reported_at = timezone.now()
    m.reported_by = by if getattr(by, "is_authenticated", False) else None
    m.save(update_fields=["outcome", "winner", "games", "version", "reported_at", "reported_by"])
    audit_log(
        event=m.round.event,
        by=by,
        action="result.correct" if old["outcome"] != "pending" else "result.enter",
        obj=m,
        round_number=m.round.number,
        old=old,
        new=result_json(outcome, winner) | ({"games": games} if "games" in old else {}),
        reason=reason,
    )


@transaction.atomic
def slip_enter(
    *,
    match: Match,
    by: Any,
    outcome: str = "",
    winner: Registration | None = None,
    version: int | None = None,
    reason: str = "",
    games: Sequence[int] | None = None,
) -> Match:
    """Record a match slip (or correct one) and return the updated match.

    outcome: ``win`` (with ``winner``), ``draw`` or ``double-loss`` (R-6).
    games: the game record ``(wins of seat 1, wins of seat 2, drawn games)`` that
    best-of-3 rulesets require for a win or draw; outcome and winner may then be left
    out, they follow from the games (``games_result``, M-MATCH-1, M-SE-2).
    version: the match version the form was rendered with. When it is stale and the
    stored result differs, ResultConflict is raised with the current value; when it is
    stale but equal (a double click, a resent form) nothing changes.
    by: a staff user, or the Registration of a player whose opponent just confirmed
    their report. The match row is locked (``select_for_update``) for the whole
    transaction, so two slips for one match are applied one after the other and the
    second sees the first's version.
    Raises RoundStateError before the round started, RecordLocked outside the P-POST-4
    window, InvalidInput for an impossible result. Writes an audit row, plus a
    ``report.override`` row when a staff entry differs from a player's own report.
    """
    m = (
        Match.objects.select_for_update(of=("self",))
        # Not the winner: after waiting for the lock, PostgreSQL re-reads the locked row
        # but not the joined ones, so a joined winner could be stale (seen as None).
        .select_related("round__event")
        .get(pk=match.pk)
    )
    rnd = m.round
    outcome, winner, stored = games_result(m, games, outcome, winner)
    validate_result(m, outcome, winner)
    if _unchanged(m, outcome, winner, version, stored):
        return m
    if rnd.status not in (RoundStatus.STARTED, RoundStatus.COMPLETE):
        raise RoundStateError(
            gettext("Round %(number)s has not started; start it before entering slips.")
            % {"number": rnd.number}
        )
    if m.reported and not correction_window_open(rnd):
        raise RecordLocked(locked_message(rnd))
    _record(m, outcome, winner, by, reason, stored)
    _log_overrides(m, by, reason)
    round_complete_if_reported(rnd, by=by)
    if rnd.status == RoundStatus.COMPLETE:  # standings change only with complete rounds
        standings_refresh_on_commit(rnd.event_id)
    return m
