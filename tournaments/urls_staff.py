"""Staff URLs (namespace ``staff``): creating an event, then ``/e/<event>/staff/…``."""

from django.urls import path

from .views import staff

app_name = "staff"

E = "e/<slug:slug>/staff/"

urlpatterns = [
    path("staff/new/", staff.event_create, name="event_create"),
    path(E, staff.dashboard, name="dashboard"),
    path(f"{E}players/", staff.players, name="players"),
    path(f"{E}players/add/", staff.player_add, name="player_add"),
    path(f"{E}players/import/", staff.players_import, name="players_import"),
    path(f"{E}players/<int:registration_id>/drop/", staff.player_drop, name="player_drop"),
    path(f"{E}pair/", staff.pair, name="pair"),
    path(f"{E}runs/<int:run_id>/", staff.run_status, name="run"),
    path(f"{E}rounds/<int:round_id>/", staff.round_detail, name="round"),
    path(f"{E}rounds/<int:round_id>/publish/", staff.round_publish, name="round_publish"),
    path(f"{E}rounds/<int:round_id>/start/", staff.round_start, name="round_start"),
    path(f"{E}matches/<int:match_id>/result/", staff.match_result, name="match_result"),
    path(f"{E}standings/", staff.standings, name="standings"),
]
