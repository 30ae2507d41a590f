"""Rounds, their matches (tables) and seats, and the players' own result reports."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ._checks import one_of
from .events import Event, Registration
from .groups import PairingGroup


class Phase(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    SWISS_DAY2 = "swiss-day2", _("Swiss, Day 2")
    TOP_CUT = "top-cut", _("Top cut")
    SINGLE_ELIMINATION = "single-elimination", _("Single elimination")


class RoundStatus(models.TextChoices):
    """Lifecycle: paired → published → started → complete (P-POST-1, P-POST-2)."""

    PAIRED = "paired", _("Paired (not public)")
    PUBLISHED = "published", _("Published")
    STARTED = "started", _("Started")
    COMPLETE = "complete", _("Complete")


class Round(models.Model):
    """One round of one pairing group. Numbers run on through the top cut (Swiss 1–5,
    top cut 6–7).

    ``seed`` is the random seed the pairing used, so the round can be reproduced (I-1).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    group = models.ForeignKey(PairingGroup, on_delete=models.CASCADE, related_name="rounds")
    phase = models.CharField(max_length=24, choices=Phase.choices, default=Phase.SWISS)
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=RoundStatus.choices, default=RoundStatus.PAIRED
    )
    seed = models.BigIntegerField(default=0)
    notes = models.JSONField(
        default=list,
        blank=True,
        help_text="The pairing engine's notes for staff (e.g. unavoidable rematches).",
    )
    paired_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    # The round clock (tournaments.clock): paused while clock_paused_at is set; the
    # pauses that have ended and the time staff added, in seconds.
    clock_paused_at = models.DateTimeField(null=True, blank=True)
    clock_paused_seconds = models.PositiveIntegerField(default=0)
    clock_added_seconds = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["event", "group__key", "number"]
        constraints = [
            models.UniqueConstraint(fields=["group", "number"], name="round_unique_number"),
            models.CheckConstraint(
                condition=Q(clock_paused_at__isnull=True) | Q(started_at__isnull=False),
                name="round_clock_paused_once_started",
            ),
            one_of("phase", Phase.values, name="round_phase_valid"),
            one_of("status", RoundStatus.values, name="round_status_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.group.key} · round {self.number}"

    @property
    def is_public(self) -> bool:
        return self.status != RoundStatus.PAIRED


class Outcome(models.TextChoices):
    """A match slip's result. Mirrors ``standings.engine.types.Outcome``."""

    PENDING = "pending", _("Not reported")
    WIN = "win", _("Win")
    DRAW = "draw", _("Tie")
    DOUBLE_LOSS = "double-loss", _("Double loss")
    BYE = "bye", _("Bye")
    LOSS = "loss", _("Late-entry loss")


class MatchKind(models.TextChoices):
    """What a match is, stored when it is paired: ``why`` is display only."""

    SWISS = "swiss", _("Swiss")
    BRACKET = "bracket", _("Bracket")
    THIRD_PLACE = "third-place", _("3rd/4th place playoff")
    BYE = "bye", _("Bye")
    LATE_ENTRY_LOSS = "late-entry-loss", _("Late-entry loss")


class Seating(models.TextChoices):
    """Where a table sits, when it is not simply its bracket place (
    ``pairings.engine.seating``): at a player's fixed seat, or at a fixed seat numbered
    lower than its bracket place (marked so it is not taken for a top table)."""

    BRACKET = "", _("Bracket order")
    FIXED = "fixed", _("Fixed seat")
    FIXED_NOT_TOP = "fixed-not-top", _("Fixed seat, not a top table")


#: The kinds of a match that seats players against each other.
PLAYED_KINDS = (MatchKind.SWISS, MatchKind.BRACKET, MatchKind.THIRD_PLACE)


def match_kind(phase: str, outcome: str, *, third_place: bool = False) -> MatchKind:
    """What a match is, as it is paired or read from a file: a bye or a late-entry loss by
    its outcome (P-SW-5, P-LATE-1), the 3rd/4th place playoff of a bracket when the
    caller says so (P-TC-4, P-SE-6), else a Swiss match in a Swiss phase and a bracket
    match in an elimination phase."""
    if outcome == Outcome.BYE:
        return MatchKind.BYE
    if outcome == Outcome.LOSS:
        return MatchKind.LATE_ENTRY_LOSS
    if phase in (Phase.SWISS, Phase.SWISS_DAY2):
        return MatchKind.SWISS
    return MatchKind.THIRD_PLACE if third_place else MatchKind.BRACKET


class Match(models.Model):
    """A table of a round: one seat (bye or late-entry loss), two (head-to-head) or 3–5 (pod).

    ``version`` increases on every result change: a form carries the version it was
    rendered with, and a stale one is refused (optimistic check). ``bracket_changed`` is
    set when a correction of an earlier round changed a player's match points after this
    round was paired (P-POST-4, P-SW-9).
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=16, choices=MatchKind.choices, default=MatchKind.SWISS)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.PENDING)
    winner = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    games = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    why = models.CharField(max_length=200, blank=True)
    pair_down = models.BooleanField(default=False)
    rematch = models.BooleanField(default=False)
    intentional_draw_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a pod agreed an intentional draw (starts the 150-minute rule, MP-TIME-1).",
    )
    bracket_changed = models.BooleanField(
        default=False,
        help_text="A later correction moved a player of this pairing to another bracket (P-SW-9).",
    )
    extra_seconds = models.PositiveIntegerField(
        default=0,
        help_text="Time extension a judge gave this table (a deck check, a ruling), seconds.",
    )
    reported_at = models.DateTimeField(null=True, blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # the table is a player's fixed seat (stored when paired).
    seating = models.CharField(max_length=16, choices=Seating.choices, blank=True, default="")
    # the feature table's name (coverage, stream); "" when not featured.
    feature_table = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round", "table"]
        constraints = [
            one_of("seating", Seating.values, name="match_seating_valid"),
            models.UniqueConstraint(
                fields=["round", "feature_table"],
                condition=~Q(feature_table=""),
                name="match_unique_feature_table",
            ),
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
            one_of("outcome", Outcome.values, name="match_outcome_valid"),
            one_of("kind", MatchKind.values, name="match_kind_valid"),
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
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")
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


class SelfReport(models.Model):
    """One player's own report of their match result, from their private link.

    One report per player per match (the database refuses a second); the player may
    change it until the opponent confirms (reports the same result). Reports are never
    deleted: they stay next to the recorded result, which a staff entry overrides.
    ``games``: the game record of a best-of-3 ruleset (wins of seat 1, wins of seat 2,
    drawn games; M-MATCH-1), part of what the two players must agree on.
    ``one_browser`` stays set once a report came from a browser that had
    reported for another player of the same table: the table is a dispute for staff.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    winner = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    games = models.JSONField(null=True, blank=True)
    changes = models.PositiveSmallIntegerField(default=0)
    reported_at = models.DateTimeField(auto_now=True)
    # the browser that last sent this report (its signed cookie, see
    # ``tournaments.browsers``; "" when unknown) and whether a browser that had already
    # reported for another player of the table sent it: such a table is held for staff.
    browser = models.CharField(max_length=64, blank=True, default="")
    one_browser = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("self-report")
        verbose_name_plural = _("self-reports")
        ordering = ["match", "registration"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "registration"], name="self_report_once_per_player"
            ),
            models.CheckConstraint(
                condition=Q(outcome__in=["win", "draw", "double-loss"]),
                name="self_report_outcome",
            ),
            models.CheckConstraint(
                condition=Q(outcome="win", winner__isnull=False)
                | (~Q(outcome="win") & Q(winner__isnull=True)),
                name="self_report_winner_iff_win",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} · report of {self.registration_id}"

    def differs_from(self, match: Match) -> bool:
        """The report says something else than the match's recorded result (a report
        with a game record differs when the recorded games differ, M-MATCH-1)."""
        if (self.outcome, self.winner_id) != (match.outcome, match.winner_id):
            return True
        return self.games is not None and self.games != match.games

    def same_result(self, other: SelfReport) -> bool:
        """Both reports say the same result, game record included (M-MATCH-1)."""
        return (self.outcome, self.winner_id, self.games) == (
            other.outcome,
            other.winner_id,
            other.games,
        )
