"""Forms parse and check input only; the services decide and change state."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any, TypeVar

from django import forms
from django.utils.translation import gettext_lazy as _

import rulesets
from rulesets import RULESETS, Ruleset, get_ruleset
from rulesets.penalties import infraction_named

from .groups import age_order
from .identities import POP_ID_LENGTH, SANCTION_ID_LENGTH, pop_id_problem, sanction_id_problem
from .models import (
    Division,
    DivisionCode,
    Event,
    ImportFormat,
    PenaltyKind,
    Registration,
    SelfReportMode,
    StaffRole,
    Structure,
)
from .selectors.names import registration_name, with_shown_names
from .stored_text import shown
from .text import TextRefused, clean_name

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

_F = TypeVar("_F", bound=forms.Field)


def form_field(form: forms.BaseForm, name: str, kind: type[_F]) -> _F:
    """``form``'s own copy of its field ``name``, as the ``kind`` of field it was declared
    (``form.fields`` holds plain ``Field`` values to a type checker), to set its choices or
    queryset per form. Raises TypeError when the field is of another kind."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(f"{type(form).__name__}.{name} is a {type(field).__name__}")
    return field


# Every cut size some ruleset plays; EventForm.clean keeps each ruleset to its own.
TOP_CUT_CHOICES = [(0, "No top cut")] + [
    (n, f"Top {n}") for n in sorted({c for r in RULESETS.values() for c in r.cuts})
]

# How the age divisions are paired: {division code: pod} (P-AGE-2, P-AGE-3, P-AGE-6).
DIVISION_LAYOUTS: dict[str, tuple[StrOrPromise, dict[str, str]]] = {
    "open": (_("One open division (no age divisions)"), {DivisionCode.OPEN: "open"}),
    "age": (
        _("Junior, Senior, Masters: apart or age-modified, decided when check-in closes"),
        {
            DivisionCode.JUNIOR: "junior",
            DivisionCode.SENIOR: "senior",
            DivisionCode.MASTERS: "masters",
        },
    ),
    "age-modified": (
        _("Junior and Senior paired together, Masters apart (age-modified Swiss)"),
        {
            DivisionCode.JUNIOR: "junior+senior",
            DivisionCode.SENIOR: "junior+senior",
            DivisionCode.MASTERS: "masters",
        },
    ),
}


