"""One result value for every table, and the per-format rules that read it.

A :class:`Result` says what happened at a table whatever its size: an outcome (``win``,
``draw``, ``double-loss``; empty when it follows from the rest), the winner's
registration id, the game record of a best-of-3 ruleset (seat order: wins of seat 1,
wins of seat 2, drawn games; M-MATCH-1) and the players who conceded a pod's draw
(MP-PTS-1). The slip, self-report and correction services (``results``, ``reports``,
``corrections``) take it for every table; what differs between a head-to-head match and
a 3–5 player pod — which results are possible, how a result is written in messages and
in the audit trail, the match points of each seat, when players agree — is a
:class:`ResultFormat`, chosen from the seat count in one place, :func:`result_format`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext as _

from rulesets import get_ruleset
from standings.engine.games import GameRecordError

from ..errors import InvalidInput
from ..models import Match, MatchSeat, Outcome, Registration, SelfReport
from ..selectors.names import registration_name, seat_name
from ..selectors.rounds import result_games

SLIP_OUTCOMES = (Outcome.WIN, Outcome.DRAW, Outcome.DOUBLE_LOSS)
ELIMINATION = ("top-cut", "single-elimination")


@dataclass(frozen=True)
class Result:
    """A table's result, the same shape for a head-to-head match and a pod.

    outcome: ``win``, ``draw`` or ``double-loss`` (R-6), or "" when it follows from the
    rest (a pod: a winner or a draw; a best-of-3 match: the games). winner_id: the
    winner's registration id (a win only). games: ``(wins of seat 1, wins of seat 2,
    drawn games)`` for best-of-3 rulesets (M-MATCH-1), else None. conceded: registration
    ids of pod players who conceded or took a match-loss penalty and share no draw
    (MP-PTS-1); in a player's own report, their own id when they say they conceded.
    The value is only a shape: the table's format decides whether it is possible.
    """

    outcome: str = ""
    winner_id: int | None = None
    games: tuple[int, ...] | None = None
    conceded: frozenset[int] = frozenset()

    @classmethod
    def of(
        cls,
        outcome: str = "",
        winner: Registration | int | None = None,
        games: Sequence[int] | None = None,
        conceded: Iterable[int] = (),
    ) -> Result:
        """A result from loose parts: ``winner`` a Registration or its id, ``games`` any
        sequence (kept in seat order), ``conceded`` any iterable of registration ids."""
        winner_id = winner.pk if isinstance(winner, Registration) else winner
        return cls(
            outcome=str(outcome or ""),
            winner_id=winner_id,
            games=tuple(games) if games is not None else None,
            conceded=frozenset(conceded),
        )

    @classmethod
    def win(cls, winner: Registration | int, games: Sequence[int] | None = None) -> Result:
        """``winner`` won (with the game record of a best-of-3 ruleset)."""
        return cls.of(Outcome.WIN, winner, games)

    @classmethod
    def draw(cls, conceded: Iterable[int] = (), games: Sequence[int] | None = None) -> Result:
        """A draw (a tie), shared in a pod by every player not in ``conceded``."""
        return cls.of(Outcome.DRAW, None, games, conceded)

    @property
    def games_list(self) -> list[int] | None:
        """The game record as stored (a JSON list), or None."""
        return list(self.games) if self.games is not None else None


def result_json(
    outcome: str, winner: Registration | None, games: list[int] | None = None
) -> dict[str, Any]:
    """A result as stored in the audit trail: ``{"outcome", "winner": external id}``,
    plus ``"games"`` (seat order) when it has a game record (M-MATCH-1)."""
    data = {"outcome": outcome, "winner": winner.external_id if winner else None}
    return data | ({"games": games} if games is not None else {})


def match_result_text(match: Match) -> str:
    """A short human description of a match's result ("Ash wins", "tie" or "draw" as the
    ruleset calls it, "not reported"), with its game record when it has one: the
    winner's games first ("Ash wins 2-1-0" whichever seat Ash has), a drawn match's as
    recorded (``selectors.rounds.result_games``; with a record, one query for the seats
    unless prefetched)."""
    if match.outcome == Outcome.WIN and match.winner is not None:
        name = _("%(name)s wins") % {"name": registration_name(match.winner)}
        if not match.games:
            return name
        order = [s.registration_id for s in sorted(match.seats.all(), key=lambda s: s.seat)]
        seat = order.index(match.winner_id) if match.winner_id in order else None
        return f"{name} {result_games(match.games, seat)}"
    games = f" {result_games(match.games, None)}" if match.games else ""
    if match.outcome == Outcome.DRAW:
        return gettext(match.round.event.rules.draw_word or "Draw").lower() + games
    return Outcome(match.outcome).label.lower()


def pod_result_text(outcome: str, winner_name: str | None, conceded: Iterable[str]) -> str:
    """A pod's result as the audit trail keeps it: "Ash wins", "draw", "draw (Brock
    conceded)" or "not reported"."""
    if outcome == Outcome.WIN and winner_name:
        return f"{winner_name} wins"
    if outcome == Outcome.DRAW:
        names = sorted(conceded)
        return f"draw ({', '.join(names)} conceded)" if names else "draw"
    return Outcome(outcome).label.lower()


