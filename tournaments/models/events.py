"""Events, their divisions, players and registrations."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

import rulesets

from ..identities import POP_ID_LENGTH, POP_ID_PATTERN, SANCTION_ID_LENGTH, SANCTION_ID_PATTERN
from ..stored_text import shown
from ._checks import one_of


class Structure(models.TextChoices):
    """S-1."""

    SWISS = "swiss", _("Swiss")
    SWISS_TOP_CUT = "swiss-top-cut", _("Swiss plus top cut")
    SINGLE_ELIMINATION = "single-elimination", _("Single elimination")


class EventStatus(models.TextChoices):
    REGISTRATION = "registration", _("Registration")
    SWISS = "swiss", _("Swiss rounds")
    TOP_CUT = "top-cut", _("Top cut")
    FINISHED = "finished", _("Finished")


class EventListing(models.TextChoices):
    """Who finds the event. ``draft``: a new event, not on the home
    page, its public pages answer 404 to all but its staff; ``listed``: on the home page;
    ``unlisted``: off the home page, its links still work."""

    DRAFT = "draft", _("Draft")
    LISTED = "listed", _("Listed")
    UNLISTED = "unlisted", _("Unlisted")


class DivisionCode(models.TextChoices):
    JUNIOR = "junior", _("Junior")
    SENIOR = "senior", _("Senior")
    MASTERS = "masters", _("Masters")
    OPEN = "open", _("Open")


class SelfReportMode(models.TextChoices):
    """What happens when both players of a match report the same result on their private
    links. Default ``accept``: two agreeing reports are what a match slip signed by both
    players is (P-POST-3), so they are recorded at once; ``hold`` waits for a staff click."""

    ACCEPT = "accept", _("Accept results both players agree on")
    HOLD = "hold", _("Hold agreed results until staff accept them")
    OFF = "off", _("Players do not report results")


class Event(models.Model):
    """A tournament. ``swiss_rounds`` and ``top_cut_size`` are the announced values (S-2).

    ``self_report`` decides what two agreeing player reports do (``SelfReportMode``).
    ``sanction_id`` and ``organizer_pop_id``: the Play! Pokémon sanction (tournament) ID
    and the organiser's POP ID, written to the TOM file (``tournaments.identities``).
    """

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    # The registry is the one list of rulesets: a callable keeps it out of migrations.
    ruleset = models.CharField(max_length=32, choices=rulesets.choices, default=rulesets.DEFAULT)
    structure = models.CharField(
        max_length=32, choices=Structure.choices, default=Structure.SWISS_TOP_CUT
    )
    swiss_rounds = models.PositiveSmallIntegerField(default=0)
    top_cut_size = models.PositiveSmallIntegerField(default=0)
    third_place_playoff = models.BooleanField(default=False)
    prizes = models.TextField(blank=True, help_text="How many players receive prizes, and what.")
    status = models.CharField(
        max_length=20, choices=EventStatus.choices, default=EventStatus.REGISTRATION
    )
    date = models.DateField(null=True, blank=True)
    location = models.CharField(max_length=200, blank=True)
    options = models.JSONField(default=dict, blank=True)
    self_report = models.CharField(
        max_length=8, choices=SelfReportMode.choices, default=SelfReportMode.ACCEPT
    )
    source = models.JSONField(
        default=dict, blank=True, help_text="Data carried from an imported file (e.g. TOM ids)."
    )
    season_year = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Year the season ends in; sets the age cut-offs (P-AGE-1)."
    )
    age_style = models.CharField(
        max_length=16, blank=True, help_text="Set when check-in closes (P-AGE-2, P-AGE-3, P-AGE-6)."
    )
    age_reason = models.CharField(
        max_length=1000, blank=True, help_text="Why, as a stored message (tournaments.messages)."
    )
    checkin_closed_at = models.DateTimeField(null=True, blank=True)
    checkin_step = models.BooleanField(
        default=False,
        help_text="Round 1 waits for Close check-in: set for events made on the "
        "New event page and when a first player is checked in.",
    )
    day2_rounds = models.PositiveSmallIntegerField(
        default=0, help_text="Swiss rounds on Day 2 of a two-day event (P-D2-1); 0 = one day."
    )
    awards_championship_points = models.BooleanField(
        default=False, help_text="Late entry after round 2 needs an explicit override (P-LATE-1)."
    )
    # The event planner (pairings.engine.planner, tournaments.planning): what the day is planned
    # with; the estimated finish is recomputed from these and the real round times.
    expected_players = models.JSONField(
        default=dict, blank=True, help_text="Players expected per division: {code: count}."
    )
    planned_start = models.TimeField(null=True, blank=True, help_text="Round 1's planned start.")
    planned_round_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="A Swiss round's planned length; empty: the ruleset's."
    )
    planned_break_seconds = models.PositiveIntegerField(
        default=600, help_text="Planned break between rounds, seconds."
    )
    planned_tables = models.PositiveIntegerField(
        null=True, blank=True, help_text="Tables in the hall; empty: enough for everyone."
    )
    sanction_id = models.CharField(
        _("sanction ID"),
        max_length=SANCTION_ID_LENGTH,
        blank=True,
        help_text="Play! Pokémon tournament ID, e.g. 25-01-000123 (TOM <data><id>).",
    )
    organizer_pop_id = models.CharField(
        _("organiser's POP ID"),
        max_length=POP_ID_LENGTH,
        blank=True,
        help_text="The organiser's Play! Pokémon ID, digits (TOM <organizer popid>).",
    )
    import_notes = models.JSONField(
        default=list,
        blank=True,
        help_text="Official records kept as recorded though the live rules refuse them "
        "(one sentence each, from the import).",
    )
    listing = models.CharField(
        max_length=10,
        choices=EventListing.choices,
        default=EventListing.LISTED,
        help_text="Draft: staff only; listed: on the home page; unlisted: links still work.",
    )
    # deck lists from players (services.player_decklists).
    decklists_required = models.BooleanField(
        null=True,
        blank=True,
        help_text="Players hand in a deck list; empty: the ruleset's default "
        "(Pokémon Championship Point events, Magic Competitive events).",
    )
    decklist_deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Players submit and edit their list until then; empty: until round 1 starts.",
    )
    decklists_public = models.BooleanField(
        default=False, help_text="The lists are public once the event is finished."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                # powers of two for head-to-head brackets (P-TC-1); 7, 10, 13, 40 are the
                # multiplayer pod cuts (MP-SE-1)
                condition=Q(top_cut_size__in=[0, 2, 4, 7, 8, 10, 13, 16, 32, 40, 64]),
                name="event_top_cut_allowed_size",
            ),
            one_of("ruleset", rulesets.RULESETS, name="event_ruleset_known"),
            one_of("structure", Structure.values, name="event_structure_valid"),
            one_of("status", EventStatus.values, name="event_status_valid"),
            one_of("self_report", SelfReportMode.values, name="event_self_report_valid"),
            one_of("listing", EventListing.values, name="event_listing_valid"),
            models.CheckConstraint(
                condition=Q(sanction_id="") | Q(sanction_id__regex=SANCTION_ID_PATTERN),
                name="event_sanction_id_format",
            ),
            models.CheckConstraint(
                condition=Q(organizer_pop_id="") | Q(organizer_pop_id__regex=POP_ID_PATTERN),
                name="event_organizer_pop_id_digits",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Refuse what the event's ruleset does not run: an unknown ruleset, or a top cut
        of a size it does not announce (a cut of 7 is a pod cut, never a Pokémon one).
        The admin calls this; the services check the same through the registry.
        Raises ValidationError naming the field."""
        try:
            rules = self.rules
        except KeyError as e:
            raise ValidationError({"ruleset": str(e.args[0])}) from None
        if problem := rules.cut_problem(self.top_cut_size):
            raise ValidationError({"top_cut_size": shown(problem)})

    @property
    def rules(self) -> rulesets.Ruleset:
        """The event's :class:`rulesets.Ruleset` (points, columns, words, features), for
        pages and services: ``{{ event.rules.draw_word }}``."""
        return rulesets.get_ruleset(self.ruleset)

    @property
    def best_of(self) -> int:
        """Games in a match of this event: 1 for a best-of-1 Magic event (its
        ``match_length`` option), else 3 (M-MATCH-1; ``Ruleset.best_of``)."""
        return self.rules.best_of(self.options)

    @property
    def phase_label(self) -> str:
        """The event's phase in the visitor's language, as the staff dashboard heads it:
        its status ("Registration", "Swiss rounds", "Top cut", "Finished"), except
        "Check-in closed" from closing check-in until round 1 is paired (the status
        reads Registration until a round exists)."""
        if self.status == EventStatus.REGISTRATION and self.checkin_closed_at is not None:
            return str(_("Check-in closed"))
        return str(self.get_status_display())

    @property
    def collects_decklists(self) -> bool:
        """Whether players hand in deck lists (P-POST-5): the
        organiser's setting, else the ruleset's default (``DeckRules.required_by_default``:
        a Pokémon Championship Point event, a Magic Competitive or Professional event)."""
        if self.decklists_required is not None:
            return self.decklists_required
        deck = self.rules.decklist
        return bool(
            deck and deck.required_by_default(self.awards_championship_points, self.options)
        )


