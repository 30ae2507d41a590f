"""Django admin: read anything, change records only the way the staff pages do.

Issue 10, part 5. The audit trail the README promises holds only if nothing edits around
it, so:

* **Read-only** — AuditEvent and PenaltyNote (never edited or deleted, P-POST-3), and the
  records the services own: Match, MatchSeat, Round, Registration, SelfReport,
  BackgroundRun. No add, change or delete form saves them.
* **Changed through actions that call the services** — rounds (publish, start) and
  registrations (drop), each audited under the admin user's name; results are entered
  and corrected on the staff pages (slips, corrections with a reason).
* **Editable, validated** — Event (``Event.clean``: the ruleset's cut sizes), Division
  (``Division.clean``), Player, EventStaff.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from . import models, services
from .errors import MatchslipError
from .messages import shown


class ReadOnlyAdmin(admin.ModelAdmin):
    """Every field shown, nothing saved: no add, change or delete permission (the change
    page renders as a read-only view)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def service_action(
    description: str, call: Callable[[Any, Any], Any]
) -> Callable[[admin.ModelAdmin, HttpRequest, QuerySet], None]:
    """An admin action that runs ``call(obj, user)`` (a service) on each selected object,
    one transaction each, and reports how many succeeded and every refusal by message.
    Actions run even though the model is read-only: ``allowed_permissions`` asks for view
    only, because the service itself checks what may change and audits it."""

    def action(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
        done = 0
        for obj in queryset:
            try:
                call(obj, request.user)
            except MatchslipError as e:
                modeladmin.message_user(request, f"{obj}: {e}", messages.ERROR)
            else:
                done += 1
        if done:
            modeladmin.message_user(request, f"{description}: {done} done.", messages.SUCCESS)

    action.__name__ = "_".join(description.lower().split()[:3])  # the action's key
    action.short_description = description  # type: ignore[attr-defined]
    action.allowed_permissions = ("view",)  # type: ignore[attr-defined]
    return action


class DivisionInline(admin.TabularInline):
    model = models.Division
    extra = 0


class StaffInline(admin.TabularInline):
    model = models.EventStaff
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "ruleset", "structure", "status", "date"]
    list_filter = ["ruleset", "status"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["status"]
    inlines = [DivisionInline, StaffInline]


@admin.register(models.Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ["event", "code", "swiss_rounds", "top_cut_size", "flights"]
    list_filter = ["code"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "player_id", "birth_year"]
    search_fields = ["name", "player_id"]


@admin.register(models.Registration)
class RegistrationAdmin(ReadOnlyAdmin):
    list_display = ["player", "event", "division", "late", "dropped_after_round", "disqualified"]
    list_filter = ["late", "disqualified"]
    search_fields = ["player__name", "external_id"]
    actions = [
        service_action(
            "Drop selected players (audited)",
            lambda reg, user: services.registration_drop(
                registration=reg, by=user, reason="dropped in the admin"
            ),
        )
    ]


class SeatInline(ReadOnlyInline):
    model = models.MatchSeat


class CutSeedInline(ReadOnlyInline):
    model = models.CutSeed


@admin.register(models.PairingGroup)
class PairingGroupAdmin(ReadOnlyAdmin):
    """Groups are made by the services when an event is created, checked in, flighted or
    cut, never here."""

    list_display = ["event", "key", "phase", "flight", "parent"]
    list_filter = ["phase"]
    inlines = [CutSeedInline]


@admin.register(models.Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["event", "group", "number", "phase", "status", "seed"]
    list_filter = ["phase", "status"]
    actions = [
        service_action(
            "Publish selected rounds (audited)",
            lambda rnd, user: services.round_publish(round=rnd, by=user),
        ),
        service_action(
            "Start selected rounds (audited)",
            lambda rnd, user: services.round_start(round=rnd, by=user),
        ),
    ]


@admin.register(models.Match)
class MatchAdmin(ReadOnlyAdmin):
    """Results are entered and corrected on the staff pages (slips; corrections with a
    reason, inside the window P-POST-4 allows), never here."""

    list_display = ["round", "table", "kind", "outcome", "winner", "version"]
    list_filter = ["kind", "outcome"]
    inlines = [SeatInline]


@admin.register(models.MatchSeat)
class MatchSeatAdmin(ReadOnlyAdmin):
    list_display = ["match", "seat", "registration"]


@admin.register(models.EventStaff)
class EventStaffAdmin(admin.ModelAdmin):
    list_display = ["event", "user", "role"]
    list_filter = ["role"]


@admin.register(models.AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = [
        "at",
        "event",
        "actor",
        "actor_registration",
        "action",
        "object_type",
        "object_id",
        "round_number",
    ]
    list_filter = ["action"]
    search_fields = ["reason", "object_id"]


@admin.register(models.BackgroundRun)
class BackgroundRunAdmin(ReadOnlyAdmin):
    """Runs with their error and note in the reader's language (stored language-neutrally,
    ``tournaments.messages``)."""

    list_display = ["created_at", "event", "kind", "group", "status", "error_text", "note_text"]
    list_filter = ["kind", "status"]
    readonly_fields = ["error_text", "note_text"]

    @admin.display(description=_("Error"))
    def error_text(self, run: models.BackgroundRun) -> str:
        return shown(run.error)

    @admin.display(description=_("Note"))
    def note_text(self, run: models.BackgroundRun) -> str:
        return shown(run.note)


@admin.register(models.SelfReport)
class SelfReportAdmin(ReadOnlyAdmin):
    list_display = ["match", "registration", "outcome", "winner", "changes", "reported_at"]
    list_filter = ["outcome"]


@admin.register(models.PenaltyNote)
class PenaltyNoteAdmin(ReadOnlyAdmin):
    list_display = ["at", "event", "registration", "round_number", "kind", "infraction", "by"]
    list_filter = ["kind"]
