"""Django admin for every model (read and fix data by hand; services remain the normal path)."""

from django.contrib import admin

from . import models


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
    inlines = [DivisionInline, StaffInline]


@admin.register(models.Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ["event", "code", "pod", "swiss_rounds", "top_cut_size"]
    list_filter = ["code"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "player_id", "birth_year"]
    search_fields = ["name", "player_id"]


@admin.register(models.Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "division", "late", "dropped_after_round", "disqualified"]
    list_filter = ["late", "disqualified"]
    search_fields = ["player__name", "external_id"]
    raw_id_fields = ["player"]


class SeatInline(admin.TabularInline):
    model = models.MatchSeat
    extra = 0
    raw_id_fields = ["registration", "round"]


@admin.register(models.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "pod", "number", "phase", "status", "seed"]
    list_filter = ["phase", "status"]


@admin.register(models.Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "outcome", "winner", "version"]
    list_filter = ["outcome"]
    raw_id_fields = ["round", "winner"]
    inlines = [SeatInline]


@admin.register(models.MatchSeat)
class MatchSeatAdmin(admin.ModelAdmin):
    list_display = ["match", "seat", "registration"]
    raw_id_fields = ["match", "round", "registration"]


@admin.register(models.EventStaff)
class EventStaffAdmin(admin.ModelAdmin):
    list_display = ["event", "user", "role"]
    list_filter = ["role"]


@admin.register(models.AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
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
class BackgroundRunAdmin(admin.ModelAdmin):
    list_display = ["created_at", "event", "kind", "pod", "status"]
    list_filter = ["kind", "status"]


@admin.register(models.SelfReport)
class SelfReportAdmin(admin.ModelAdmin):
    list_display = ["match", "registration", "outcome", "winner", "changes", "reported_at"]
    list_filter = ["outcome"]
    raw_id_fields = ["match", "registration", "winner"]


@admin.register(models.PenaltyNote)
class PenaltyNoteAdmin(admin.ModelAdmin):
    list_display = ["at", "event", "registration", "round_number", "kind", "infraction", "by"]
    list_filter = ["kind"]
    raw_id_fields = ["registration"]