class Division(models.Model):
    """An age division of an event (P-AGE-1).

    Its pairing groups (``groups``, :class:`PairingGroup`): divisions sharing a Swiss
    group are paired together and their OWP is computed over the group (P-AGE-3, R-5);
    places are still per division.
    ``swiss_rounds`` / ``top_cut_size`` override the event's announced values when set.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="divisions")
    code = models.CharField(max_length=16, choices=DivisionCode.choices)
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    top_cut_size = models.PositiveSmallIntegerField(null=True, blank=True)
    flights = models.PositiveSmallIntegerField(
        default=0, help_text="Flights the division is split into (P-FL); 0 = none."
    )

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["event", "code"]
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="division_unique_per_event"),
            one_of("code", DivisionCode.values, name="division_code_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.get_code_display()}"

    def clean(self) -> None:
        """Refuse a top-cut override the event's ruleset does not announce (see
        :meth:`Event.clean`). Raises ValidationError naming the field."""
        if self.event_id and (problem := self.event.rules.cut_problem(self.top_cut_size)):
            raise ValidationError({"top_cut_size": shown(problem)})

    @property
    def rounds(self) -> int:
        return self.swiss_rounds if self.swiss_rounds is not None else self.event.swiss_rounds

    @property
    def cut(self) -> int:
        return self.top_cut_size if self.top_cut_size is not None else self.event.top_cut_size


class Player(models.Model):
    """A person. ``player_id`` is the organisation's id (Pokémon POP id), not unique here."""

    name = models.CharField(max_length=200)
    player_id = models.CharField(max_length=40, blank=True, db_index=True)
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


