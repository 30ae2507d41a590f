"""Staff pages of ``tournaments`` (namespace ``staff``): creating an event, then players,
rounds and match slips under ``/e/<event>/staff/…``.

config/urls.py joins these with ``pairings.urls_staff`` and ``standings.urls_staff`` into
the ``staff`` namespace.
"""

from django.urls import path

from .views import staff

E = "e/<slug:slug>/staff/"

urlpatterns = [
    path("staff/new/", staff.event_create, name="event_create"),
    path(f"{E}players/", staff.players, name="players"),
    path(f"{E}players/add/", staff.player_add, name="player_add"),
    path(f"{E}players/import/", staff.players_import, name="players_import"),
    path(f"{E}players/<int:registration_id>/drop/", staff.player_drop, name="player_drop"),
    path(f"{E}rounds/<int:round_id>/", staff.round_detail, name="round"),
    path(f"{E}rounds/<int:round_id>/publish/", staff.round_publish, name="round_publish"),
    path(f"{E}rounds/<int:round_id>/start/", staff.round_start, name="round_start"),
    path(f"{E}matches/<int:match_id>/result/", staff.match_result, name="match_result"),
]
