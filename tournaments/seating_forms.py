"""Forms of fixed seating and featured tables. They check input
only; the services (``services.seating``, ``services.featured``) decide."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .services.featured import FEATURE_MAX
from .services.seating import MAX_FIXED_TABLE, REASON_MAX


class FixedSeatForm(forms.Form):
    """A player's fixed table and its private reason; ``remove`` takes the seat away."""

    table = forms.IntegerField(
        min_value=1, max_value=MAX_FIXED_TABLE, required=False, label=_("Fixed table")
    )
    reason = forms.CharField(
        max_length=REASON_MAX,
        required=False,
        label=_("Reason (staff only)"),
        help_text=_("For example mobility or sight. Never shown to players or the public."),
    )
    remove = forms.BooleanField(required=False)

    def clean(self) -> dict:
        data = super().clean() or {}
        if not data.get("remove") and data.get("table") is None and not self.errors:
            raise forms.ValidationError(_("Give the table number, or remove the fixed seat."))
        return data


#: The refusal of a feature posted without its table (the list's ``required`` is the
#: browser's only).
CHOOSE_TABLE = _("Choose the table to feature.")


class FeatureForm(forms.Form):
    """The match to feature (its id, from the round page's list) and the feature table's
    name. Each missing part is refused with its own message (the page's ``required`` is
    the browser's; a post without it must still be told what is missing)."""

    match = forms.IntegerField(
        min_value=1,
        label=_("Match"),
        error_messages={
            "required": CHOOSE_TABLE,
            "invalid": CHOOSE_TABLE,
            "min_value": CHOOSE_TABLE,
        },
    )
    feature_table = forms.CharField(
        max_length=FEATURE_MAX,
        label=_("Feature table"),
        initial="",
        strip=True,
        error_messages={
            "required": _("Give the name of the feature table, for example “Stream”."),
        },
    )


class FeatureChoiceForm(forms.Form):
    """A player's choice on their private page: "1" never feature me, "0" featuring is fine."""

    opt_out = forms.ChoiceField(choices=[("1", "1"), ("0", "0")])
