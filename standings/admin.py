from django.contrib import admin

from .models import StandingsSnapshot


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["event", "label", "rounds_complete", "final", "computed_at"]