class NameField(forms.CharField):
    """A player's name, an event's name or its venue under the one text rule for names
    (``tournaments.text``): the value is checked as typed (a form's
    usual strip would hide a control character at either end) and cleaned normalised;
    a refused value is a field error naming the field ("Name: contains the control
    character U+000B, which a name cannot hold")."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)

    def clean(self, value: Any) -> str:
        value = super().clean(value)
        try:
            return clean_name(value, str(self.label), required=self.required)
        except TextRefused as e:
            raise forms.ValidationError(str(e), code="name") from None


class EventForm(forms.Form):
    """The announced structure of a new event (S-1, S-2)."""

    #: Fields only some rulesets use: field → ``Features`` flag. The page hides them for
    #: other rulesets (static/js/matchslip.js); ``clean`` resets them to ``CLEARED``.
    FEATURE_FIELDS = {
        "divisions": "age_divisions",
        "season_year": "age_divisions",
        "awards_championship_points": "championship_points",
        "day2_rounds": "day2",
    }
    CLEARED = {
        "divisions": "open",
        "season_year": None,
        "awards_championship_points": False,
        "day2_rounds": 0,
    }

    name = NameField(max_length=200, label=_("Name"))
    ruleset = forms.ChoiceField(
        choices=lambda: [(key, _(label)) for key, label in rulesets.choices()],
        initial=rulesets.DEFAULT,
        label=_("Ruleset"),
    )
    structure = forms.ChoiceField(
        choices=Structure.choices, initial=Structure.SWISS_TOP_CUT, label=_("Structure")
    )
    divisions = forms.ChoiceField(
        choices=[(k, label) for k, (label, _) in DIVISION_LAYOUTS.items()],
        initial="open",
        label=_("Age divisions"),
    )
    swiss_rounds = forms.IntegerField(
        min_value=0, max_value=20, initial=3, label=_("Swiss rounds (announced)")
    )
    day2_rounds = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=10,
        initial=0,
        label=_("Day 2 Swiss rounds (two-day event, 0 = one day)"),
        help_text=_("Day 2 cut: 19+ match points or the top 32, whichever is larger."),
    )
    top_cut_size = forms.TypedChoiceField(
        choices=TOP_CUT_CHOICES,
        coerce=int,
        initial=0,
        label=_("Top cut"),
        help_text=_(
            "Head-to-head: 2, 4, 8, 16, 32 or 64 players. Multiplayer pods: 4, 7, 10, "
            "13, 16, 40 or 64 players."
        ),
    )
    third_place_playoff = forms.BooleanField(required=False, label=_("3rd/4th place playoff"))
    prizes = forms.CharField(
        label=_("Prizes"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("How many players receive prizes, and what."),
    )
    date = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label=_("Date")
    )
    location = NameField(max_length=200, required=False, label=_("Location"))
    season_year = forms.IntegerField(
        min_value=2000,
        max_value=2100,
        required=False,
        label=_("Season (the year it ends in)"),
        help_text=_("Sets the age cut-offs. Empty: the season of the event date."),
    )
    awards_championship_points = forms.BooleanField(
        required=False,
        label=_("Awards Championship Points"),
        help_text=_("Adding a player after round 2 then needs an explicit override."),
    )
    #: Each division's rounds and cut as "Use these" copies them from the plan (
    #: item 13): ``senior:3:2,junior:3:0``; see :meth:`clean_division_structure`.
    division_structure = forms.CharField(max_length=200, required=False, widget=forms.HiddenInput)

    def clean_division_structure(self) -> dict[str, tuple[int, int]]:
        """``code:rounds:cut`` entries, comma separated → ``{code: (rounds, cut)}``;
        empty → ``{}``. A malformed entry, an unknown division or rounds outside 0-20
        is a field error."""
        value = (self.cleaned_data.get("division_structure") or "").strip()
        out: dict[str, tuple[int, int]] = {}
        for entry in filter(None, (e.strip() for e in value.split(","))):
            parts = entry.split(":")
            if (
                len(parts) != 3
                or parts[0] not in DivisionCode.values
                or not all(p.isdigit() for p in parts[1:])
                or int(parts[1]) > 20
            ):
                raise forms.ValidationError(
                    _("Each division's structure must read division:rounds:cut, got %(entry)s."),
                    params={"entry": entry},
                )
            out[parts[0]] = (int(parts[1]), int(parts[2]))
        return out

    def clean(self) -> dict[str, Any]:
        """The announced structure must be one the chosen ruleset can run (S-1): its own
        structures and cut sizes (MP-SE-1 pods, else P-TC-1), Swiss with rounds, a top
        cut only with Swiss plus top cut, single elimination without Swiss rounds. Age
        divisions, seasons, Championship Points and Day 2 are cleared for rulesets that
        do not use them."""
        data = super().clean() or {}
        if self.errors or not data.get("ruleset"):
            return data
        ruleset = get_ruleset(data["ruleset"])
        cut = data.get("top_cut_size") or 0
        problem = ruleset.structure_problem(
            data.get("structure", ""), data.get("swiss_rounds") or 0, cut
        )
        if problem:  # a rulesets.i18n.Text: in the visitor's language
            field = "top_cut_size" if cut not in ruleset.allowed_cuts() else None
            self.add_error(field, shown(problem))
        for name, feature in self.FEATURE_FIELDS.items():
            if not getattr(ruleset.features, feature):
                data[name] = self.CLEARED[name]
        for code, (_rounds, size) in (data.get("division_structure") or {}).items():
            if problem := ruleset.cut_problem(size):
                self.add_error(None, f"{DivisionCode(code).label}: {shown(problem)}")
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """The cleaned data as keyword arguments of ``services.event_create``."""
        data = dict(self.cleaned_data)
        data["divisions"] = dict(DIVISION_LAYOUTS[data["divisions"]][1])
        data["day2_rounds"] = data.get("day2_rounds") or 0
        # "Use these" gives each division of the layout its own
        # structure; a division the layout does not have is left out
        data["division_structure"] = {
            code: own
            for code, own in (data.get("division_structure") or {}).items()
            if code in data["divisions"]
        }
        return data


class PlayerForm(forms.Form):
    """One player: name, the organisation's player id, birth year and division. With age
    divisions the division may be left to the birth year (its first choice, "By birth
    year"): the service chooses it by the season's cut-offs."""

    name = NameField(max_length=200, label=_("Name"))
    player_id = forms.CharField(max_length=40, required=False, label=_("Player id"))
    birth_year = forms.IntegerField(
        min_value=1900, max_value=2100, required=False, label=_("Birth year")
    )
    division = forms.ModelChoiceField(
        queryset=Division.objects.none(), required=False, empty_label=None, label=_("Division")
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        division = form_field(self, "division", forms.ModelChoiceField)
        division.queryset = event.divisions.order_by(age_order())
        if event.divisions.count() < 2:
            division.widget = forms.HiddenInput()
        elif event.rules.features.age_divisions:
            division.empty_label = _("By birth year")
        if not event.awards_championship_points:
            del self.fields["override_late_entry"]
        if not event.rules.features.age_divisions:  # the birth year only sets the division
            del self.fields["birth_year"]

    override_late_entry = forms.BooleanField(
        required=False,
        label=_("Override: add this player although round 2 is over (Championship Points event)"),
    )


class DivisionForm(forms.Form):
    """Move a player to another age division before round 1 (P-AGE-1 override)."""

    division = forms.ModelChoiceField(queryset=Division.objects.none(), empty_label=None)
    confirm = forms.BooleanField(required=False)  # a move against the birth year, confirmed

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        division = form_field(self, "division", forms.ModelChoiceField)
        division.queryset = event.divisions.order_by(age_order())


class FirstTableForm(forms.Form):
    """A pairing group's first table number; empty: set when its next
    round is paired, after the tables in play."""

    first_table = forms.IntegerField(
        min_value=1, max_value=9999, required=False, label=_("First table")
    )


class CheckinCloseForm(forms.Form):
    """Close check-in; rounds and cut left empty take the recommendation (S-3); the
    dashboard fills the rounds with those announced (``proposed_rounds`` in
    ``pairings.checkin_services``). ``cuts``: the cut sizes the event's ruleset allows
    (``Ruleset.allowed_cuts``), default all."""

    swiss_rounds = forms.IntegerField(
        min_value=1, max_value=20, required=False, label=_("Swiss rounds")
    )
    top_cut = forms.TypedChoiceField(
        choices=[("", _("Recommended")), *TOP_CUT_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
        label=_("Top cut of the largest division"),
    )

    def __init__(self, *args: Any, cuts: tuple[int, ...] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if cuts is not None:
            allowed = [(n, label) for n, label in TOP_CUT_CHOICES if n in cuts]
            form_field(self, "top_cut", forms.TypedChoiceField).choices = [
                ("", _("Recommended")),  # in the visitor's language, as the field's own
                *allowed,
            ]


class EventFileForm(forms.Form):
    """An event file to import (TOM, event JSON, WER, melee.gg) and its format; no
    format means "tell from the file" (``interchange.services.import_jobs.import_format_guess``)."""

    file = forms.FileField(label=_("Event file"))
    format = forms.ChoiceField(
        choices=[("", _("Tell from the file")), *ImportFormat.choices],
        required=False,
        label=_("Format"),
    )


class DropForm(forms.Form):
    reason = forms.CharField(max_length=200, required=False, label=_("Reason"))


class StaffDropForm(DropForm):
    """Staff drop a player: an optional reason and the ticked confirmation, as the
    player's own drop on their phone (``PlayerDropForm``)."""

    confirm = forms.BooleanField(label=_("Yes, drop this player"))


RESULT_CHOICES = [
    ("p1", _("Player 1 wins")),
    ("p2", _("Player 2 wins")),
    ("draw", _("Tie")),
    ("double-loss", _("Double loss")),
]


class ResultForm(forms.Form):
    """A match slip: which button was pressed and the match version the form showed."""

    result = forms.ChoiceField(choices=RESULT_CHOICES)
    version = forms.IntegerField(min_value=0)


class PairForm(forms.Form):
    group = forms.CharField(max_length=40)  # a pairing group's key


class SearchForm(forms.Form):
    q = forms.CharField(max_length=100, required=False, label=_("Find my table"))


class ReasonResultForm(ResultForm):
    """A judge's correction or a dispute resolution: the result, the version shown, and
    the reason written to the audit trail (P-POST-4)."""

    reason = forms.CharField(max_length=500, label=_("Reason"))


PLAYER_RESULT_CHOICES = [
    ("me", _("I won")),
    ("opponent", _("I lost")),
    ("draw", _("Tie")),
]


class PlayerReportForm(forms.Form):
    """A player's own report on their private link."""

    match = forms.IntegerField(widget=forms.HiddenInput)
    result = forms.ChoiceField(choices=PLAYER_RESULT_CHOICES)


class PlayerDropForm(forms.Form):
    confirm = forms.BooleanField(label=_("Yes, drop me from the event"))


class StaffInviteForm(forms.Form):
    """Who to add: an account's username or e-mail adds it at once; an
    e-mail with no account gets an invite link by e-mail; empty makes a link to hand over."""

    who = forms.CharField(
        max_length=254,
        required=False,
        label=_("Username or e-mail"),
        help_text=_("Someone without an account: their e-mail, or leave empty for a link."),
    )
    role = forms.ChoiceField(choices=StaffRole.choices)


class EventSettingsForm(forms.Form):
    """The event's settings: self-reporting, and for a ruleset with TOM files
    (``Features.tom_files``) the Play! Pokémon sanction ID and organiser's POP ID, checked
    as ``tournaments.identities`` says (the service checks them again)."""

    self_report = forms.ChoiceField(
        choices=SelfReportMode.choices,
        label=_("When both players report the same result"),
        widget=forms.RadioSelect,
    )
    sanction_id = forms.CharField(
        required=False,
        max_length=SANCTION_ID_LENGTH,
        label=_("Sanction ID"),
        help_text=_(
            "The tournament ID Play! Pokémon gave the event, like 25-01-000123. "
            "The TOM file needs it to be uploaded."
        ),
        widget=forms.TextInput(attrs={"placeholder": "25-01-000123", "autocomplete": "off"}),
    )
    organizer_pop_id = forms.CharField(
        required=False,
        max_length=POP_ID_LENGTH,
        label=_("Organiser's POP ID"),
        help_text=_("The organiser's Play! Pokémon ID, digits only."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, tom_files: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not tom_files:  # other games have no sanction ID: the fields are not shown
            del self.fields["sanction_id"]
            del self.fields["organizer_pop_id"]

    def clean_sanction_id(self) -> str:
        value: str = self.cleaned_data["sanction_id"]
        if problem := sanction_id_problem(value):
            raise forms.ValidationError(problem)
        return value

    def clean_organizer_pop_id(self) -> str:
        value: str = self.cleaned_data["organizer_pop_id"]
        if problem := pop_id_problem(value):
            raise forms.ValidationError(problem)
        return value


class RegistrationChoiceField(forms.ModelChoiceField):
    """A player of the event, each labelled as people see them: told apart from a
    same-name player (``selectors.names``)."""

    def label_from_instance(self, obj: Any) -> str:
        return registration_name(obj)


OTHER_INFRACTION = "other"


class PenaltyForm(forms.Form):
    """A penalty note: the player, the round, the penalty and the infraction.

    When the event's ruleset names its infractions
    (``Ruleset.infractions``), ``infraction`` is a choice among them, grouped by
    category (a listed name in any spelling is taken as listed), or "Other" with the
    name typed in ``infraction_other``; otherwise it is typed. ``cleaned_data`` then
    holds the name in ``infraction`` only.
    """

    registration = RegistrationChoiceField(queryset=Registration.objects.none(), label=_("Player"))
    round_number = forms.IntegerField(min_value=1, required=False, label=_("Round"))
    kind = forms.ChoiceField(choices=PenaltyKind.choices, label=_("Penalty"))
    infraction = forms.CharField(max_length=200, label=_("Infraction"))
    infraction_other = forms.CharField(
        max_length=200, required=False, label=_("Other infraction (if not listed)")
    )
    note = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "registration", forms.ModelChoiceField).queryset = with_shown_names(
            Registration.objects.filter(event=event), event.pk
        )
        self.listed = event.rules.infractions
        if self.listed:
            groups: dict[str, list[tuple[str, Any]]] = {}
            for i in self.listed:
                label = f"{i.section} {_(i.name)}" if i.section else _(i.name)
                groups.setdefault(i.category, []).append((i.name, label))
            choices: list[Any] = [("", _("Choose the infraction"))]
            choices += [(_(category), names) for category, names in groups.items()]
            choices.append((OTHER_INFRACTION, _("Other (type it below)")))
            self.fields["infraction"].widget = forms.Select(choices=choices)
        else:
            del self.fields["infraction_other"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.listed or "infraction" not in data:
            return data
        chosen, other = data["infraction"], data.pop("infraction_other", "").strip()
        if chosen == OTHER_INFRACTION:
            if not other:
                self.add_error("infraction_other", _("Type the infraction."))
            data["infraction"] = other
        elif (known := infraction_named(self.listed, chosen)) is not None:
            data["infraction"] = known.name
        else:
            self.add_error("infraction", _("Choose one of the infractions, or Other."))
        return data


class AuditFilterForm(forms.Form):
    """Filters of the audit page; choices are filled from the event."""

    round = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("Round"))
    player = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("Player"))
    person = forms.ChoiceField(required=False, label=_("Who"))

    def __init__(
        self, *args: Any, rounds: list[int], players: list[Any], people: list[Any], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "round", forms.TypedChoiceField).choices = [
            ("", _("Any round")),
            *((n, _("Round %(number)s") % {"number": n}) for n in rounds),
        ]
        form_field(self, "player", forms.TypedChoiceField).choices = [
            ("", _("Any player")),
            *players,
        ]
        form_field(self, "person", forms.ChoiceField).choices = [("", _("Anyone")), *people]


#: Quick game-score buttons of a best-of-3 match slip (M-MATCH-1): games won by the
#: first player, by the second, drawn games. Pages label them by the winner
#: (``templatetags.matchslip.quick_scores``: "Ann 2-1", "Draw 1-1-1").
QUICK_SCORES = ("2-0-0", "2-1-0", "1-2-0", "0-2-0", "1-1-1", "0-0-3")
#: The same for a best-of-1 Magic event (``match_length``): a won game
#: either way, or a drawn one (also the intentional draw).
QUICK_SCORES_BO1 = ("1-0-0", "0-1-0", "0-0-1")


class GameScoreForm(forms.Form):
    """A best-of-3 match slip: a quick button (``score`` "2-1-0") or the games typed in
    (wins of player 1, wins of player 2, drawn games), and the match version shown.
    Checks the shape only; ``services.slip_enter`` decides what is possible (3-0 is not).
    ``cleaned_data["games"]`` is the ``(a, b, drawn)`` tuple."""

    score = forms.RegexField(regex=r"^\d-\d-\d$", required=False)
    wins_1 = forms.IntegerField(min_value=0, max_value=9, required=False, label=_("Wins, player 1"))
    wins_2 = forms.IntegerField(min_value=0, max_value=9, required=False, label=_("Wins, player 2"))
    draws = forms.IntegerField(min_value=0, max_value=9, required=False, label=_("Drawn games"))
    version = forms.IntegerField(min_value=0)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("score"):
            a, b, d = (int(x) for x in data["score"].split("-"))
            data["games"] = (a, b, d)
        elif data.get("wins_1") is not None and data.get("wins_2") is not None:
            data["games"] = (data["wins_1"], data["wins_2"], data.get("draws") or 0)
        elif not self.errors:
            raise forms.ValidationError(_("Choose a score, or type the games each player won."))
        return data


class GameSlipForm(GameScoreForm):
    """A best-of-3 match slip at the round page (M-MATCH-1): the game score, or
    ``result`` "double-loss" for a double loss (R-6): the games are then ignored and
    ``cleaned_data["games"]`` is None."""

    result = forms.ChoiceField(
        choices=[("", _("The game score")), ("double-loss", _("Double loss"))], required=False
    )

    def clean(self) -> dict[str, Any]:
        if self.cleaned_data.get("result") == "double-loss":
            self.cleaned_data["games"] = None
            return self.cleaned_data
        return super().clean()


class ReasonGameScoreForm(GameSlipForm):
    """A judge's correction or a dispute resolution of a best-of-3 match (a game score
    or a double loss, see :class:`GameSlipForm`), with a reason (P-POST-4)."""

    reason = forms.CharField(max_length=500, label=_("Reason"))


class PlayerGameReportForm(GameScoreForm):
    """A player's own report of a best-of-3 match on their private link: a quick button
    or the games typed in, *from the player's side* (``wins_1`` = games they won,
    ``wins_2`` = games their opponent won); the view turns it into seat order."""

    match = forms.IntegerField(widget=forms.HiddenInput)
    version = None  # type: ignore[assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["wins_1"].label = _("Games you won")
        self.fields["wins_2"].label = _("Games your opponent won")


class EventOptionsForm(forms.Form):
    """The options of the event's ruleset (``Ruleset.options``), one field per spec."""

    def __init__(self, *args: Any, ruleset: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for spec in ruleset.options:
            field: forms.Field
            if spec.kind == "bool":
                field = forms.BooleanField(required=False)
            else:
                field = forms.ChoiceField(choices=[(str(c), _(str(c))) for c in spec.choices])
            # Registry texts (rulesets.i18n.gettext_noop) in the visitor's language.
            field.label, field.help_text = _(spec.label), _(spec.help) if spec.help else ""
            self.fields[spec.name] = field


class PlayersSheetForm(forms.Form):
    """Players pasted from a spreadsheet or uploaded as a .csv/.tsv/.txt file (one of
    the two); ``confirm`` saves what the preview showed, ``allow_duplicates`` confirms
    that players with the same name are different people. ``cleaned_data["text"]`` is
    the sheet's text, from the file when one was uploaded."""

    lines = forms.CharField(
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 6, "placeholder": "Ash Ketchum,1234567,1999", "spellcheck": "false"}
        ),
        label=_("Paste players, one per line: name, player id, birth year, division"),
        strip=False,
    )
    file = forms.FileField(
        required=False,
        label=_("Or upload a spreadsheet (.csv, .tsv, .txt)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.tsv,.txt,text/csv"}),
    )
    allow_duplicates = forms.BooleanField(
        required=False, label=_("These are different players with the same name")
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, ages: bool = True, max_bytes: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_bytes = max_bytes
        if not ages:
            field = self.fields["lines"]
            field.label = _("Paste players, one per line: name, player id")
            field.widget.attrs["placeholder"] = "Ann Lee,1234567"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload:
            if self.max_bytes and upload.size > self.max_bytes:
                raise forms.ValidationError(
                    _("The file is %(size)s MB; at most %(most)s MB.")
                    % {"size": f"{upload.size / 2**20:.1f}", "most": self.max_bytes // 2**20}
                )
            data["text"] = decode_sheet(upload.read())
        else:
            data["text"] = data.get("lines") or ""
        if not data["text"].strip():
            raise forms.ValidationError(_("Paste the players or choose a file."))
        return data


#: Above this share of unassigned or private-use characters, a file that says it is UTF-16
#: (its first two bytes) is not text: random bytes after a UTF-16 mark decode "cleanly"
#: into a line of unrelated scripts. A name with one character newer than Python's Unicode
#: tables stays far below it.
NOT_TEXT_SHARE = 0.01


def decode_sheet(content: bytes) -> str:
    """An uploaded sheet's text: UTF-8 (with or without BOM), UTF-16 with BOM, else
    Windows-1252 (what older spreadsheet programs export). Raises ValidationError, the
    message saying the file is not a text spreadsheet, for a UTF-16 mark followed by
    something that is not UTF-16 text (an odd length, a lone surrogate, more than
    :data:`NOT_TEXT_SHARE` unassigned or private-use characters)."""
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = content.decode("utf-16")
        except UnicodeDecodeError:
            text = ""
        odd = sum(unicodedata.category(c) in ("Cn", "Co") for c in text)
        if not text or odd > NOT_TEXT_SHARE * len(text):
            raise forms.ValidationError(
                _(
                    "This file is not a text spreadsheet: save it as CSV (comma-separated) or "
                    "as Unicode text from the spreadsheet program, or paste the players."
                )
            )
        return text
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("cp1252", errors="replace")


class PlayerEditForm(forms.Form):
    """Fix a registered player: name, player id, birth year (``ages``: the event has age
    divisions). The ``was_*`` fields carry the values shown (optimistic check)."""

    name = NameField(max_length=200, label=_("Name"))
    player_id = forms.CharField(max_length=40, required=False, label=_("Player id"))
    birth_year = forms.IntegerField(
        min_value=1900, max_value=2100, required=False, label=_("Birth year")
    )
    was_name = forms.CharField(required=False, widget=forms.HiddenInput, strip=False)
    was_player_id = forms.CharField(required=False, widget=forms.HiddenInput, strip=False)
    was_birth_year = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, ages: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ages = ages
        if not ages:
            del self.fields["birth_year"], self.fields["was_birth_year"]

    @classmethod
    def for_player(cls, player: Any, *, ages: bool) -> PlayerEditForm:
        values = {"name": player.name, "player_id": player.player_id}
        if ages:
            values["birth_year"] = player.birth_year
        return cls(initial=values | {f"was_{k}": v for k, v in values.items()}, ages=ages)

    def service_kwargs(self) -> dict[str, Any]:
        """``player_update`` keyword arguments: the new values and ``expected``."""
        data = self.cleaned_data
        fields = ["name", "player_id"] + (["birth_year"] if self.ages else [])
        expected = {f: data.get(f"was_{f}") for f in fields}
        expected["player_id"] = expected["player_id"] or ""
        return {f: data.get(f) if f != "player_id" else data.get(f) or "" for f in fields} | {
            "expected": expected
        }


class DisqualifyForm(forms.Form):
    """Disqualify a player: the reason and an explicit confirmation."""

    reason = forms.CharField(max_length=200, label=_("Reason"))
    confirm = forms.BooleanField(label=_("Yes, disqualify this player"))


class EventEditForm(forms.Form):
    """The event's name, date, venue and announced Swiss rounds; ``rounds`` False hides
    the rounds (they can no longer change). ``was_*`` carry the values shown."""

    name = NameField(max_length=200, label=_("Name"))
    date = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        label=_("Date"),
    )
    location = NameField(max_length=200, required=False, label=_("Venue"))
    swiss_rounds = forms.IntegerField(
        min_value=1, max_value=20, label=_("Swiss rounds (announced)")
    )
    was_name = forms.CharField(required=False, widget=forms.HiddenInput, strip=False)
    was_date = forms.DateField(required=False, widget=forms.HiddenInput)
    was_location = forms.CharField(required=False, widget=forms.HiddenInput, strip=False)
    was_swiss_rounds = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, rounds: bool = True, floor: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rounds = rounds
        if not rounds:
            del self.fields["swiss_rounds"], self.fields["was_swiss_rounds"]
        elif floor:
            form_field(self, "swiss_rounds", forms.IntegerField).min_value = floor
            self.fields["swiss_rounds"].widget.attrs["min"] = floor
            self.fields["swiss_rounds"].help_text = _(
                "Round %(number)s is paired: at least %(number)s."
            ) % {"number": floor}

    @classmethod
    def for_event(cls, event: Event, *, rounds: bool, floor: int) -> EventEditForm:
        fields = ["name", "date", "location"] + (["swiss_rounds"] if rounds else [])
        values = {f: getattr(event, f) for f in fields}
        return cls(
            initial=values | {f"was_{k}": v for k, v in values.items()}, rounds=rounds, floor=floor
        )

    def service_kwargs(self) -> dict[str, Any]:
        """``event_update`` keyword arguments: the new values and ``expected``."""
        data = self.cleaned_data
        fields = ["name", "date", "location"] + (["swiss_rounds"] if self.rounds else [])
        expected = {f: data.get(f"was_{f}") for f in fields}
        expected["location"] = expected["location"] or ""
        values = {f: data.get(f) for f in fields}
        values["location"] = values["location"] or ""
        return values | {"expected": expected}
