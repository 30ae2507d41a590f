"""Staff standings page (namespace ``staff``, joined in config/urls.py)."""

from django.urls import path

from .views import staff

E = "e/<slug:slug>/staff/"

urlpatterns = [
    path(f"{E}standings/", staff.standings, name="standings"),
    path(f"{E}standings/print/", staff.print_standings, name="print_standings"),
]
