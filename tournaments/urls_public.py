"""Public URLs: the home page (``home``) and the event pages (namespace ``public``).

``home`` stays un-namespaced: settings.LOGIN_REDIRECT_URL and LOGOUT_REDIRECT_URL name it.
"""

from django.urls import include, path

from .views import public

event_patterns = (
    [
        path("", public.event_home, name="event"),
        path("pairings/", public.pairings, name="pairings"),
        path("standings/", public.standings, name="standings"),
        path("bracket/", public.bracket, name="bracket"),
    ],
    "public",
)

urlpatterns = [
    path("", public.home, name="home"),
    path("e/<slug:slug>/", include(event_patterns)),
]