def engine_message(error: ValueError) -> str:
    """An engine's refusal in the visitor's language: a :class:`GameRecordError` carries its
    English template (in the catalogue) and values; any other error is shown as raised."""
    if isinstance(error, GameRecordError):
        return gettext(error.template) % error.params
    return str(error)


def games_text(games: Sequence[int] | None) -> str:
    """A reported game record, the winner's games first ("2-1-0"), or ""."""
    if not games:
        return ""
    return f"{max(games[0], games[1])}-{min(games[0], games[1])}-{games[2]}"


def _registrations(seats: list[MatchSeat]) -> dict[int, Registration]:
    return {s.registration_id: s.registration for s in seats}


class ResultFormat(ABC):
    """What differs between table formats; one instance per format (:func:`result_format`).

    Every method takes the locked match and its seats (seat order, registrations loaded);
    none writes to the database except :meth:`apply` and :meth:`keep_report` (fields on
    the given objects, saved by the caller or here as documented).
    """

    #: The format's name: ``head-to-head`` or ``pod``.
    name = ""
    #: A correction that moves a player's match points rebuilds the public pages even
    #: when no later round is public (pods: MP-PAIR-1 seats by standing).
    refresh_when_points_move = False
    #: Reasons written on the audit row when agreeing reports record a result.
    agreed_reason = ""
    accepted_reason = ""

    @abstractmethod
    def checked(self, m: Match, seats: list[MatchSeat], result: Result) -> Result:
        """The result a staff entry records: complete (outcome derived) and possible for
        this table under the event's ruleset; raises InvalidInput with the reason."""

    @abstractmethod
    def current(self, m: Match, seats: list[MatchSeat]) -> Result:
        """The table's recorded result, comparable with :meth:`checked`'s."""

    @abstractmethod
    def text(self, m: Match, seats: list[MatchSeat]) -> str:
        """The recorded result in the words of a refusal ("This … was just recorded as")."""

    @abstractmethod
    def conflict(self, text: str) -> str:
        """The refusal of a stale staff form, naming the recorded result ``text``."""

    @abstractmethod
    def audit_values(self, m: Match, seats: list[MatchSeat], new: Result) -> tuple[dict, dict]:
        """The ``old`` and ``new`` of the ``result.enter``/``result.correct`` audit row,
        computed before :meth:`apply`."""

    def apply(self, m: Match, seats: list[MatchSeat], new: Result) -> list[str]:
        """Set the result on ``m`` (and on the seats) without saving ``m``; returns the
        match fields to save. Seats are saved here."""
        m.outcome = new.outcome
        m.winner = _registrations(seats).get(new.winner_id) if new.winner_id else None
        return ["outcome", "winner"]

    @abstractmethod
    def override_values(self, m: Match, differing: list[SelfReport]) -> tuple[dict, dict]:
        """The ``old`` (each overridden player's report, by external id) and ``new`` of a
        ``report.override`` audit row."""

    @abstractmethod
    def points(self, m: Match, seats: list[MatchSeat]) -> dict[int, int]:
        """``{registration id: match points}`` the recorded result gives each seat; a
        correction marks later pairings of the players whose points it changed (P-SW-9)."""

    # Self-reports (P-POST-3): what a player says, and when the players agree.

    @abstractmethod
    def report_checked(
        self, m: Match, seats: list[MatchSeat], registration: Registration, result: Result
    ) -> Result:
        """What ``registration`` reports, complete and possible; raises InvalidInput."""

    @abstractmethod
    def report_value(self, report: SelfReport, seat: MatchSeat) -> Result:
        """A stored report as :meth:`report_checked` would give it."""

    @abstractmethod
    def report_json(
        self, value: Result, seats: list[MatchSeat], registration: Registration
    ) -> dict:
        """A report in the ``report.submit``/``report.change`` audit row."""

    def keep_report(
        self, report: SelfReport, seats: list[MatchSeat], seat: MatchSeat, value: Result
    ) -> None:
        """Set ``value`` on the player's (unsaved) report; pods keep "I conceded" on the
        player's ``seat`` (saved here)."""
        report.outcome = value.outcome
        report.winner = _registrations(seats).get(value.winner_id) if value.winner_id else None
        report.games = value.games_list

    @abstractmethod
    def matches_record(self, m: Match, seat: MatchSeat, value: Result) -> bool:
        """The player's report says what is already recorded."""

    @abstractmethod
    def recorded_conflict(self, m: Match, seats: list[MatchSeat]) -> tuple[str, str]:
        """(message, current text) refusing a report of a table recorded otherwise."""

    @abstractmethod
    def confirmed_conflict(
        self, seats: list[MatchSeat], mine: SelfReport, draw_word: str
    ) -> tuple[str, str]:
        """(message, current text) refusing a change once every player agreed."""

    @abstractmethod
    def agreed_result(self, seats: list[MatchSeat], report: SelfReport) -> Result:
        """The result to record from the report every player agreed on."""

    @abstractmethod
    def not_agreed(self, m: Match) -> str:
        """The refusal of a staff click on reports that do not all agree."""