def new_report_token() -> str:
    """An unguessable token for a player's private link (192 random bits)."""
    return secrets.token_urlsafe(24)


class Registration(models.Model):
    """A player entered in an event (P-LATE-1 ``late``; R-2 ``dropped_after_round``).

    ``report_token`` makes the player's private link ``/e/<event>/p/<token>/``, where they
    report results and drop themselves without an account. Only this player (and the
    event's staff) ever see it.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    division = models.ForeignKey(Division, on_delete=models.PROTECT, related_name="registrations")
    external_id = models.CharField(
        max_length=64, help_text="Id in the imported file (TOM userid) or generated."
    )
    late = models.BooleanField(default=False)
    flight = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Flight number, 1 first, when the division is flighted."
    )
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    disqualified = models.BooleanField(default=False)
    decklist = models.TextField(
        blank=True, help_text="Deck list / team list as submitted (P-POST-5)."
    )
    decklist_received_at = models.DateTimeField(null=True, blank=True)
    decklist_reopened = models.BooleanField(
        default=False,
        help_text="Staff reopened the list after the deadline: the player may submit it once more.",
    )
    # Check-in: present at the event, when and by whom (None: the player
    # themselves, on their private link or at the door; see services.checkin).
    checked_in_at = models.DateTimeField(null=True, blank=True)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    report_token = models.CharField(
        max_length=64, unique=True, default=new_report_token, editable=False
    )
    # Fixed seating (services.seating): the table this player plays at
    # in every Swiss round, reserved hall-wide; the reason is for staff only.
    fixed_table = models.PositiveIntegerField(null=True, blank=True)
    fixed_table_reason = models.CharField(max_length=200, blank=True, default="")
    # Featured tables: the player asked not to be featured (coverage).
    feature_opt_out = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "external_id"], name="registration_unique_id"),
            models.UniqueConstraint(
                fields=["event", "fixed_table"],
                condition=Q(fixed_table__isnull=False),
                name="registration_unique_fixed_table",
            ),
            models.CheckConstraint(
                condition=Q(fixed_table__isnull=True) | Q(fixed_table__gte=1),
                name="registration_fixed_table_from_1",
            ),
        ]

    def __str__(self) -> str:
        return self.player.name

    @property
    def dropped(self) -> bool:
        return self.dropped_after_round is not None
