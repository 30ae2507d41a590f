"""Staff standings page (namespace ``staff``, joined in config/urls.py)."""

from django.urls import path

from .views import csv_views, staff, tdf
from .views.time_called import time_called_view

E = "e/<slug:slug>/staff/"

urlpatterns = [
    path(f"{E}standings/", staff.standings, name="standings"),
    path(f"{E}standings/retry/", staff.standings_retry, name="standings_retry"),
    path(f"{E}standings/print/", staff.print_standings, name="print_standings"),
    path(f"{E}export.tdf", tdf.tdf_download, name="tdf_download"),
    path(f"{E}standings.csv", csv_views.standings_csv, name="standings_csv"),
    path(f"{E}pairings.csv", csv_views.pairings_csv, name="pairings_csv"),
    path(
        f"{E}matches/<int:match_id>/time-called/", time_called_view, name="time_called"
    ),  # W-TIME-1
]