class HeadToHead(ResultFormat):
    """Two players: a win, a draw (where the ruleset has ties, never in elimination) or a
    double loss (R-6); best-of-3 rulesets record the games (M-MATCH-1, M-SE-2)."""

    name = "head-to-head"
    agreed_reason = "Both players reported this result."
    accepted_reason = "Both players reported this result; accepted by staff."

    def checked(self, m: Match, seats: list[MatchSeat], result: Result) -> Result:
        if result.conceded:
            raise InvalidInput(gettext("Only players of a pod concede a share of a draw."))
        outcome, winner_id, games = self._games_result(m, seats, result)
        self._validate(m, seats, outcome, winner_id)
        return Result(outcome, winner_id, tuple(games) if games is not None else None)

    def _games_result(
        self, m: Match, seats: list[MatchSeat], result: Result
    ) -> tuple[str, int | None, list[int] | None]:
        """The slip's (outcome, winner id, games to store) under the event's ruleset.

        Best-of-3 rulesets (``Ruleset.game_record``): a win or draw needs games; outcome
        and winner are derived from them (M-MATCH-1: 2-0, 2-1, 1-0-2 win; 1-1-1, 0-0-3
        draw; in a best-of-1 event 1-0 win, 0-0-1 draw) and, when also given, must agree. Impossible records (3-0, a draw in
        elimination, M-SE-2) raise InvalidInput. Other rulesets take no games and keep
        what is stored (e.g. imported records).
        """
        ruleset = get_ruleset(m.round.event.ruleset)
        outcome, winner_id = result.outcome, result.winner_id
        if not ruleset.game_record:
            if result.games is not None:
                raise InvalidInput(
                    gettext("The %(rules)s rules record match results, not games.")
                    % {"rules": ruleset.label}
                )
            return outcome, winner_id, m.games
        if result.games is None:
            if outcome in (Outcome.WIN, Outcome.DRAW):
                raise InvalidInput(gettext("Enter the game score: these rules record games."))
            return outcome, winner_id, None
        values = list(result.games)
        if len(values) != 3 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values
        ):
            raise InvalidInput(
                gettext("A game score is three whole numbers: wins, wins, drawn games.")
            )
        if outcome == Outcome.DOUBLE_LOSS:
            raise InvalidInput(gettext("A double loss has no game score."))
        try:
            verdict, index = ruleset.game_verdict(
                (values[0], values[1], values[2]),
                elimination=m.round.phase in ELIMINATION,
                options=m.round.event.options,  # best-of-1 or best-of-3 (match_length)
            )
        except ValueError as e:
            raise InvalidInput(
                gettext("Impossible game score %(problem)s. Nothing was recorded.")
                % {"problem": engine_message(e)}
            ) from None
        derived = seats[index].registration_id if index is not None and len(seats) == 2 else None
        if outcome and (outcome, winner_id) != (verdict, derived):
            raise InvalidInput(
                gettext("The game score %(score)s does not give that result.")
                % {"score": "-".join(map(str, values))}
            )
        return verdict, derived, values

    def _validate(
        self, m: Match, seats: list[MatchSeat], outcome: str, winner_id: int | None
    ) -> None:
        """Raise InvalidInput unless outcome/winner is a possible result of this match
        under the event's ruleset (R-6; no tie in elimination, P-SE)."""
        if outcome not in SLIP_OUTCOMES:
            raise InvalidInput(
                gettext("%(outcome)r is not a match result; use win, draw or double-loss.")
                % {"outcome": outcome}
            )
        seated = {s.registration_id for s in seats}
        if len(seated) != 2:
            raise InvalidInput(
                gettext("Only head-to-head matches take a match slip; a bye needs none.")
            )
        if outcome == Outcome.WIN and winner_id not in seated:
            raise InvalidInput(gettext("The winner must be one of the two players at this table."))
        if outcome != Outcome.WIN and winner_id is not None:
            raise InvalidInput(gettext("Only a win has a winner."))
        ruleset = get_ruleset(m.round.event.ruleset)
        if outcome == Outcome.DRAW and not ruleset.allows_ties:
            raise InvalidInput(
                gettext("Ties are not possible under the %(rules)s rules.")
                % {"rules": ruleset.label}
            )
        if outcome == Outcome.DRAW and m.round.phase in ELIMINATION:
            word = gettext(ruleset.draw_word).lower()
            raise InvalidInput(
                gettext("A single-elimination match cannot end in a %(word)s; enter the winner.")
                % {"word": word}
            )

    def current(self, m: Match, seats: list[MatchSeat]) -> Result:
        return Result(m.outcome, m.winner_id, tuple(m.games) if m.games is not None else None)

    def text(self, m: Match, seats: list[MatchSeat]) -> str:
        return match_result_text(m)

    def conflict(self, text: str) -> str:
        return gettext("This match was just recorded as %(result)s.") % {"result": text}

    def audit_values(self, m: Match, seats: list[MatchSeat], new: Result) -> tuple[dict, dict]:
        winner = _registrations(seats).get(new.winner_id) if new.winner_id else None
        old = result_json(m.outcome, m.winner)
        if m.games or new.games:
            old["games"] = m.games
        games = {"games": new.games_list} if "games" in old else {}
        return old, result_json(new.outcome, winner) | games

    def apply(self, m: Match, seats: list[MatchSeat], new: Result) -> list[str]:
        fields = super().apply(m, seats, new)
        m.games = new.games_list
        return [*fields, "games"]

    def override_values(self, m: Match, differing: list[SelfReport]) -> tuple[dict, dict]:
        old = {
            r.registration.external_id: result_json(r.outcome, r.winner, r.games) for r in differing
        }
        return old, result_json(m.outcome, m.winner, m.games)

    def points(self, m: Match, seats: list[MatchSeat]) -> dict[int, int]:
        ruleset = get_ruleset(m.round.event.ruleset)

        def of(reg_id: int) -> int:
            if m.outcome == Outcome.WIN:
                return ruleset.points_win if m.winner_id == reg_id else ruleset.points_loss
            return ruleset.points_tie if m.outcome == Outcome.DRAW else 0

        return {s.registration_id: of(s.registration_id) for s in seats}

    def report_checked(
        self, m: Match, seats: list[MatchSeat], registration: Registration, result: Result
    ) -> Result:
        """Through the slip validator: best-of-3 rulesets derive the result from the
        games and refuse impossible ones (M-MATCH-1, M-SE-2); others take no games."""
        value = self.checked(m, seats, result)
        if not get_ruleset(m.round.event.ruleset).game_record:
            value = Result(value.outcome, value.winner_id)
        return value

    def report_value(self, report: SelfReport, seat: MatchSeat) -> Result:
        games = tuple(report.games) if report.games is not None else None
        return Result(report.outcome, report.winner_id, games)

    def report_json(
        self, value: Result, seats: list[MatchSeat], registration: Registration
    ) -> dict:
        winner = _registrations(seats).get(value.winner_id) if value.winner_id else None
        return result_json(value.outcome, winner, value.games_list)

    def matches_record(self, m: Match, seat: MatchSeat, value: Result) -> bool:
        games = m.games if value.games is not None else None
        return (m.outcome, m.winner_id, games) == (value.outcome, value.winner_id, value.games_list)

    def recorded_conflict(self, m: Match, seats: list[MatchSeat]) -> tuple[str, str]:
        text = match_result_text(m)
        return (
            gettext("This match was just recorded as %(text)s. Ask a judge if that is wrong.")
            % {"text": text},
            text,
        )

    def confirmed_conflict(
        self, seats: list[MatchSeat], mine: SelfReport, draw_word: str
    ) -> tuple[str, str]:
        score = f" {games_text(mine.games)}" if mine.games else ""
        if mine.winner is not None:
            said = f"{registration_name(mine.winner)} wins{score}"
        else:
            said = (draw_word.lower() if mine.outcome == "draw" else "double loss") + score
        return (
            gettext("Your opponent confirmed your report (%(said)s): ask a judge to change it.")
            % {"said": said},
            said,
        )

    def agreed_result(self, seats: list[MatchSeat], report: SelfReport) -> Result:
        return Result.of(report.outcome, report.winner_id, report.games)

    def not_agreed(self, m: Match) -> str:
        return gettext(
            "The players of table %(table)s have not reported the same result: resolve it as a dispute."
        ) % {"table": m.table}


