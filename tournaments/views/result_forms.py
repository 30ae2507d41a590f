"""The result forms of every table format, chosen in one place (issue 10, item 4).

The slip, correction and dispute views post to the same result services
(``services.slip_enter``, ``result_correct``, ``dispute_resolve``) with a format-neutral
``services.Result``; what the page posts differs per table: a pod's pressed winner (or
``draw``) and ticked concessions (MP-PTS-1), a best-of-3 game score (M-MATCH-1) or a
match's result choice (R-6). :func:`reason_form` picks the form from the table's format
(``result_format``) and the event's ruleset; :func:`result_args` turns any of them into
the services' keyword arguments.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rulesets import get_ruleset

from .. import services
from ..forms import ReasonGameScoreForm, ReasonResultForm
from ..models import Match, Outcome
from ..services.result_types import POD, result_format


class PodSlipForm(forms.Form):
    """A pod's result (MP-PTS-1): the pressed button or chosen option (a seated player's
    registration id, or ``draw``), the players ticked as conceded (only a draw uses
    them), the version shown, and the reason of a correction or dispute decision."""

    winner = forms.CharField(max_length=20)
    conceded = forms.TypedMultipleChoiceField(coerce=int, required=False, choices=())
    version = forms.IntegerField(min_value=0)
    reason = forms.CharField(max_length=500, required=False, label=_("Reason"))

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ids = [str(s.registration_id) for s in match.seats.all()]
        self.fields["conceded"].choices = [(i, i) for i in ids]
        self.seat_ids = ids

    def clean_winner(self) -> str:
        value = self.cleaned_data["winner"]
        if value != "draw" and value not in self.seat_ids:
            raise forms.ValidationError("Choose a winner of this pod, or draw.")
        return value

    def result(self) -> services.Result:
        """The winner, or a draw shared by the players not ticked as conceded."""
        choice = self.cleaned_data["winner"]
        if choice == "draw":
            return services.Result.draw(self.cleaned_data["conceded"])
        return services.Result.win(int(choice))


ReasonForm = ReasonResultForm | ReasonGameScoreForm | PodSlipForm


def reason_form(match: Match, data: Any) -> ReasonForm:
    """The form of a correction or dispute decision for ``match``: a pod's winner and
    concessions, else the game score of a best-of-3 ruleset (or a double loss, R-6),
    else a match's result choice; each with the version shown and a reason."""
    if result_format(list(match.seats.all())) is POD:
        return PodSlipForm(data, match=match)
    if get_ruleset(match.round.event.ruleset).game_record:
        return ReasonGameScoreForm(data)
    return ReasonResultForm(data)


def result_args(match: Match, form: ReasonForm) -> dict[str, Any]:
    """The result services' keyword arguments (``match``, ``result``, ``version``,
    ``reason``) from a validated :func:`reason_form`."""
    data = form.cleaned_data
    if isinstance(form, PodSlipForm):
        result = form.result()
    elif isinstance(form, ReasonGameScoreForm):
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
