"""Public standings page (namespace ``public``, joined in config/urls.py)."""

from django.urls import path

from .views import public

E = "e/<slug:slug>/"

urlpatterns = [
    path(f"{E}standings/", public.standings, name="standings"),
]
