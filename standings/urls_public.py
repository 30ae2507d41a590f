"""Public standings page and the tiebreaker receipts (namespace ``public``, joined in
config/urls.py): one per player of the standings, and the player's own from their
private link."""

from django.urls import path

from .views import public, receipts

E = "e/<slug:slug>/"

urlpatterns = [
    path(f"{E}standings/", public.standings, name="standings"),
    path(f"{E}standings/player/<int:registration_id>/", receipts.receipt, name="receipt"),
    path(f"{E}p/<str:token>/receipt/", receipts.player_receipt, name="player_receipt"),
]