class Pod(ResultFormat):
    """A multiplayer pod of 3–5 players: a winner, or a draw shared by the players who did
    not concede (MP-PTS-1; in a top cut the best Swiss seed still in a drawn pod goes
    on, MP-SE-2, applied when the next round is paired)."""

    name = "pod"
    refresh_when_points_move = True
    agreed_reason = "Every player of the pod reported this result."
    accepted_reason = "Every player of the pod reported this result; accepted by staff."

    def _outcome(self, result: Result) -> str:
        """A winner means a win and no winner a draw; a different outcome is refused."""
        outcome = Outcome.WIN if result.winner_id is not None else Outcome.DRAW
        if result.outcome and result.outcome != outcome:
            raise InvalidInput(gettext("A pod ends with a winner or a draw."))
        if result.games is not None:
            raise InvalidInput(gettext("A pod's result has no game score."))
        return outcome

    def checked(self, m: Match, seats: list[MatchSeat], result: Result) -> Result:
        """MP-PTS-1: the winner plays in the pod and did not concede; conceded players
        are players of the pod; a draw needs someone left to share it."""
        seated = {s.registration_id for s in seats}
        if not 3 <= len(seated) <= 5:
            raise InvalidInput(gettext("Only a pod of 3 to 5 players takes a pod slip."))
        outcome = self._outcome(result)
        winner, conceded = result.winner_id, result.conceded
        if winner is not None and winner not in seated:
            raise InvalidInput(gettext("The winner must be one of the players of this pod."))
        if not conceded <= seated:
            raise InvalidInput(gettext("Only players of this pod can concede."))
        if winner is not None and winner in conceded:
            raise InvalidInput(gettext("A player who conceded cannot win the pod."))
        if winner is None and conceded == seated:
            raise InvalidInput(gettext("Everyone conceded: nobody is left to share the draw."))
        return Result(outcome, winner, None, conceded)

    def current(self, m: Match, seats: list[MatchSeat]) -> Result:
        conceded = frozenset(s.registration_id for s in seats if s.conceded)
        return Result(m.outcome, m.winner_id, None, conceded)

    def _describe(self, value: Result, seats: list[MatchSeat]) -> str:
        names = {s.registration_id: seat_name(s) for s in seats}
        conceded = [names[s.registration_id] for s in seats if s.registration_id in value.conceded]
        return pod_result_text(value.outcome, names.get(value.winner_id or 0), conceded)

    def text(self, m: Match, seats: list[MatchSeat]) -> str:
        return self._describe(self.current(m, seats), seats)

    def conflict(self, text: str) -> str:
        return gettext("This pod was just recorded as %(text)s.") % {"text": text}

    def audit_values(self, m: Match, seats: list[MatchSeat], new: Result) -> tuple[dict, dict]:
        return {"result": self.text(m, seats)}, {"result": self._describe(new, seats)}

    def apply(self, m: Match, seats: list[MatchSeat], new: Result) -> list[str]:
        fields = super().apply(m, seats, new)
        for s in seats:
            s.conceded = s.registration_id in new.conceded
        MatchSeat.objects.bulk_update(seats, ["conceded"])
        return fields

    def override_values(self, m: Match, differing: list[SelfReport]) -> tuple[dict, dict]:
        old = {r.registration.external_id: r.outcome for r in differing}
        return old, {"outcome": m.outcome, "winner": m.winner_id}

    def points(self, m: Match, seats: list[MatchSeat]) -> dict[int, int]:
        """MP-PTS-1: ``2n − 1`` (per the ruleset) for the winner, 1 for each player
        sharing a draw, 0 for a player who conceded it."""
        if m.outcome == Outcome.WIN:
            event = m.round.event
            per_win = event.rules.points_per_win(event.options)
            return {s.registration_id: per_win * (s.registration_id == m.winner_id) for s in seats}
        draw = m.outcome == Outcome.DRAW
        return {s.registration_id: int(draw and not s.conceded) for s in seats}

    def report_checked(
        self, m: Match, seats: list[MatchSeat], registration: Registration, result: Result
    ) -> Result:
        """The winner, or a draw and whether the player themself conceded (a concession
        counts only for a draw; nobody reports another player's)."""
        outcome = self._outcome(result)
        if result.winner_id is not None and result.winner_id not in {
            s.registration_id for s in seats
        }:
            raise InvalidInput(gettext("The winner must be one of the players of your pod."))
        if result.conceded - {registration.pk}:
            raise InvalidInput(gettext("You can only report your own concession."))
        conceded = registration.pk in result.conceded
        if conceded and result.winner_id == registration.pk:
            raise InvalidInput(gettext("You cannot win the pod and concede it."))
        mine = (
            frozenset({registration.pk}) if conceded and result.winner_id is None else frozenset()
        )
        return Result(outcome, result.winner_id, None, mine)

    def report_value(self, report: SelfReport, seat: MatchSeat) -> Result:
        mine = frozenset({seat.registration_id}) if seat.conceded else frozenset()
        return Result(report.outcome, report.winner_id, None, mine)

    def report_json(
        self, value: Result, seats: list[MatchSeat], registration: Registration
    ) -> dict:
        winner = _registrations(seats).get(value.winner_id) if value.winner_id else None
        return {
            "outcome": value.outcome,
            "winner": winner.external_id if winner else None,
            "conceded": registration.pk in value.conceded,
        }

    def keep_report(
        self, report: SelfReport, seats: list[MatchSeat], seat: MatchSeat, value: Result
    ) -> None:
        super().keep_report(report, seats, seat, value)
        seat.conceded = seat.registration_id in value.conceded
        seat.save(update_fields=["conceded"])

    def matches_record(self, m: Match, seat: MatchSeat, value: Result) -> bool:
        said = (value.outcome, value.winner_id, seat.registration_id in value.conceded)
        return (m.outcome, m.winner_id, seat.conceded) == said

    def recorded_conflict(self, m: Match, seats: list[MatchSeat]) -> tuple[str, str]:
        text = self.text(m, seats)
        return (
            gettext("This pod was just recorded as %(text)s. Ask a judge if that is wrong.")
            % {"text": text},
            text,
        )

    def confirmed_conflict(
        self, seats: list[MatchSeat], mine: SelfReport, draw_word: str
    ) -> tuple[str, str]:
        conceded = frozenset(s.registration_id for s in seats if s.conceded)
        said = self._describe(Result(mine.outcome, mine.winner_id, None, conceded), seats)
        return (
            gettext("Every player of your pod reported the same result: ask a judge to change it."),
            said,
        )

    def agreed_result(self, seats: list[MatchSeat], report: SelfReport) -> Result:
        """The players who said they conceded share no draw (MP-PTS-1)."""
        if report.winner_id is not None:
            return Result(Outcome.WIN, report.winner_id)
        return Result.draw(s.registration_id for s in seats if s.conceded)

    def not_agreed(self, m: Match) -> str:
        return gettext(
            "The players of table %(table)s have not all reported the same result: resolve it as a dispute."
        ) % {"table": m.table}


HEAD_TO_HEAD, POD = HeadToHead(), Pod()


def result_format(seats: Sequence[Any]) -> ResultFormat:
    """The format of a table from its seats: three or more players are a pod (MP-PTS-1),
    otherwise a head-to-head match (whose rules refuse a bye's single seat). The one
    place that tells the formats apart."""
    return POD if len(seats) > 2 else HEAD_TO_HEAD


def seats_of(m: Match) -> list[MatchSeat]:
    """A match's seats in seat order, registrations and players loaded."""
    return list(m.seats.select_related("registration__player").order_by("seat"))
