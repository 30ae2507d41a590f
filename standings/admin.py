"""Standings snapshots are read-only in the admin: every computed version is kept as it
was (P-POST-3); they change only by recomputing (a service)."""

from django.contrib import admin

from tournaments.admin import ReadOnlyAdmin

from .models import StandingsSnapshot


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(ReadOnlyAdmin):
    list_display = ["event", "label", "rounds_complete", "final", "computed_at"]
