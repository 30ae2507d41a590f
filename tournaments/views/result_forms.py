"""The result forms of every table format, chosen in one place.

The slip, correction, dispute and self-report views post to the same result services
(``services.slip_enter``, ``result_correct``, ``dispute_resolve``, ``report_submit``)
with a format-neutral ``services.Result``; what the page posts differs per table: a
pod's pressed winner (or ``draw``) and ticked concessions (MP-PTS-1), a best-of-3 game
score (M-MATCH-1) or a match's result choice (R-6). :func:`slip_form` (the round page's
slip), :func:`reason_form` (a correction or dispute decision) and :func:`report_form` (a
player's own report) pick the form from the table's format (``result_format``) and the
event's ruleset; :func:`result_args` and :func:`report_result` turn them into the
services' arguments, :func:`refusal` says in words why a posted form was refused.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rulesets import get_ruleset

from .. import services
from ..forms import (
    GameScoreForm,
    GameSlipForm,
    PlayerGameReportForm,
    PlayerReportForm,
    ReasonGameScoreForm,
    ReasonResultForm,
    ResultForm,
    form_field,
)
from ..models import Match, Outcome, Registration
from ..services.result_types import POD, result_format


class PodSlipForm(forms.Form):
    """A pod's slip (MP-PTS-1): the pressed button or chosen option (a seated player's
    registration id, or ``draw``), the players ticked as conceded (only a draw uses
    them) and the version shown."""

    winner = forms.CharField(max_length=20)
    conceded = forms.TypedMultipleChoiceField(coerce=int, required=False, choices=())
    version = forms.IntegerField(min_value=0)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ids = [str(s.registration_id) for s in match.seats.all()]
        form_field(self, "conceded", forms.TypedMultipleChoiceField).choices = [(i, i) for i in ids]
        self.seat_ids = ids

    def clean_winner(self) -> str:
        value = self.cleaned_data["winner"]
        if value != "draw" and value not in self.seat_ids:
            raise forms.ValidationError(_("Choose a winner of this pod, or draw."))
        return value

    def result(self) -> services.Result:
        """The winner, or a draw shared by the players not ticked as conceded."""
        choice = self.cleaned_data["winner"]
        if choice == "draw":
            return services.Result.draw(self.cleaned_data["conceded"])
        return services.Result.win(int(choice))


class ReasonPodSlipForm(PodSlipForm):
    """A pod's correction or dispute decision: :class:`PodSlipForm` with the reason
    written to the audit trail (P-POST-4)."""

    reason = forms.CharField(max_length=500, required=False, label=_("Reason"))


class PlayerPodReportForm(forms.Form):
    """A player's own report of their pod on their private link (MP-PTS-1): the pod
    (``match``), the pressed button (a seated player's registration id, or ``draw``)
    and ``conceded``, ticked when *they* conceded or took a match-loss penalty."""

    match = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.CharField(max_length=20)
    conceded = forms.BooleanField(required=False)

    def __init__(self, *args: Any, match: Match, registration: Registration, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.seat_ids = [str(s.registration_id) for s in match.seats.all()]
        self.registration = registration

    def clean_winner(self) -> str:
        value = self.cleaned_data["winner"]
        if value != "draw" and value not in self.seat_ids:
            raise forms.ValidationError(_("Choose the pod's winner, or Draw."))
        return value

    def result(self) -> services.Result:
        """The winner, or a draw with the player's own concession (if ticked)."""
        choice = self.cleaned_data["winner"]
        conceded = [self.registration.pk] if self.cleaned_data["conceded"] else []
        winner = None if choice == "draw" else int(choice)
        return services.Result.of(winner=winner, conceded=conceded)


ReasonForm = ReasonResultForm | ReasonGameScoreForm | ReasonPodSlipForm
SlipForm = ResultForm | GameSlipForm | PodSlipForm
ReportForm = PlayerReportForm | PlayerGameReportForm | PlayerPodReportForm


def _is_pod(match: Match) -> bool:
    return result_format(list(match.seats.all())) is POD


def _games(match: Match) -> bool:
    return bool(get_ruleset(match.round.event.ruleset).game_record)


def slip_form(match: Match, data: Any) -> SlipForm:
    """The round page's slip for ``match``: a pod's winner and concessions (MP-PTS-1),
    else the game score or double loss of a best-of-3 ruleset (M-MATCH-1, R-6), else a
    match's result buttons (R-6); each with the version shown."""
    if _is_pod(match):
        return PodSlipForm(data, match=match)
    if _games(match):
        return GameSlipForm(data)
    return ResultForm(data)


def reason_form(match: Match, data: Any) -> ReasonForm:
    """The form of a correction or dispute decision for ``match``: a pod's winner and
    concessions, else the game score of a best-of-3 ruleset (or a double loss, R-6),
    else a match's result choice; each with the version shown and a reason."""
    if _is_pod(match):
        return ReasonPodSlipForm(data, match=match)
    if _games(match):
        return ReasonGameScoreForm(data)
    return ReasonResultForm(data)


def result_args(match: Match, form: ReasonForm | SlipForm) -> dict[str, Any]:
    """The result services' keyword arguments (``match``, ``result``, ``version``,
    ``reason``; an empty reason for a slip) from a validated :func:`reason_form` or
    :func:`slip_form`."""
    data = form.cleaned_data
    if isinstance(form, PodSlipForm):
        result = form.result()
    elif isinstance(form, GameSlipForm):
        # "double-loss", or the outcome follows from the games
        result = services.Result.of(data.get("result") or "", games=data["games"])
    else:
        seats = [s.registration for s in sorted(match.seats.all(), key=lambda s: s.seat)]
        winner = {"p1": seats[0], "p2": seats[-1]}.get(data["result"])
        result = services.Result.of(Outcome.WIN if winner else data["result"], winner)
    return {
        "match": match,
        "result": result,
        "version": data["version"],
        "reason": data.get("reason", ""),
    }


def report_form(match: Match, registration: Registration, data: Any) -> ReportForm:
    """A player's own report of ``match`` (their table): a pod's winner and their own
    concession (MP-PTS-1), else the game score of a best-of-3 ruleset from their side
    (M-MATCH-1), else the result buttons ("me", "opponent", "draw")."""
    if _is_pod(match):
        return PlayerPodReportForm(data, match=match, registration=registration)
    if _games(match):
        return PlayerGameReportForm(data)
    return PlayerReportForm(data)


def report_result(match: Match, registration: Registration, form: ReportForm) -> services.Result:
    """The ``services.Result`` of a validated :func:`report_form`. A game score is given
    from the player's side and returned in seat order (M-MATCH-1)."""
    if isinstance(form, PlayerPodReportForm):
        return form.result()
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    if isinstance(form, PlayerGameReportForm):
        mine, theirs, drawn = form.cleaned_data["games"]
        first = seats[0].registration_id == registration.pk
        return services.Result.of(games=(mine, theirs, drawn) if first else (theirs, mine, drawn))
    other = next(s.registration_id for s in seats if s.registration_id != registration.pk)
    choice = form.cleaned_data["result"]
    winner = {"me": registration.pk, "opponent": other}.get(choice)
    return services.Result.of(Outcome.WIN if winner else choice, winner)


def form_error(form: GameScoreForm) -> str:
    """The first problem of an invalid game-score form, in words ("Wins, player 1: …")."""
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        return f"{label}: {errors[0]}" if label else str(errors[0])
    return gettext("Choose a score.")


def refusal(form: SlipForm | ReportForm) -> str:
    """Why an invalid slip or report form was refused, in the visitor's language: a game
    score's first problem, else what to press (a pod's winner or draw, a result)."""
    if isinstance(form, GameScoreForm):
        return form_error(form)
    if isinstance(form, PodSlipForm):
        return gettext("Choose a winner or Draw.")
    if isinstance(form, PlayerPodReportForm):
        return gettext("Choose the pod's winner, or Draw.")
    return gettext("Choose one of the result buttons.")
