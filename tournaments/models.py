"""Events, players, rounds, matches, staff and the audit trail.

Models hold data and the invariants the database can guard (unique and check
constraints); every state change goes through ``tournaments.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .rulesets import RULESETS


class Ruleset(models.TextChoices):
    POKEMON = "pokemon", "Play! Pokémon (2019)"
    POKEMON_2009 = "pokemon-2009", "Pokémon (2009)"
    MTG = "mtg", "Magic: The Gathering"
    MTG_MULTIPLAYER = "mtg-multiplayer", "Magic multiplayer pods"
    BO3_WINS_AGAINST = "bo3-wins-against", "Best-of-3, wins against"


assert {c.value for c in Ruleset} == set(RULESETS)


class Structure(models.TextChoices):
    """S-1."""

    SWISS = "swiss", "Swiss"
    SWISS_TOP_CUT = "swiss-top-cut", "Swiss plus top cut"
    SINGLE_ELIMINATION = "single-elimination", "Single elimination"


class EventStatus(models.TextChoices):
    REGISTRATION = "registration", "Registration"
    SWISS = "swiss", "Swiss rounds"
    TOP_CUT = "top-cut", "Top cut"
    FINISHED = "finished", "Finished"


class DivisionCode(models.TextChoices):
    JUNIOR = "junior", "Junior"
    SENIOR = "senior", "Senior"
    MASTERS = "masters", "Masters"
    OPEN = "open", "Open"


class Event(models.Model):
    """A tournament. ``swiss_rounds`` and ``top_cut_size`` are the announced values (S-2)."""

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    ruleset = models.CharField(max_length=32, choices=Ruleset.choices, default=Ruleset.POKEMON)
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
    source = models.JSONField(
        default=dict, blank=True, help_text="Data carried from an imported file (e.g. TOM ids)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(top_cut_size__in=[0, 2, 4, 8, 16, 32, 64]),
                name="event_top_cut_power_of_two",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Division(models.Model):
    """An age division of an event (P-AGE-1).

    ``pod`` names the pairing group: divisions sharing a pod are paired together and
    their OWP is computed over the pod (P-AGE-3, R-5); places are still per division.
    ``swiss_rounds`` / ``top_cut_size`` override the event's announced values when set.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="divisions")
    code = models.CharField(max_length=16, choices=DivisionCode.choices)
    pod = models.CharField(max_length=40)
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    top_cut_size = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event", "code"]
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="division_unique_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.get_code_display()}"

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

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A player entered in an event (P-LATE-1 ``late``; R-2 ``dropped_after_round``)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    division = models.ForeignKey(Division, on_delete=models.PROTECT, related_name="registrations")
    external_id = models.CharField(
        max_length=64, help_text="Id in the imported file (TOM userid) or generated."
    )
    late = models.BooleanField(default=False)
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    disqualified = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "external_id"], name="registration_unique_id")
        ]

    def __str__(self) -> str:
        return self.player.name

    @property
    def dropped(self) -> bool:
        return self.dropped_after_round is not None


class Phase(models.TextChoices):
    SWISS = "swiss", "Swiss"
    SWISS_DAY2 = "swiss-day2", "Swiss, Day 2"
    TOP_CUT = "top-cut", "Top cut"
    SINGLE_ELIMINATION = "single-elimination", "Single elimination"


class RoundStatus(models.TextChoices):
    """Lifecycle: paired → published → started → complete (P-POST-1, P-POST-2)."""

    PAIRED = "paired", "Paired (not public)"
    PUBLISHED = "published", "Published"
    STARTED = "started", "Started"
    COMPLETE = "complete", "Complete"


class Round(models.Model):
    """One round of one pod. Numbers run on through the top cut (Swiss 1–5, top cut 6–7).

    ``seed`` is the random seed the pairing used, so the round can be reproduced (I-1).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    pod = models.CharField(max_length=40)
    phase = models.CharField(max_length=24, choices=Phase.choices, default=Phase.SWISS)
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=RoundStatus.choices, default=RoundStatus.PAIRED
    )
    seed = models.BigIntegerField(default=0)
    paired_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "pod", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "pod", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.pod} · round {self.number}"

    @property
    def is_public(self) -> bool:
        return self.status != RoundStatus.PAIRED


class Outcome(models.TextChoices):
    """A match slip's result. Mirrors ``standings.engine.types.Outcome``."""

    PENDING = "pending", "Not reported"
    WIN = "win", "Win"
    DRAW = "draw", "Tie"
    DOUBLE_LOSS = "double-loss", "Double loss"
    BYE = "bye", "Bye"
    LOSS = "loss", "Late-entry loss"


class Match(models.Model):
    """A table of a round: one seat (bye or late-entry loss), two (head-to-head) or 3–5 (pod).

    ``version`` increases on every result change: a form carries the version it was
    rendered with, and a stale one is refused (optimistic check).
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.PENDING)
    winner = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    games = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    why = models.CharField(max_length=200, blank=True)
    pair_down = models.BooleanField(default=False)
    rematch = models.BooleanField(default=False)
    reported_at = models.DateTimeField(null=True, blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["round", "table"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome="win", winner__isnull=False)
                | (~Q(outcome="win") & Q(winner__isnull=True)),
                name="match_winner_iff_win",
            ),
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(table__isnull=False),
                name="match_unique_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · table {self.table or '-'}"

    @property
    def reported(self) -> bool:
        return self.outcome != Outcome.PENDING


class MatchSeat(models.Model):
    """A player's seat at a match. ``round`` is repeated here so the database can refuse a
    player seated twice in one round."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    conceded = models.BooleanField(
        default=False,
        help_text="Conceded or took a match-loss penalty: no share of a drawn pod (MP-PTS-1).",
    )

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seat_unique_in_match"),
            models.UniqueConstraint(
                fields=["round", "registration"], name="seat_player_once_per_round"
            ),
            models.CheckConstraint(condition=Q(seat__gte=1, seat__lte=5), name="seat_1_to_5"),
        ]

    def __str__(self) -> str:
        return f"{self.match} · seat {self.seat}"


class StaffRole(models.TextChoices):
    ORGANISER = "organiser", "Organiser"
    SCOREKEEPER = "scorekeeper", "Scorekeeper"
    JUDGE = "judge", "Judge"


class EventStaff(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    role = models.CharField(max_length=16, choices=StaffRole.choices)

    class Meta:
        verbose_name_plural = "event staff"
        constraints = [
            models.UniqueConstraint(fields=["event", "user", "role"], name="staff_unique_role")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.role} · {self.event}"


class AuditEvent(models.Model):
    """Who changed what, when, from which value to which, and why (P-POST-3, P-POST-4)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=40)
    object_type = models.CharField(max_length=40)
    object_id = models.CharField(max_length=40, blank=True)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%H:%M:%S} {self.action} {self.object_type}#{self.object_id}"


class BackgroundRunStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class BackgroundRun(models.Model):
    """Progress and failure of a Celery job (pairing or standings), polled by staff pages."""

    class Kind(models.TextChoices):
        PAIRING = "pairing", "Pairing"
        STANDINGS = "standings", "Standings"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="runs")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    pod = models.CharField(max_length=40, blank=True)
    status = models.CharField(
        max_length=16, choices=BackgroundRunStatus.choices, default=BackgroundRunStatus.QUEUED
    )
    seed = models.BigIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.pod} {self.status}"
