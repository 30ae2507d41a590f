"""Public event pages of ``tournaments`` under ``/e/<event>/`` (namespace ``public``),
and each player's private link ``/e/<event>/p/<token>/``.

config/urls.py joins these with ``standings.urls_public`` into the ``public`` namespace;
the home page (un-namespaced ``home``) is routed there too.
"""

from django.urls import path

from .views import (
    checkin,
    decklists,
    guides,
    live,
    offline,
    player,
    prebuilt,
    public,
    seating,
    timer,
)

E = "e/<slug:slug>/"
P = f"{E}p/<str:token>/"

urlpatterns = [
    # the offline worker: at /e/, it controls every event's pages (views.offline)
    path("e/service-worker.js", offline.service_worker, name="service_worker"),
    path(E, public.event_home, name="event"),
    path(f"{E}live/", live.public_live, name="live"),
    path(f"{E}pairings/", public.pairings, name="pairings"),
    path(f"{E}pairings/find/", prebuilt.pairings_find, name="pairings_find"),
    path(f"{E}bracket/", public.bracket, name="bracket"),
    path(f"{E}timer/", timer.timer, name="timer"),
    path(f"{E}standings/help/", guides.standings_help, name="standings_help"),
    path(P, player.player_home, name="player"),
    path(f"{P}table/", prebuilt.player_table, name="player_table"),
    path(f"{P}live/", live.player_live, name="player_live"),
    path(f"{P}report/", player.player_report, name="player_report"),
    path(f"{P}manifest.webmanifest", offline.player_manifest, name="player_manifest"),
    path(f"{P}drop/", player.player_drop, name="player_drop"),
    path(f"{P}featured/", seating.player_feature_choice, name="player_feature"),
    path(f"{P}checkin/", checkin.player_checkin, name="player_checkin"),
    path(f"{P}judge/", player.player_judge_call, name="player_judge_call"),
    # the player's own deck list; the lists published after the event
    path(f"{P}decklist/", decklists.player_decklist, name="player_decklist"),
    path(f"{E}decklists/", decklists.decklists_public, name="decklists"),
    path(f"{E}decklists/<int:registration_id>/", decklists.decklist_public, name="decklist"),
    path(f"{E}checkin/", checkin.door_checkin, name="checkin"),
]
