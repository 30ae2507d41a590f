"""Staff standings page (namespace ``staff``, joined in config/urls.py)."""

from django.urls import path

from .views import staff
from .views.time_called import time_called_view

E = "e/<slug:slug>/staff/"

urlpatterns = [
    path(f"{E}standings/", staff.standings, name="standings"),
    path(f"{E}standings/retry/", staff.standings_retry, name="standings_retry"),
    path(f"{E}standings/print/", staff.print_standings, name="print_standings"),
    path(
        f"{E}matches/<int:match_id>/time-called/", time_called_view, name="time_called"
    ),  # W-TIME-1
]
