"""Public event pages of ``tournaments`` under ``/e/<event>/`` (namespace ``public``).

config/urls.py joins these with ``standings.urls_public`` into the ``public`` namespace;
the home page (un-namespaced ``home``) is routed there too.
"""

from django.urls import path

from .views import public

E = "e/<slug:slug>/"

urlpatterns = [
    path(E, public.event_home, name="event"),
    path(f"{E}pairings/", public.pairings, name="pairings"),
    path(f"{E}bracket/", public.bracket, name="bracket"),
]
